"""One side of a diff: a catalog.json file, a catalog folder, or a path at a git revision.

A catalog is checked for the shape the classifier relies on before anything is
compared, so a wrong file fails here with its name and a fix instead of as a
KeyError three stages later.
"""

from __future__ import annotations

import fnmatch
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..config import load_config
from ..errors import fail
from ..jsonio import loads
from ..parse.limits import MAX_FILE_BYTES, read_bounded
from ..render.catalog import tools_digest
from ..vocab.files import CATALOG_FILE

FORMATS = frozenset({1, 2})
GENERATED_GLOB = "generated/*/catalog.json"
_NOT_A_CATALOG = "point at a catalog.json written by `toolcat generate`, or at its folder"


@dataclass(frozen=True)
class ToolRecord:
    tool: dict[str, Any]       # exactly what tools/list returns
    binding: dict[str, Any]


@dataclass(frozen=True)
class CatalogView:
    label: str                 # where it was read from, for messages
    name: str
    digest: str | None         # of the tools as read (recomputed, not the stored field)
    tools: dict[str, ToolRecord]
    meta: dict[str, Any]       # every top-level field except the tools


@dataclass(frozen=True)
class Pair:
    """The same catalog on two sides; None where it does not exist."""

    label: str
    old: CatalogView | None
    new: CatalogView | None


def parse_catalog(data: bytes, label: str) -> CatalogView:
    try:
        doc = loads(data)
    except ValueError as exc:
        raise fail(label, "", f"not valid JSON ({exc})", _NOT_A_CATALOG) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("tools"), list):
        raise fail(label, "/tools", "not a toolcat catalog: there is no 'tools' list",
                   _NOT_A_CATALOG)
    if doc.get("format") not in FORMATS:
        raise fail(label, "/format", f"catalog format {doc.get('format')!r} is not one this "
                   f"toolcat reads ({', '.join(map(str, sorted(FORMATS)))})",
                   "regenerate both sides with the same toolcat version")
    tools: dict[str, ToolRecord] = {}
    for index, entry in enumerate(doc["tools"]):
        record = _record(entry, label, index)
        name = record.tool["name"]
        if name in tools:
            raise fail(label, f"/tools/{index}/tool/name", f"tool '{name}' appears twice",
                       "regenerate the catalog; toolcat never writes a name twice")
        tools[name] = record
    # Recomputed, never read: a hand-edited tool under the old "digest" field would
    # otherwise pass for unchanged. The stored field stays in meta, so a stale one
    # shows up as a differing catalog field.
    digest = tools_digest([record.tool for record in tools.values()])
    meta = {k: v for k, v in doc.items() if k != "tools"}
    return CatalogView(label, str(doc.get("name", "")), digest, tools, meta)


def _record(entry: Any, label: str, index: int) -> ToolRecord:
    where = f"/tools/{index}"
    if not isinstance(entry, dict) or not isinstance(entry.get("tool"), dict) \
            or not isinstance(entry.get("binding"), dict):
        raise fail(label, where, "a tool entry needs a 'tool' and a 'binding' object",
                   _NOT_A_CATALOG)
    tool, binding = entry["tool"], entry["binding"]
    if not isinstance(tool.get("name"), str) or not isinstance(tool.get("inputSchema"), dict):
        raise fail(label, f"{where}/tool", "a tool needs a string 'name' and an "
                   "'inputSchema' object", _NOT_A_CATALOG)
    if not isinstance(binding.get("arguments"), dict):
        raise fail(label, f"{where}/binding/arguments", "a binding needs an 'arguments' "
                   "object", _NOT_A_CATALOG)
    return ToolRecord(tool, binding)


def read_side(path: Path) -> CatalogView:
    """A catalog.json, or a folder holding one (read within ``parse.limits``)."""
    file = path / CATALOG_FILE if path.is_dir() else path
    if path.is_dir() and not file.is_file():
        raise fail(str(path), "", f"this folder holds no {CATALOG_FILE}", _NOT_A_CATALOG)
    if not os.path.lexists(file):
        raise fail(str(path), "", "no such file or folder",
                   "check the path; each side is a catalog.json or a catalog folder")
    return parse_catalog(read_bounded(file, fix=_SIDE_FIX), str(file))


_SIDE_FIX = "each side is a catalog.json (a regular file) or a catalog folder"


# --- git ------------------------------------------------------------------------------

def _git(args: list[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise fail("git", "", f"cannot run git ({exc.strerror})",
                   "install git, or compare two files: toolcat diff OLD NEW") from None


def _repo_root(cwd: Path) -> Path:
    done = _git(["rev-parse", "--show-toplevel"], cwd)
    if done.returncode != 0:
        raise fail(str(cwd), "", "not inside a git repository",
                   "run from the project's clone, or compare two files: toolcat diff OLD NEW")
    return Path(done.stdout.decode().strip()).resolve()


def _verify(rev: str, cwd: Path) -> None:
    done = _git(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd)
    if done.returncode != 0:
        raise fail(f"--base {rev}", "", f"git knows no commit '{rev}'",
                   "fetch it first (in CI: actions/checkout with fetch-depth: 0, then "
                   "origin/<branch>), or name an existing commit")


def _at_revision(rev: str, rel: str, cwd: Path) -> bytes | None:
    """The file's bytes at ``rev`` (``git show REV:path``), None where it does not exist."""
    if _git(["cat-file", "-e", f"{rev}:{rel}"], cwd).returncode != 0:
        return None
    size = _git(["cat-file", "-s", f"{rev}:{rel}"], cwd).stdout.strip()
    if size.isdigit() and int(size) > MAX_FILE_BYTES:
        raise fail(f"{rev}:{rel}", "", f"the file is larger than toolcat's limit of "
                   f"{MAX_FILE_BYTES // (1024 * 1024)} MiB", "compare smaller catalogs")
    done = _git(["show", f"{rev}:{rel}"], cwd)
    if done.returncode != 0:
        raise fail(f"{rev}:{rel}", "", f"git show failed: {done.stderr.decode().strip()}",
                   "check the repository with `git fsck`")
    return done.stdout


def _listed_at_revision(rev: str, prefix: str, cwd: Path) -> set[str]:
    """Repository paths matching ``generated/*/catalog.json`` (under ``prefix``) at ``rev``."""
    pattern = f"{prefix}{GENERATED_GLOB}"
    done = _git(["ls-tree", "-r", "--name-only", rev, "--", f"{prefix}generated"], cwd)
    names = done.stdout.decode().splitlines() if done.returncode == 0 else []
    return {n for n in names if fnmatch.fnmatchcase(n, pattern) and n.count("/") ==
            pattern.count("/")}


def working_catalogs(config: Path, cwd: Path) -> set[Path]:
    """The catalogs the config names, and every generated/*/catalog.json, as absolute paths."""
    found = {p.resolve() for p in cwd.glob(GENERATED_GLOB)}
    config = config if config.is_absolute() else cwd / config
    if os.path.lexists(config):
        found |= {(t.output / CATALOG_FILE).resolve() for t in load_config(config)}
    return found


def revision_pairs(rev: str, config: Path, cwd: Path) -> list[Pair]:
    """Every catalog of the working tree beside the same path at ``rev``.

    A catalog present on one side only compares with nothing: all its tools
    are added (or removed).
    """
    root = _repo_root(cwd)
    _verify(rev, cwd)
    here = cwd.resolve()
    prefix = here.relative_to(root).as_posix() + "/" if here != root else ""
    rels: set[str] = set()
    for path in working_catalogs(config, here):
        if not path.is_relative_to(root):
            raise fail(str(path), "", "this catalog lies outside the git repository",
                       "move the catalog output inside the repository, or compare two "
                       "files: toolcat diff OLD NEW")
        rels.add(path.relative_to(root).as_posix())
    rels |= _listed_at_revision(rev, prefix, here)
    if not rels:
        raise fail(str(config), "", f"no catalogs found (neither the config nor "
                   f"{GENERATED_GLOB} names any)",
                   "run from the project root, or pass --config")
    pairs = []
    for rel in sorted(rels):
        label = Path(os.path.relpath(root / rel, here)).as_posix()
        old_bytes = _at_revision(rev, rel, here)
        new_file = root / rel
        old = parse_catalog(old_bytes, f"{rev}:{rel}") if old_bytes is not None else None
        new = (parse_catalog(read_bounded(new_file, fix=_SIDE_FIX), label)
               if os.path.lexists(new_file) else None)
        pairs.append(Pair(label, old, new))
    return pairs
