"""Atomic writes and byte comparison of a catalog folder.

A catalog is written into a fresh sibling folder that then takes the place of
the old one, so a failed or interrupted regen leaves the previous output whole:
rendering happens in memory before anything touches the disk, and the folder
swap is two renames. If a run dies between them, the next run (``generate`` or
``check``) finds the backup and puts it back before doing anything else. Runs on
the same parent folder take turns (an advisory lock on the folder itself, so no
lock file is left behind), and each removes the staging folders of killed runs:
they carry their run's process id, and one whose process is gone is stale.
"""

from __future__ import annotations

import difflib
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..vocab.files import RECORD_FILE

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


@contextmanager
def parent_locked(out: Path) -> Iterator[None]:
    """Hold an exclusive advisory lock on ``out``'s parent folder (where fcntl exists)."""
    out.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl  # noqa: PLC0415 - POSIX only
    except ImportError:
        yield
        return
    handle = os.open(out.parent, os.O_RDONLY)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield
    finally:
        os.close(handle)   # releases the lock


def _staging_prefix(out: Path) -> str:
    return f".{out.name}.staging-"


def remove_stale_staging(out: Path) -> None:
    """Remove staging folders left by killed runs (their process no longer exists)."""
    prefix = _staging_prefix(out)
    for entry in out.parent.glob(prefix + "*"):
        pid = entry.name[len(prefix):].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)) and entry.is_dir() \
                and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True   # exists, owned by someone else
    return True


def write_catalog(out: Path, files: Files, guard: Callable[[], None] | None = None) -> None:
    """Replace ``out`` by a folder of ``files``; ``guard`` (raising to refuse) runs under
    the lock, so the folder it judges is the one replaced: another toolcat run that
    wrote into it meanwhile has finished, and none can start until the swap is done."""
    with parent_locked(out):
        recover(out)
        if guard is not None:
            guard()
        remove_stale_staging(out)
        _swap_in(out, files)


def _swap_in(out: Path, files: Files) -> None:
    staging = Path(tempfile.mkdtemp(prefix=f"{_staging_prefix(out)}{os.getpid()}-",
                                    dir=out.parent))
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
    """The folder's catalog files: everything but bytecode caches and its record.

    Only regular files are read. Nothing else is followed or opened (a symlink could
    name /dev/zero or a file outside the folder, a FIFO would block): such an entry
    stands in as ``NOT_REGULAR``, which no rendered file equals, so ``check`` reports
    it instead of reading it.
    """
    if out.is_symlink() or not out.is_dir():
        return {}
    found = {}
    for folder, dirs, names in os.walk(out):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        base = Path(folder)
        for name in sorted(names) + [d for d in dirs if (base / d).is_symlink()]:
            path = base / name
            rel = path.relative_to(out).as_posix()
            if rel == RECORD_FILE:
                continue
            found[rel] = _read_regular(path)
    return dict(sorted(found.items()))


NOT_REGULAR = b"(not a regular file: toolcat does not follow or read it)\n"


def _read_regular(path: Path) -> bytes:
    try:
        mode = path.lstat().st_mode
        if not stat.S_ISREG(mode):
            return NOT_REGULAR
        with open(path, "rb", opener=_no_follow) as handle:
            return handle.read()
    except OSError:
        return NOT_REGULAR


def _no_follow(name: str, flags: int) -> int:
    # Swapped for a symlink or FIFO after the lstat: refuse to follow or block.
    return os.open(name, flags | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))


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
