"""Where each key and item of a hand-written YAML file stands: its line, by location.

Apart from the reader (``checked_yaml``) so that a config this machine already
validated is used without importing PyYAML or pydantic (``cache/configs.py``).
"""

from __future__ import annotations

Lines = dict[tuple[str | int, ...], int]


def line_of(lines: Lines, loc: tuple[str | int, ...]) -> str:
    for end in range(len(loc), -1, -1):
        if loc[:end] in lines:
            return f"line {lines[loc[:end]]}"
    return ""
