"""Which folders ``generate`` may replace: only one that holds nothing but its own files.

The swap in generator/output/files.py replaces the whole folder, so before anything
is touched the folder must be one toolcat wrote or can write: absent, or a real
folder (not a symlink, not a file) whose every entry is a file toolcat emits for
this target (``emitted_names``), Python's bytecode cache of the module and the
marker of a swap killed half-way (``files.MARKER``) aside. It
must not be, or contain, the working folder or an input (the spec and every file
it was read from, the override file, the config). Anything else is refused with
exit 2, naming the entry, before a byte is written.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ToolcatError, fail
from ..vocab.files import (
    CATALOG_FILE,
    MODELS_FILE,
    MODULE_FILE,
    RECORD_FILE,
    SUMMARY_FILE,
)
from .files import MARKER

if TYPE_CHECKING:
    from ..config import Target

BYTECODE = "__pycache__"   # written by Python when the catalog module is imported
_FIX = "point --out (or the config's output) at a folder of its own, new or made by toolcat"


def emitted_names(target: Target) -> frozenset[str]:
    """The files toolcat writes into ``target``'s folder: a function of its settings,
    so a setting that adds a file (models.py) adds its name here."""
    names = {CATALOG_FILE, MODULE_FILE, SUMMARY_FILE, RECORD_FILE}
    return frozenset(names | {MODELS_FILE} if target.models else names)


def replaceable_names(target: Target) -> frozenset[str]:
    """What ``generate`` may replace: what it emits now, and models.py, which it wrote
    while the target had models on (turning them off removes the file it wrote)."""
    return emitted_names(target) | {MODELS_FILE}


def check_replaceable(out: Path, names: frozenset[str], inputs: Iterable[Path]) -> None:
    """Raise (exit 2) unless ``out`` may be replaced by a folder of ``names``."""
    where = str(out)
    if out.is_symlink():
        raise fail(where, "", "the output is a symlink; toolcat replaces the folder it "
                   "names, so it would replace the link, not write through it", _FIX)
    resolved = out.resolve()
    _not_around(where, resolved, Path.cwd().resolve(), "the working folder")
    for item in inputs:
        _not_around(where, resolved, item.resolve(), f"the input {item}")
    if not out.exists():
        return
    if not out.is_dir():
        raise fail(where, "", "the output exists and is not a folder", _FIX)
    strange = _foreign_entries(out, names)
    if strange:
        shown = ", ".join(strange[:5]) + (f" and {len(strange) - 5} more"
                                          if len(strange) > 5 else "")
        raise fail(where, "", f"the output folder holds files toolcat did not write "
                   f"({shown}); replacing the folder would delete them",
                   f"{_FIX}; toolcat writes only {', '.join(sorted(names))}")


def _not_around(where: str, out: Path, inner: Path, what: str) -> None:
    if inner == out or out in inner.parents:
        raise ToolcatError.single(where, "", f"the output folder is or contains {what}; "
                                  "replacing it would delete it", _FIX)


def _foreign_entries(out: Path, names: frozenset[str]) -> list[str]:
    found = []
    for entry in sorted(os.scandir(out), key=lambda e: e.name):
        mode = entry.stat(follow_symlinks=False).st_mode
        if entry.name == BYTECODE and stat.S_ISDIR(mode):
            found += [f"{BYTECODE}/{e.name}" for e in sorted(os.scandir(entry.path),
                                                             key=lambda e: e.name)
                      if not (e.name.endswith(".pyc")
                              and e.is_file(follow_symlinks=False))]
        elif entry.name not in names | {MARKER} or not stat.S_ISREG(mode):
            found.append(entry.name + ("/" if stat.S_ISDIR(mode) else ""))
    return found
