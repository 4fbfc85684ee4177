"""JSON pointers (RFC 6901): the one place tokens are escaped and unescaped."""

from __future__ import annotations

from typing import Any

LOCAL_DEFS = "#/$defs/"   # how a tool schema points into its own $defs


def escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def unescape_token(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def pointer(*tokens: str | int) -> str:
    """JSON pointer from raw tokens: pointer("paths", "/a", "get") == "/paths/~1a/get"."""
    return "".join("/" + escape_token(str(t)) for t in tokens)


def split_pointer(ptr: str) -> list[str]:
    if ptr in ("", "/"):
        return [] if ptr == "" else [""]
    if not ptr.startswith("/"):
        raise ValueError(ptr)
    return [unescape_token(t) for t in ptr[1:].split("/")]


def defs_referenced(node: Any) -> set[str]:
    """The names of the ``$defs`` entries that ``$ref``s anywhere in ``node`` point into
    (``#/$defs/A`` and ``#/$defs/A/properties/x`` both name A)."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and ref.startswith(LOCAL_DEFS):
                found.add(split_pointer(ref[1:])[1])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found
