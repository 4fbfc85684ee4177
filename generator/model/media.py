"""Media types: which one a tool uses, and how a non-JSON body is represented."""

from __future__ import annotations

from typing import Any

FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"


def is_json(media: str) -> bool:
    base = media.split(";")[0].strip().lower()
    return base in ("application/json", "text/json") or base.endswith("+json") or base in (
        "*/*", "application/*")


def preference(media: str) -> int:
    base = media.split(";")[0].strip().lower()
    if base == "application/json":
        return 0
    if is_json(base) and "*" not in base:
        return 1
    if base == FORM:
        return 2
    if base == MULTIPART:
        return 3
    return 4


def choose(content: dict[str, Any]) -> str | None:
    """The media type a tool speaks: JSON first, then forms, then the first listed."""
    if not content:
        return None
    return min(content, key=lambda m: (preference(m), list(content).index(m)))


def raw_body_schema(media: str, schema: Any) -> dict[str, Any]:
    """A non-JSON body as one argument: text as a string, anything else as base64."""
    base = media.split(";")[0].strip().lower()
    if base.startswith("text/") or base in ("application/xml", "application/javascript",
                                            "application/x-ndjson", "application/sdp"):
        out: dict[str, Any] = {"type": "string", "contentMediaType": base}
        if isinstance(schema, dict) and isinstance(schema.get("description"), str):
            out["description"] = schema["description"]
        return out
    return {"type": "string", "contentEncoding": "base64", "contentMediaType": base}
