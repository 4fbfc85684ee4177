"""A cache of bundled documents: a pure function of the files read and of toolcat.

Parsing is most of what ``check`` spends on a YAML spec (2.2 s of Stripe's 4 MB;
DigitalOcean is 1,509 YAML files). An entry is keyed by the root file's path and
bytes and a digest of toolcat's code, PyYAML's and orjson's versions and the
Python version; it lists every file the bundle read with its digest (cache/digest.py),
and is used only when all of them still hash the same. Anything else (a miss, a changed
file, an unreadable or damaged entry, a value marshal cannot store) takes the
ordinary path as if there were no cache: faster, never different.
"""

from __future__ import annotations

import hashlib
import os
import sys
from collections.abc import Callable
from dataclasses import astuple
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import Problem, ToolcatError
from ..identity import files_digest, installed_version
from ..parse.inputs import Inputs, Listed, Read, SpecFiles
from ..parse.limits import read_bounded
from ..vocab.digests import sha256_hex
from .digest import cache_hasher
from .store import FORMAT, cache_dir, load, store

if TYPE_CHECKING:
    from ..load.bundle import Bundle


@cache
def code_digest() -> str:
    """Everything besides the files that decides what a bundle looks like."""
    digest = hashlib.sha256(FORMAT)
    # The installed versions, read from the distributions' folder names: importing
    # PyYAML to ask it costs a cached check 40 ms.
    digest.update(f"{sys.version}\0{installed_version('pyyaml')}\0"
                  f"{installed_version('orjson')}\0".encode())
    # All of toolcat's files, not just the loader: a few ms, and nothing to forget.
    digest.update(files_digest().encode())
    return digest.hexdigest()


@cache
def environment_digest() -> str:
    """``code_digest`` and the names (so the versions) of every installed distribution:
    what else decides a run's output or a config's verdict (pydantic's version)."""
    digest = hashlib.sha256(code_digest().encode())
    for entry in sorted({p for p in sys.path if p}):
        try:
            names = sorted(n for n in os.listdir(entry) if n.endswith((".dist-info",
                                                                        ".egg-info")))
        except OSError:
            continue
        digest.update(f"{entry}\0{'/'.join(names)}\0".encode())
    return digest.hexdigest()


def read_input(path: Path, read: Read = read_bounded) -> bytes:
    """An input file's bytes, read within ``parse.limits`` (a FIFO or /dev/zero is
    an OSError here, for the caller's fallback, and a located refusal in ``make``)."""
    try:
        return read(path)
    except ToolcatError as exc:
        raise OSError(exc.render()) from None


def cached_bundle(path: Path, make: Callable[[Path], Bundle],
                  ref_root: Path | None = None, read: Read | None = None) -> Bundle:
    """``make(path)``, or the same result from the cache when no input changed (every
    file read through ``read``, the run's ``Inputs.read``: ``make`` is handed the same).

    ``ref_root`` joins the key: a bundle allowed a wider folder must not stand in
    for one that is not.
    """
    read = read or Inputs()
    folder = cache_dir()
    root = path.resolve()
    try:
        data = read_input(root, read)
    except OSError:
        folder = None  # ``make`` reports the unreadable file
    if folder is None:
        return make(path)
    wider = ref_root.resolve() if ref_root is not None else ""
    digest = cache_hasher(read)(data)
    key = sha256_hex(f"{code_digest()}\0{root}\0{digest}\0{wider}".encode())
    entry = folder / f"{key}.bundle"
    found = _read(entry, read)
    if found is not None:
        return found
    bundled = make(path)
    if _worth_storing(folder, entry, bundled):
        store(folder, entry, (bundled.files.listed(cache_hasher(read)), bundled.document,
                              [astuple(p) for p in bundled.found()]))
    return bundled


def _worth_storing(folder: Path, entry: Path, bundled: Bundle) -> bool:
    """Whether to write ``entry`` now. A bundle of several files: at once (a hit spares
    reading and parsing each; DigitalOcean's 1,509). A bundle of one file: the second
    time its key misses (a marker remembers the first). Writing the entry costs its run
    about 40 ms (GitHub's 13 MB of JSON, Stripe's 4 MB of YAML), which a run that happens
    once (a CI check, a spec regenerated after each change) paid for an entry no run
    read; a spec run again and again is a hit from its third run."""
    if len(bundled.files) != 1:
        return True
    marker = entry.with_suffix(".seen")
    if load(marker) is True:
        return True
    store(folder, marker, True)
    return False


def verified(entries: Listed, read: Read) -> SpecFiles | None:
    """The listed files' bytes, if every one still hashes as listed."""
    files: dict[Path, bytes] = {}
    digest = cache_hasher(read)
    try:
        for name, sha in entries:
            file = Path(name)
            files[file] = read_input(file, read)
            if digest(files[file]) != sha:
                return None
    except (OSError, ValueError, TypeError):
        return None
    return SpecFiles(files)


def _read(entry: Path, read: Read) -> Bundle | None:
    found = load(entry)
    if found is None:
        return None
    entries, document, duplicates = found
    files = verified(entries, read)
    from ..load.bundle import Bundle  # noqa: PLC0415 - a cached check needs no loader

    return None if files is None else Bundle(document, files,
                                             tuple(Problem(*p) for p in duplicates))
