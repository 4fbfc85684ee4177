"""Media types: which one a tool speaks, and how a body that is not JSON is carried.

Choice: a tool speaks one request media type, the first of: ``application/json``,
another JSON type (``text/json``, ``*+json``), JSON Patch, a wildcard (``*/*``,
``application/*``), form-urlencoded, multipart, then any other; ties (two JSON types,
two others, one type with and without parameters) go to the text's order (without
parameters, then with them), never to the document's key order, so reordering
``content`` changes no byte (issue 28 item 17). JSON Patch (RFC 6902) comes after
the other JSON types because its body is an array of operations: Kubernetes lists
it first for a PATCH whose schema is an object, which only a merge patch can carry.

Representation of bodies that are not JSON (tool arguments are JSON values):

* form-urlencoded and multipart bodies are objects: each field is an argument, and
  its ``encoding`` (style, explode, contentType) is recorded in the binding. A
  multipart file part (``format: binary``, or a non-text ``contentMediaType``) is
  a base64 string (``contentEncoding: base64``).
* a text body (``text/*``, XML, JavaScript, NDJSON, SDP, YAML, GraphQL) is one
  string argument, ``body``, with ``contentMediaType`` naming the media type; a
  string schema in the spec keeps its constraints.
* any other body (``application/octet-stream``, ``image/*``, and a wildcard whose
  schema is a string) is one base64 string argument (``contentEncoding: base64``,
  ``contentMediaType``), decoded to bytes by the server before sending.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .wire import BASE64_PATTERN

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
_TEXT = frozenset({"application/xml", "application/javascript", "application/x-ndjson",
                   "application/sdp", "application/x-yaml", "application/yaml",
                   "application/graphql", "application/ecmascript"})


# A document names a few media types, asked about once per operation and response:
# each is worked out once (bounded: a document could name many).
@lru_cache(maxsize=4096)
def base(media: str) -> str:
    """The media type without parameters, lower case: ``text/plain; charset=x``."""
    return media.split(";", maxsplit=1)[0].strip().lower()


@lru_cache(maxsize=4096)
def is_json(media: str) -> bool:
    kind = base(media)
    return kind in ("application/json", "text/json") or kind.endswith("+json") or (
        is_wildcard(kind))


def is_wildcard(media: str) -> bool:
    return base(media) in ("*/*", "application/*")


def is_form(media: str) -> bool:
    return base(media) == FORM


def is_multipart(media: str) -> bool:
    return base(media) == MULTIPART


def is_text(media: str) -> bool:
    kind = base(media)
    return kind.startswith("text/") or kind in _TEXT or kind.endswith(("+xml", "+yaml"))


def preference(media: str) -> int:
    kind = base(media)
    if kind == "application/json":
        return 0
    if kind == "application/json-patch+json":
        return 2
    if is_json(kind) and "*" not in kind:
        return 1
    if is_wildcard(kind):
        return 3
    if kind == FORM:
        return 4
    if kind == MULTIPART:
        return 5
    return 6


def rank(media: str) -> tuple[int, str, str]:
    """Sort key of a media type: its preference, then its text (never key order)."""
    return preference(media), base(media), media


def choose(content: dict[str, Any]) -> str | None:
    """The media type a tool speaks: JSON first, then forms, then any other (``rank``)."""
    if not content:
        return None
    return min(content, key=rank)


def raw_body_schema(media: str, schema: Any) -> dict[str, Any]:
    """A body that is not JSON, as one string argument (see the module docstring).

    ``schema`` is the spec's schema already rewritten as JSON Schema, or None.
    """
    kind = base(media)
    description = schema.get("description") if isinstance(schema, dict) else None
    if is_text(kind):
        if isinstance(schema, dict) and schema.get("type") == "string" and (
                schema.get("format") != "binary"):
            return {**schema, "contentMediaType": kind}
        out: dict[str, Any] = {"type": "string", "contentMediaType": kind}
    else:
        out = {"type": "string", "contentEncoding": "base64", "contentMediaType": kind,
               "pattern": BASE64_PATTERN}
    if isinstance(description, str):
        out["description"] = description
    return out


def is_string_schema(schema: Any) -> bool:
    """A resolved spec schema that can only be a string (a raw upload under */*)."""
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    return kind == "string" or (isinstance(kind, list) and set(kind) <= {"string", "null"}
                                and "string" in kind)
