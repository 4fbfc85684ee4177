"""toolcat's exit codes, one set for every command.

0: ok; 1: a difference was found (``check``: a stale folder; ``diff``: a change;
``verify``: drift or a contract failure); 2: any input, usage or connection error.
"""

from __future__ import annotations

from enum import IntEnum


class Exit(IntEnum):
    OK = 0
    STALE = 1
    DRIFT = 1       # verify's name for 1
    FOUND = 1       # diff's name for 1
    ERROR = 2
