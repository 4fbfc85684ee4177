"""The one way toolcat spells a digest.

Two spellings exist on purpose: bare hex inside this machine's cache keys and
entries, and ``sha256:<hex>`` wherever a digest is written for people or other
tools (catalog.json, the folder's record).
"""

from __future__ import annotations

import hashlib


def sha256_hex(data: bytes) -> str:
    """The digest, hashed each time: a run's input files are hashed once through the
    run's ``Inputs`` (parse/inputs.py, ``hasher``), which nothing outlives."""
    return hashlib.sha256(data).hexdigest()


TAG = "sha256:"


def sha256_tagged(data: bytes) -> str:
    return TAG + sha256_hex(data)


def tagged(hexdigest: str) -> str:
    """A digest built piece by piece (``hashlib.sha256().update``), in the written spelling."""
    return TAG + hexdigest
