"""The one way toolcat spells a digest.

Two spellings exist on purpose: bare hex inside this machine's cache keys and
entries, and ``sha256:<hex>`` wherever a digest is written for people or other
tools (catalog.json, the folder's record).
"""

from __future__ import annotations

import hashlib

# A run hashes the same large input several times (the spec's 13 MB for the ad hoc name,
# the outputs memo's key and its listing): the digests of the last few large byte
# strings, each kept with the very object it was computed from. bytes are immutable,
# and holding the object keeps its id from being reused, so a hit is the same answer.
_LARGE = 1 << 20
_RECENT: dict[int, tuple[bytes, str]] = {}
_KEEP = 8


def sha256_hex(data: bytes) -> str:
    if len(data) < _LARGE or type(data) is not bytes:
        return hashlib.sha256(data).hexdigest()
    found = _RECENT.get(id(data))
    if found is not None and found[0] is data:
        return found[1]
    digest = hashlib.sha256(data).hexdigest()
    if len(_RECENT) >= _KEEP:
        _RECENT.pop(next(iter(_RECENT)))
    _RECENT[id(data)] = (data, digest)
    return digest


TAG = "sha256:"


def sha256_tagged(data: bytes) -> str:
    return TAG + sha256_hex(data)


def tagged(hexdigest: str) -> str:
    """A digest built piece by piece (``hashlib.sha256().update``), in the written spelling."""
    return TAG + hexdigest
