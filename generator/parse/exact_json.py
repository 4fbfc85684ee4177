"""JSON numbers read exactly, for the rare file orjson would round.

orjson reads an integer beyond 64 bits as a float (18446744073709551617 becomes
1.8446744073709552e+19) and refuses ``1e400``. A file where a value that starts
like a number (after ``:``, ``[`` or ``,``) has 20 or more digits (19 when negative:
orjson is exact down to -2**63 and up to 2**64 - 1) is read again with
the standard library, which keeps every integer exact. The same text inside a
string matches too (cheap to over-match); a long run of digits within a string
does not (the 13 MB GitHub description has a thousand hex tokens and example
numbers in strings, and was read twice for them). (Numbers that are infinite as floats,
and NaN, never get here: orjson refuses them with their line.)
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import fail

WIDE_NUMBER = re.compile(rb"(?:^|[:\[,])[ \t\r\n]*(?:-[0-9]{19}|[0-9]{20})"
                         rb"|(?:^|[:\[,])[ \t\r\n]*-?[0-9]+(?:\.[0-9]*)?[eE][-+]?[0-9]{3}")


def exact_json(data: bytes, file: str) -> Any:
    """``data`` (which orjson parsed) parsed again, with exact integers."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:  # an integer of over 4,300 digits
        raise fail(file, "", f"invalid JSON: {type(exc).__name__}",
                   "fix the syntax") from None

