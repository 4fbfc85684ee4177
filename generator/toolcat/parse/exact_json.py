"""JSON numbers read exactly, for the rare file orjson would round.

orjson reads an integer beyond 64 bits as a float (18446744073709551617 becomes
1.8446744073709552e+19) and refuses ``1e400``. Every integer it rounds so lies
outside [-2**63, 2**64), so a parsed tree with a float that large may hold one: that
file is read again with the standard library, which keeps every integer exact (a
float literal that large is read twice for nothing, which is rare). The parsed floats
are looked at by the walk that bounds the tree's depth (parse/limits.py), in the same
pass: a tenth of scanning the bytes of a 13 MB file for digit runs.
(Numbers that are infinite as floats, and NaN, never get here: orjson refuses them
with their line.)
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import fail

ROUNDED = float(2 ** 63)   # orjson's floats from integers are this large or more


def exact_json(data: bytes, file: str) -> Any:
    """``data`` (which orjson parsed) parsed again, with exact integers."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:  # an integer of over 4,300 digits
        raise fail(file, "", f"invalid JSON: {type(exc).__name__}",
                   "fix the syntax") from None

