"""What toolcat itself is, as digests: its own files, and the packages it runs on.

Two runs of the same identity on the same inputs write the same bytes (the
determinism tests hold toolcat to that), so an identity digest can stand in for
"the code that would run" when deciding whether output can be trusted unchanged.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
TEMPLATES = "templates"
DISTRIBUTION = "toolcat"
_NAME = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")
_REQUIRES = re.compile(r"^Requires-Dist: *(.*?)\s*$", re.M)


def _default_templates() -> Path:
    """The templates shipped as the package's data (in a checkout, the link to templates/).

    Here rather than beside the jinja2 environment so that digests of toolcat's
    own files need neither jinja2 nor the render stage. The package's folder as
    ``importlib.resources.files`` spells it (unresolved), without importing it and
    zipfile (5 ms of a cached check): toolcat runs only from a folder (``PACKAGE``).
    """
    return Path(__file__).parent / TEMPLATES


DEFAULT_TEMPLATES = _default_templates()


@cache
def files_digest() -> str:
    """sha256 of every file of the generator package and the default templates (in
    the order of their relative paths' parts, as sorted ``Path.rglob`` gave them)."""
    digest = hashlib.sha256()
    for label, base in (("generator", PACKAGE), ("templates", DEFAULT_TEMPLATES)):
        # The package's data is counted once, under its own label.
        for parts, file in sorted(_files(base, TEMPLATES if label == "generator" else "")):
            digest.update(f"{label}/{'/'.join(parts)}\0".encode())
            with open(file, "rb") as handle:
                digest.update(handle.read() + b"\0")
    return digest.hexdigest()


def _files(base: Path, skipped: str) -> list[tuple[tuple[str, ...], str]]:
    """(relative parts, path) of every regular file under ``base``, outside any
    ``__pycache__`` and the top folder ``skipped``; a linked folder is not entered.
    ``os.walk`` leaves the bytecode folders unlisted: a quarter of the time that
    ``rglob`` took to list and test their files (every run keys a cache by this)."""
    found: list[tuple[tuple[str, ...], str]] = []
    for folder, dirs, names in os.walk(base):
        rel = os.path.relpath(folder, base)
        parts = () if rel == "." else tuple(rel.split(os.sep))
        dirs[:] = [d for d in dirs if d != "__pycache__" and (parts or d != skipped)]
        found += [((*parts, name), path) for name in names
                  if os.path.isfile(path := os.path.join(folder, name))]
    return found


@cache
def requirement_versions() -> tuple[str, ...]:
    """``name==version`` of toolcat and every package it requires, transitively.

    Only unconditional requirements are followed (no extras, no environment
    markers), so the list is the same wherever the same pins are installed,
    whatever else the environment holds. A requirement that is not installed
    reads ``name==absent``.
    """
    installed = _installed()
    found: dict[str, str] = {}
    todo = [DISTRIBUTION]
    while todo:
        name = _normal(todo.pop())
        if name in found:
            continue
        if name not in installed:
            found[name] = "absent"
            continue
        found[name], folder = installed[name]
        for requirement in _REQUIRES.findall(_metadata(folder)):
            match = _NAME.match(requirement)
            if match and ";" not in requirement:
                todo.append(match.group(1))
    return tuple(f"{name}=={version}" for name, version in sorted(found.items()))


@cache
def pinned_versions() -> tuple[str, ...]:
    """``name==version`` (installed) of toolcat and of each requirement it pins exactly:
    the packages whose version changes its output (README, "Installing"). Ranges
    (click, jinja2, pydantic, mcp) and what they pull in are left out, so two
    environments that write the same bytes name the same versions."""
    installed = _installed()
    names = {DISTRIBUTION}
    if DISTRIBUTION in installed:
        for requirement in _REQUIRES.findall(_metadata(installed[DISTRIBUTION][1])):
            match = _NAME.match(requirement)
            if match and "==" in requirement and ";" not in requirement:
                names.add(_normal(match.group(1)))
    return tuple(f"{name}=={installed.get(name, ('absent', None))[0]}"
                 for name in sorted(names))


def installed_version(name: str) -> str:
    """The installed version of distribution ``name`` (``absent`` when not installed)."""
    return _installed().get(_normal(name), ("absent", None))[0]


@cache
def _installed() -> dict[str, tuple[str, Path]]:
    """name -> (version, .dist-info folder), first on sys.path wins, as imports do.

    Read from the folder names (``name-version.dist-info``): importlib.metadata
    parses every installed package's metadata to answer the same, 0.1 s of a
    0.4 s ``check``.
    """
    found: dict[str, tuple[str, Path]] = {}
    for entry in sys.path:
        try:
            names = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for folder in names:
            if folder.endswith(".dist-info") and "-" in folder:
                name, _, version = folder[:-len(".dist-info")].partition("-")
                found.setdefault(_normal(name), (version, Path(entry or ".") / folder))
    return found


def _metadata(folder: Path) -> str:
    try:
        return (folder / "METADATA").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()
