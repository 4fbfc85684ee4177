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
from functools import partial
from pathlib import Path

from ..vocab.digests import sha256_hex, tagged
from .limits import TreeFacts, read_bounded

Read = Callable[[Path], bytes]   # a file's bytes within parse.limits (else exit 2)
Listed = list[tuple[str, str]]   # (absolute path, sha256) of every file: the caches' view


class Inputs:
    """Each file's bytes as first read in this run, by its absolute path as spelled
    (toolcat names each file one way within a run; resolving links would cost a system
    call per folder of each of DigitalOcean's 1,509 files). A read that fails is not
    remembered: it fails again, as it would have.

    An ``Inputs`` is itself a ``Read`` (calling it reads), and what a run learns of its
    files lives here, for the run's lifetime only (a long ``serve`` keeps nothing):

    * the digest of each file's bytes, hashed once per run (GitHub's 13 MB spec names
      the ad hoc catalog, keys the bundle, the outputs memo and the folder's record):
      ``hasher(read)`` hashes through it;
    * a parsed tree lent by a reader that only glanced at it (parse/reader.py,
      ``glance_document``) to the next reader of the same file: one loan at a time.
    """

    __slots__ = ("_digests", "_facts", "_held", "_lent", "_read")

    def __init__(self) -> None:
        self._read: dict[str, bytes] = {}
        self._held: set[int] = set()   # id(bytes this run read and holds, so the id is theirs)
        # (id(bytes held), "sha256" or the digest function) -> hex, once known
        self._digests: dict[tuple[int, object], str] = {}
        self._lent: dict[Path, object] = {}
        self._facts: dict[int, TreeFacts] = {}   # id(bytes held) -> what its parse found

    def read(self, path: Path) -> bytes:
        key = os.fspath(path)
        if not os.path.isabs(key):
            key = os.path.abspath(key)
        found = self._read.get(key)
        if found is None:
            found = self._read[key] = read_bounded(path)
            self._held.add(id(found))
        return found

    __call__ = read

    def sha256_hex(self, data: bytes) -> str:
        """``sha256_hex(data)``, remembered when ``data`` is the very bytes this run
        read (held here, so its id names it for the run's lifetime)."""
        return self._remembered(data, "sha256", sha256_hex)

    def hashed(self, data: bytes, digest: Callable[[bytes], str]) -> str:
        """``digest(data)``, remembered as ``sha256_hex`` is (this machine's cache hashes
        with its own digest, cache/digest.py)."""
        return self._remembered(data, digest, digest)

    def _remembered(self, data: bytes, kind: object, digest: Callable[[bytes], str]) -> str:
        key = (id(data), kind)
        found = self._digests.get(key)
        if found is None:
            found = digest(data)
            if key[0] in self._held:
                self._digests[key] = found
        return found

    def note_facts(self, data: bytes, facts: TreeFacts) -> None:
        """Remember what parsing ``data`` (bytes this run read) found of its tree
        (parse/limits.py, ``check_tree_refs``)."""
        if id(data) in self._held:
            self._facts[id(data)] = facts

    def refs_local(self, data: bytes) -> bool | None:
        """``check_tree_refs``'s answer for bytes this run read and parsed as JSON
        (None: not known, e.g. YAML)."""
        facts = self._facts.get(id(data))
        return None if facts is None else facts.local

    def tuples(self, data: bytes) -> bool | None:
        """Whether the tree of ``data`` holds a list under ``items`` where load/repairs.py
        looks (``check_tree_refs``; None: not known)."""
        facts = self._facts.get(id(data))
        return None if facts is None else facts.tuples

    def access(self, data: bytes) -> frozenset[str] | None:
        """Which of ``readOnly`` and ``writeOnly`` some object of the tree of ``data``
        may hold (``check_tree_refs``; None: not known)."""
        facts = self._facts.get(id(data))
        if facts is None:
            return None
        return frozenset(flag for flag, maybe in (("readOnly", facts.read_only),
                                                  ("writeOnly", facts.write_only)) if maybe)

    def lend(self, path: Path, loan: object) -> None:
        """Lend ``loan`` (what a reader parsed of ``path``) to the next ``take``;
        an earlier loan is forgotten."""
        self._lent.clear()
        self._lent[path] = loan

    def take(self, path: Path) -> object | None:
        """The loan for ``path``, once (None: nothing lent)."""
        return self._lent.pop(path, None) if self._lent else None


def hasher(read: Read, digest: Callable[[bytes], str] | None = None) -> Callable[[bytes], str]:
    """How to hash bytes ``read`` returned (with ``digest``; sha256 by default): the run's
    ``Inputs`` hash each file once; any other reader's bytes are hashed each time."""
    if isinstance(read, Inputs):
        return read.sha256_hex if digest is None else partial(read.hashed, digest=digest)
    return sha256_hex if digest is None else digest


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

    def relative(self, spec: Path, digest: Callable[[bytes], str] = sha256_hex
                 ) -> dict[str, str]:
        """The record's view: path relative to ``spec``'s folder -> ``sha256:`` digest
        (``digest``: ``hasher`` of the run's reader)."""
        root = spec.resolve().parent
        return {Path(os.path.relpath(path, root)).as_posix(): tagged(digest(data))
                for path, data in self._files.items()}

    def listed(self, digest: Callable[[bytes], str] = sha256_hex) -> Listed:
        """The caches' view: (absolute path, sha256) of every file."""
        return [(str(path), digest(data)) for path, data in self._files.items()]
