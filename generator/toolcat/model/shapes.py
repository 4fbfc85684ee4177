"""The shapes the model stage reads, checked where it reads them.

In ``validation: warn`` the OpenAPI validator's verdict does not stop a document, so
every member a later step relies on (``paths`` an object, a response an object, a
``content`` map, a parameter's ``name`` a string...) is checked here, at the place it
is read: a shape toolcat cannot use is a located refusal naming the file and the JSON
pointer, never an internal error. Absent and ``null`` members read as empty, as the
callers always did.
"""

from __future__ import annotations

from typing import Any

from ..errors import fail

FIX = ("correct it in the document (for a document you do not own, keep the fix beside it "
       "in an overlay or overrides)")
_KINDS = {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
          int: "a number", float: "a number"}


def kind(value: Any) -> str:
    """How JSON names ``value``'s type: ``an object``, ``a list``, ``null``..."""
    return "null" if value is None else _KINDS.get(type(value), type(value).__name__)


def mapping(file: str, node: Any, loc: str, what: str) -> dict[str, Any]:
    """``node`` when it is an object (absent or null: empty), else a located refusal."""
    if node is None:
        return {}
    if not isinstance(node, dict):
        raise fail(file, loc, f"{what} must be an object, found {kind(node)}", FIX)
    return node


def sequence(file: str, node: Any, loc: str, what: str) -> list[Any]:
    """``node`` when it is a list (absent or null: empty), else a located refusal."""
    if node is None:
        return []
    if not isinstance(node, list):
        raise fail(file, loc, f"{what} must be a list, found {kind(node)}", FIX)
    return node


def text(file: str, node: Any, loc: str, what: str) -> str:
    """``node`` when it is a string, else a located refusal."""
    if not isinstance(node, str):
        raise fail(file, loc, f"{what} must be a string, found {kind(node)}", FIX)
    return node
