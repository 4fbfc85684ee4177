"""Atomic writes and byte comparison of a catalog folder.

A catalog is written into a fresh sibling folder that then takes the place of
the old one, so a failed or interrupted regen leaves the previous output whole:
rendering happens in memory before anything touches the disk, and the folder
swap is two renames. If a run dies between them, the next run finds the backup
and puts it back before doing anything else.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from generator.vocab.files import RECORD_FILE

Files = dict[str, bytes]   # path relative to the catalog folder -> bytes


def _backup(out: Path) -> Path:
    return out.with_name(f".{out.name}.previous")


def recover(out: Path) -> None:
    """Undo a swap that was interrupted between its two renames."""
    backup = _backup(out)
    if backup.exists():
        if out.exists():
            shutil.rmtree(backup)
        else:
            backup.rename(out)


def write_catalog(out: Path, files: Files) -> None:
    recover(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for rel, data in sorted(files.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        staging.chmod(0o755)
        backup = _backup(out)
        if out.exists():
            out.rename(backup)
        try:
            staging.rename(out)
        except BaseException:
            # The previous output is already moved aside: put it back before
            # reporting, so a failed swap never leaves the folder missing.
            recover(out)
            raise
        if backup.exists():
            shutil.rmtree(backup)
    finally:
        if staging.exists():
            shutil.rmtree(staging)


def on_disk(out: Path) -> Files:
    """The folder's catalog files: everything but caches and its record (a hint)."""
    if not out.is_dir():
        return {}
    found = {}
    for path in sorted(out.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            rel = path.relative_to(out).as_posix()
            if rel != RECORD_FILE:
                found[rel] = path.read_bytes()
    return found


@dataclass(frozen=True)
class Difference:
    path: str
    kind: str          # missing | changed | extra
    diff: str


def compare(out: Path, files: Files, current: Files | None = None) -> list[Difference]:
    """How ``files`` differ from the folder (``current``: its files, if already read)."""
    current = on_disk(out) if current is None else current
    found = []
    for rel in sorted(set(files) | set(current)):
        want, have = files.get(rel), current.get(rel)
        if want == have:
            continue
        kind = "missing" if have is None else "extra" if want is None else "changed"
        found.append(Difference(rel, kind, _unified(out / rel, have, want)))
    return found


MAX_DIFF_LINES = 4000   # per side, of the region between the first and last change
MAX_DIFF_CHARS = 20000
_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _unified(path: Path, have: bytes | None, want: bytes | None) -> str:
    """A unified diff of the changed region only.

    difflib is quadratic in the worst case: over two 11 MB catalogs it ran for
    minutes. Lines shared at both ends are set aside first (hunk line numbers are
    shifted back), and a region still longer than MAX_DIFF_LINES is cut.
    """
    old = (have or b"").decode("utf-8", "replace").splitlines(keepends=True)
    new = (want or b"").decode("utf-8", "replace").splitlines(keepends=True)
    start = 0
    while start < min(len(old), len(new)) and old[start] == new[start]:
        start += 1
    end = 0
    while end < min(len(old), len(new)) - start and old[-1 - end] == new[-1 - end]:
        end += 1
    start, end = max(start - 2, 0), max(end - 2, 0)
    old_mid, new_mid = old[start:len(old) - end], new[start:len(new) - end]
    cut = len(old_mid) > MAX_DIFF_LINES or len(new_mid) > MAX_DIFF_LINES
    lines = difflib.unified_diff(old_mid[:MAX_DIFF_LINES], new_mid[:MAX_DIFF_LINES],
                                 f"{path} (on disk)", f"{path} (generated)", n=2)
    text = "".join(_shift(line, start) for line in lines)
    if cut:
        text += f"... (diff cut after {MAX_DIFF_LINES} changed lines)\n"
    if len(text) > MAX_DIFF_CHARS:
        text = text[:MAX_DIFF_CHARS] + f"\n... (diff cut at {MAX_DIFF_CHARS} characters)\n"
    return text


def _shift(line: str, offset: int) -> str:
    match = _HUNK.match(line)
    if not match or not offset:
        return line
    a, b, c, d = match.groups()
    head = f"@@ -{int(a) + offset}{b or ''} +{int(c) + offset}{d or ''} @@"
    return head + line[match.end():]
