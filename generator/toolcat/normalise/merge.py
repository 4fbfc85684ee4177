"""Merge an object schema's ``allOf`` where the merge is exact.

Used to decide whether a request body can be flattened into tool arguments. The
merge is exact when every part is a plain object schema (properties, required,
descriptive keywords) and no property is declared twice differently; anything
else (``oneOf``, maps, ``additionalProperties: false`` inside an ``allOf``...)
returns None and the body travels as one argument, losing nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..vocab.pointers import escape_token
from .defs import Definitions

_PLAIN = frozenset({"type", "properties", "required", "description", "title", "allOf",
                    "example", "examples", "readOnly", "deprecated", "x-examples", "nullable",
                    # annotations that say nothing about which JSON values are valid
                    "xml", "externalDocs", "$schema", "$id", "$anchor", "$comment",
                    "$vocabulary", "writeOnly"})
_DESCRIPTIVE = ("description", "title")


def _is_plain(schema: dict[str, Any]) -> bool:
    keys = {k for k in schema if not k.startswith("x-")}
    if not keys <= _PLAIN | {"additionalProperties"}:
        return False
    if schema.get("nullable") is True:
        return False
    ap = schema.get("additionalProperties", False)
    return ap is False and schema.get("type", "object") == "object"


@dataclass(frozen=True)
class Merged:
    """The merged object, and where each property's schema lies in the document
    (for error locations: a merged body has no pointer of its own)."""

    schema: dict[str, Any]
    origins: dict[str, str]


def merged_object(defs: Definitions, raw: Any, loc: str, _depth: int = 0) -> Merged | None:
    """An equivalent single object schema for ``raw``, or None when not exact.

    Memoised per (resolved location, depth): an ``allOf`` DAG of shared ``$ref``s
    (20 levels of 3, 4 KB) is merged once per schema, not once per path (3**20).
    """
    schema, loc = defs.resolve_shallow(raw, loc)
    key = ("merged", loc, _depth)
    if key not in defs.memo:
        defs.memo[key] = (schema, _merged(defs, schema, loc, _depth))
    result: Merged | None = defs.memo[key][1]
    return result


def _merged(defs: Definitions, schema: Any, loc: str, _depth: int) -> Merged | None:
    if not isinstance(schema, dict) or _depth > 20 or not _is_plain(schema):
        return None
    if "properties" not in schema and "allOf" not in schema:
        return None
    own = {k: v for k, v in schema.items() if k != "allOf"}
    parts = [Merged(own, {name: f"{loc}/properties/{escape_token(name)}"
                          for name in own.get("properties") or {}})]
    for i, part in enumerate(schema.get("allOf") or []):
        merged = merged_object(defs, part, f"{loc}/allOf/{i}", _depth + 1)
        if merged is None:
            return None
        if merged.schema.get("additionalProperties") is False:
            return None  # closed part inside allOf: merging would change meaning
        parts.append(merged)
    return _combine(parts)


def _combine(parts: list[Merged]) -> Merged | None:
    props: dict[str, Any] = {}
    origins: dict[str, str] = {}
    required: list[str] = []
    out: dict[str, Any] = {"type": "object"}
    for part in parts:
        for name, sub in (part.schema.get("properties") or {}).items():
            if name in props and props[name] != sub:
                return None
            props[name] = sub
            origins.setdefault(name, part.origins[name])
        required += [r for r in part.schema.get("required", []) if r not in required]
        for key in _DESCRIPTIVE:
            if key in part.schema and key not in out:
                out[key] = part.schema[key]
    if parts[0].schema.get("additionalProperties") is False:
        out["additionalProperties"] = False
    out["properties"] = props
    if required:
        out["required"] = required
    return Merged(out, origins)
