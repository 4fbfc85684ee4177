"""The digest of this machine's cache: keys, the files an entry lists, its payload.

BLAKE3 (the ``blake3`` package): a cryptographic hash like sha256, so an entry still
names exactly the bytes it was made from, at a quarter of sha256's cost here (GitHub's
13 MB spec: 2.6 ms against 9.4 ms). A cached ``check`` hashes the spec and every file
of the folder (24 MB on GitHub), so this is most of what it spends beyond starting
up. Nothing toolcat writes for people or other tools uses it: catalog.json and the
folder's record keep ``sha256:`` (vocab/digests.py).
"""

from __future__ import annotations

from collections.abc import Callable

from blake3 import blake3

from ..parse.inputs import Read, hasher


def cache_hex(data: bytes) -> str:
    """The cache's digest of ``data``, in hex, hashed each time."""
    return blake3(data).hexdigest()


def cache_hasher(read: Read) -> Callable[[bytes], str]:
    """How to hash bytes ``read`` returned for the cache (parse/inputs.py, ``hasher``)."""
    return hasher(read, cache_hex)
