"""JSON numbers read exactly, for the rare file orjson would round.

orjson reads an integer beyond 64 bits as a float (18446744073709551617 becomes
1.8446744073709552e+19) and refuses ``1e400``. A file with a run of 19 or more
digits (outside strings too: cheap to over-match) is read again with the standard
library, which keeps every integer exact. (Numbers that are infinite as floats,
and NaN, never get here: orjson refuses them with their line.)
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import fail

WIDE_NUMBER = re.compile(rb"[0-9]{19}|[eE][-+]?[0-9]{3}")


def exact_json(data: bytes, file: str) -> Any:
    """``data`` (which orjson parsed) parsed again, with exact integers."""
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:  # an integer of over 4,300 digits
        raise fail(file, "", f"invalid JSON: {type(exc).__name__}",
                   "fix the syntax") from None

