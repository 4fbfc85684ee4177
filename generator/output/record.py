"""The record a catalog folder keeps of what it was generated from.

``generate`` writes ``.toolcat-inputs.json`` beside the catalog: the sha256 of
every spec file read (paths relative to the spec's folder), of the override
file, the target's settings, toolcat's identity (its own files, its templates and
the versions of every package it requires: generator/identity.py) and the sha256
of every file it wrote. ``check`` on a folder whose record still matches all of
that has nothing to regenerate: the catalog is a pure function of exactly those
inputs, so the same inputs would give the same bytes. Any difference, or a
missing or unreadable record, sends ``check`` down the ordinary path: regenerate
in memory and compare bytes.

The record is a hint, not output: ``check`` never reports it stale, and its
toolcat identity may differ between machines with different package versions,
which only costs those machines the ordinary path.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from generator.identity import generator_digest
from generator.jsonio import dumps
from generator.output.files import Files
from generator.vocab.digests import sha256_tagged as _sha256
from generator.vocab.files import RECORD_FILE

if TYPE_CHECKING:
    from generator.config import Target

FORMAT = 1
SpecFiles = dict[str, str]   # path relative to the spec's folder -> sha256


def spec_files(files: dict[Path, bytes], spec: Path) -> SpecFiles:
    """The record's view of the files a spec was read from."""
    root = spec.resolve().parent
    return {_relative(path, root): _sha256(data) for path, data in sorted(files.items())}


def make_record(target: Target, read: SpecFiles, files: Files, tools: int) -> bytes:
    return dumps({
        "format": FORMAT,
        "generator": generator_digest(),
        "settings": _settings(target),
        "spec": dict(sorted(read.items())),
        "overrides": _overrides(target),
        "outputs": {rel: _sha256(data) for rel, data in sorted(files.items())},
        "tools": tools,
    })


def confirmed(target: Target, on_disk: Files) -> int | None:
    """The tool count, when the record shows ``on_disk`` is what a run would write.

    ``on_disk``: the folder's files other than the record itself.
    """
    try:
        record = orjson.loads((target.output / RECORD_FILE).read_bytes())
        if not isinstance(record, dict) or record.get("format") != FORMAT:
            return None
        root = target.spec.resolve().parent
        read = record["spec"]
        if (record["generator"] != generator_digest()
                or record["settings"] != _settings(target)
                or record["overrides"] != _overrides(target)
                or _relative(target.spec.resolve(), root) not in read
                or any(_sha256((root / rel).read_bytes()) != sha
                       for rel, sha in read.items())
                or record["outputs"] != {rel: _sha256(data)
                                         for rel, data in on_disk.items()}):
            return None
        tools = record["tools"]
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return tools if isinstance(tools, int) else None


def _settings(target: Target) -> dict[str, Any]:
    """What of the target shapes the output, besides the files it names."""
    settings: dict[str, Any] = {
        "name": target.name, "spec": target.spec_label, "prefix": target.prefix,
        "nameBudget": target.name_budget, "openWorld": target.open_world}
    if target.regenerate:       # named in the module, so part of what shapes it
        settings["regenerate"] = target.regenerate
    selection = target.selection
    if selection is not None:   # only when set, so records without one keep their bytes
        settings["selection"] = {
            side: selector.describe() if selector is not None else None
            for side, selector in (("include", selection.include),
                                   ("exclude", selection.exclude))}
    return settings


def _overrides(target: Target) -> str | None:
    if target.overrides is None:
        return None
    return _sha256(target.overrides.read_bytes())


def _relative(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path, root)).as_posix()
