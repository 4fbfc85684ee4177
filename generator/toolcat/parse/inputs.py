"""A run's input files, each read once, and the files a spec was read from, in one type.

A run reads its spec (and every file a ``$ref`` reaches), the override file and the
overlays for several purposes: building, the spec's digest, the folder's record, this
machine's caches. Every one of them reads through the run's ``Inputs`` (``toolcat/run.py``
holds it), so each file is read once per run, within ``parse.limits``, and every stage sees
the same bytes even if the file changes meanwhile.

``SpecFiles`` is what a spec was read from, wherever it travels: the bundle, the spec's
digest, the folder's record (paths relative to the spec's folder), the caches' listings
(absolute paths), the files a folder must not hold.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from ..vocab.digests import sha256_hex, sha256_tagged
from .limits import read_bounded

Read = Callable[[Path], bytes]   # a file's bytes within parse.limits (else exit 2)
Listed = list[tuple[str, str]]   # (absolute path, sha256) of every file: the caches' view


class Inputs:
    """Each file's bytes as first read in this run, by its absolute path as spelled
    (toolcat names each file one way within a run; resolving links would cost a system
    call per folder of each of DigitalOcean's 1,509 files). A read that fails is not
    remembered: it fails again, as it would have."""

    __slots__ = ("_read",)

    def __init__(self) -> None:
        self._read: dict[str, bytes] = {}

    def read(self, path: Path) -> bytes:
        key = os.fspath(path)
        if not os.path.isabs(key):
            key = os.path.abspath(key)
        found = self._read.get(key)
        if found is None:
            found = self._read[key] = read_bounded(path)
        return found


class SpecFiles(Mapping[Path, bytes]):
    """Every file a spec was read from, by path, with the bytes read, sorted by path."""

    __slots__ = ("_files",)

    def __init__(self, files: Mapping[Path, bytes] | None = None) -> None:
        self._files = dict(sorted((files or {}).items()))

    def __getitem__(self, path: Path) -> bytes:
        return self._files[path]

    def __iter__(self) -> Iterator[Path]:
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)

    def __repr__(self) -> str:
        return f"SpecFiles({sorted(map(str, self._files))})"

    def size(self) -> int:
        return sum(len(data) for data in self._files.values())

    def relative(self, spec: Path) -> dict[str, str]:
        """The record's view: path relative to ``spec``'s folder -> ``sha256:`` digest."""
        root = spec.resolve().parent
        return {Path(os.path.relpath(path, root)).as_posix(): sha256_tagged(data)
                for path, data in self._files.items()}

    def listed(self) -> Listed:
        """The caches' view: (absolute path, sha256) of every file."""
        return [(str(path), sha256_hex(data)) for path, data in self._files.items()]
