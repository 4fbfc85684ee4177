"""Canonical JSON bytes: sorted keys, two-space indent, UTF-8, trailing newline.

orjson is fast but refuses integers beyond 64 bits, which real specs use as
``maximum`` (2**64 - 1). Such integers are swapped for a token and written back
as exact digits, so no value is ever rounded.
"""

from __future__ import annotations

from typing import Any

import orjson

# The newline is orjson's to write: ``dumps(...) + b"\n"`` copied every document once more
# (GitHub's catalog.json: 11 MB).
_OPTS = orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE
_TOKEN = "\x00toolcat-int:"
_LIMIT = 2**63


def dumps(value: Any, *, indent: bool = True) -> bytes:
    opts = _OPTS if indent else orjson.OPT_SORT_KEYS
    try:
        return orjson.dumps(value, option=opts)
    except orjson.JSONEncodeError:
        found: set[int] = set()
        text = orjson.dumps(_swap(value, found), option=opts)
        for number in sorted(found):
            text = text.replace(orjson.dumps(f"{_TOKEN}{number}"), str(number).encode())
        return text


def _swap(node: Any, found: set[int]) -> Any:
    if isinstance(node, dict):
        return {k: _swap(v, found) for k, v in node.items()}
    if isinstance(node, list):
        return [_swap(v, found) for v in node]
    if isinstance(node, int) and not isinstance(node, bool) and not -_LIMIT <= node < _LIMIT:
        found.add(node)
        return f"{_TOKEN}{node}"
    return node


def loads(data: bytes | str) -> Any:
    return orjson.loads(data)
