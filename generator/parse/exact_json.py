"""JSON numbers read exactly, for the rare file orjson would round.

orjson reads an integer beyond 64 bits as a float (18446744073709551617 becomes
1.8446744073709552e+19) and refuses ``1e400``. A file with a run of 19 or more
digits (outside strings too: cheap to over-match) is read again with the standard
library, which keeps every integer exact; a number that is infinite as a float
is refused at its line, since JSON output could only write it as null.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from generator.errors import fail

WIDE_NUMBER = re.compile(rb"[0-9]{19}|[eE][-+]?[0-9]{3}")


def exact_json(data: bytes, file: str) -> Any:
    """``data`` parsed with exact integers; non-finite numbers refused, located."""
    try:
        return json.loads(data, parse_float=lambda text: _finite(text, data, file),
                          parse_constant=lambda text: _finite(text, data, file))
    except (ValueError, RecursionError) as exc:  # orjson parsed it: not expected
        raise fail(file, "", f"invalid JSON: {type(exc).__name__}",
                   "fix the syntax") from None


def _finite(text: str, data: bytes, file: str) -> float:
    value = float(text)
    if math.isfinite(value):
        return value
    line = data[:max(data.find(text.encode()), 0)].count(b"\n") + 1
    raise fail(file, f"line {line}", f"the number {text} has no JSON value (infinite as "
               "a float)", "write a finite number, or a string")
