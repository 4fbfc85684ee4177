"""``sha256_hex`` remembers the digests of the last few large byte strings (a cached check
of the 13 MB GitHub spec hashed it three times): always hashlib's answer, whatever
objects come and go (a freed string's id may be reused by the next one)."""

from __future__ import annotations

import hashlib
import os

from toolcat.vocab.digests import sha256_hex


def test_large_digests_are_always_hashlibs() -> None:
    size = (1 << 20) + 7
    for i in range(24):
        data = os.urandom(size)   # freed at the next turn: its id may come back
        expected = hashlib.sha256(data).hexdigest()
        assert sha256_hex(data) == expected, f"turn {i}: a digest of another string"
        assert sha256_hex(data) == expected, f"turn {i}: the remembered digest differs"
        copy = bytes(bytearray(data))
        assert sha256_hex(copy) == expected


def test_small_and_other_types_are_hashed_as_given() -> None:
    assert sha256_hex(b"") == hashlib.sha256(b"").hexdigest()
    view = bytearray(b"x" * ((1 << 20) + 1))
    first = sha256_hex(view)   # type: ignore[arg-type]
    view[0] = ord("y")
    assert sha256_hex(view) == hashlib.sha256(view).hexdigest() != first  # type: ignore[arg-type]
