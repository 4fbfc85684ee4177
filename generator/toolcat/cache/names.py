"""The ad hoc catalog name, remembered by the spec's root file.

Without ``--name`` an ad hoc run names its catalog from the spec's ``info.title``, and
the name is part of what the outputs memo is keyed by, so a cached ``check`` had to
parse the whole root document before it could ask the memo (Stripe's 4 MB of YAML:
about half of a 1.2 s cached check). The name is a pure function of the root file's
bytes, its path (the folder's name is the fallback) and toolcat's code: that is the
key. A document that cannot be read or parsed is not cached, so its refusal is the
same as without a cache.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..parse.inputs import Read
from ..parse.limits import read_bounded
from ..vocab.digests import sha256_hex
from .bundles import code_digest, read_input
from .digest import cache_hasher
from .store import cache_dir, load, store


def cached_name(spec: Path, derive: Callable[[Path], str], read: Read = read_bounded) -> str:
    """``derive(spec)``, or the name it gave last time for the same root file (read
    through ``read``, the run's ``Inputs.read``, which ``derive`` reads through too)."""
    folder = cache_dir()
    root = spec.resolve()
    try:
        data = read_input(root, read) if folder is not None else b""
    except OSError:
        folder = None   # ``derive`` reports the unreadable file
    if folder is None:
        return derive(spec)
    key = sha256_hex(f"{code_digest()}\0name\0{root}\0{cache_hasher(read)(data)}".encode())
    entry = folder / f"{key}.name"
    found = load(entry)
    if isinstance(found, str) and found:
        return found
    name = derive(spec)
    store(folder, entry, name)
    return name
