"""Atomic writes and byte comparison of a catalog folder.

A catalog is written into a fresh sibling folder that then takes the place of
the old one, so a failed or interrupted regen leaves the previous output whole:
rendering happens in memory before anything touches the disk, and the folder
swap is two renames. If a run dies between them, the next ``generate`` finds the
backup and puts it back before doing anything else (``check`` changes nothing).
Runs on the same parent folder take turns (an advisory lock on the folder itself,
so no lock file is left behind), and each removes the staging folders of killed
runs: they carry their run's process id, and one whose process is gone is stale.

toolcat deletes only what it can prove it made: a staging or backup folder holds
a marker file (``MARKER``) whose bytes name its role and its catalog folder, and
is removed only when it is a real folder (not a symlink) holding that marker.
Anything else under those names is left alone; a backup name taken by something
toolcat did not make is a located refusal (docs/check.md).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..errors import ToolcatError, fail
from ..parse.limits import read_bounded

Files = dict[str, bytes]   # path relative to the catalog folder -> bytes

MARKER = ".toolcat-swap"   # in staging and backup folders only, never in a catalog


def _backup(out: Path) -> Path:
    return out.with_name(f".{out.name}.previous")


def _marker(out: Path, role: str) -> bytes:
    return f"toolcat {role} folder of {out.name}; removed by toolcat\n".encode()


def _mark(folder: Path, out: Path, role: str) -> None:
    with open(folder / MARKER, "wb") as handle:
        handle.write(_marker(out, role))
        handle.flush()
        os.fsync(handle.fileno())


def made_by_toolcat(folder: Path, out: Path, role: str) -> bool:
    """Is ``folder`` a real folder holding the marker toolcat writes for ``role``?"""
    try:
        if not stat.S_ISDIR(folder.lstat().st_mode):
            return False
        return read_bounded(folder / MARKER, follow=False) == _marker(out, role)
    except (OSError, ToolcatError):
        return False


def _remove_own(folder: Path, out: Path, role: str) -> None:
    if made_by_toolcat(folder, out, role):
        import shutil  # noqa: PLC0415 - writing only: a cached check imports none of it

        shutil.rmtree(folder)   # never follows a symlink inside


def recover(out: Path) -> None:
    """Undo a swap that was interrupted between its two renames (``generate`` only)."""
    backup = _backup(out)
    if not made_by_toolcat(backup, out, "backup"):
        return
    if os.path.lexists(out):
        import shutil  # noqa: PLC0415 - see _remove_own

        shutil.rmtree(backup)
    else:
        backup.rename(out)
        (out / MARKER).unlink()


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
        if pid.isdigit() and not _alive(int(pid)):
            _remove_own(entry, out, "staging")


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
        _backup_name_free(out)
        if guard is not None:
            guard()
        remove_stale_staging(out)
        _swap_in(out, files)


def _backup_name_free(out: Path) -> None:
    backup = _backup(out)
    if os.path.lexists(backup):
        raise fail(str(backup), "", "toolcat keeps the previous output under this name "
                   "while it swaps the folder, and something it did not make is there "
                   "(no toolcat marker)", f"move or delete {backup}; toolcat never "
                   "deletes what it cannot prove it made")


def _swap_in(out: Path, files: Files) -> None:
    import tempfile  # noqa: PLC0415 - see _remove_own

    staging = Path(tempfile.mkdtemp(prefix=f"{_staging_prefix(out)}{os.getpid()}-",
                                    dir=out.parent))
    try:
        _mark(staging, out, "staging")
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
            _mark(out, out, "backup")
            out.rename(backup)
        try:
            staging.rename(out)
        except BaseException:
            # The previous output is already moved aside: put it back before
            # reporting, so a failed swap never leaves the folder missing.
            recover(out)
            raise
        (out / MARKER).unlink()
        _remove_own(backup, out, "backup")
    finally:
        _remove_own(staging, out, "staging")


def on_disk(out: Path) -> Files:
    """Every file and folder under the catalog folder, its record included.

    Folders (``__pycache__`` too, empty or not) stand in as ``rel/`` with ``FOLDER``:
    toolcat writes none, so each is "extra" for ``check``. Only regular files are
    read, within ``parse.limits`` and without following a symlink (a symlink could
    name /dev/zero or a file outside the folder, a FIFO would block): anything else
    stands in as ``NOT_REGULAR``, which no rendered file equals, so ``check``
    reports it instead of reading it.
    """
    if out.is_symlink() or not out.is_dir():
        return {}
    found = {}
    for folder, dirs, names in os.walk(out):   # symlinked folders are listed, not entered
        dirs.sort()
        base = Path(folder)
        for name in names:
            found[(base / name).relative_to(out).as_posix()] = _read_regular(base / name)
        for name in dirs:
            path = base / name
            found[path.relative_to(out).as_posix() + "/"] = (
                NOT_REGULAR if path.is_symlink() else FOLDER)
    return dict(sorted(found.items()))


NOT_REGULAR = b"(not a regular file: toolcat does not follow or read it)\n"
FOLDER = b"(a folder: toolcat writes no folder into a catalog folder)\n"


def _read_regular(path: Path) -> bytes:
    try:
        return read_bounded(path, follow=False)
    except ToolcatError:
        return NOT_REGULAR


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
    import difflib  # noqa: PLC0415 - only when stale

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
