"""JSON pointers (RFC 6901): the one place tokens are escaped and unescaped."""

from __future__ import annotations


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
