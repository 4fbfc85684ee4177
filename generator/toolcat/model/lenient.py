"""Lenient output schemas, for documents you do not own (issue 22 item 3).

Vendor documents under-declare: a field typed ``string`` that the API returns as
``null``, an object closed with ``additionalProperties: false`` that grows a field in
the next release. A catalog with ``output_schemas: lenient`` promises less in every
outputSchema, and still types what the document says:

- every property (``properties``, ``patternProperties``, an ``additionalProperties``
  schema), at any depth and in ``$defs``, also admits ``null``: a ``type`` gains
  ``"null"`` where that says it all, anything else becomes ``anyOf: [S, {type: null}]``;
- objects stay open: ``additionalProperties: false`` and ``unevaluatedProperties:
  false`` are dropped.

Nothing else changes (``required``, formats, enums of non-null values...). A lenient
schema accepts every instance the exact one accepts (tests/model/test_lenient_outputs.py
draws them); overlays are the precise fix, this is the coarse one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..vocab.keywords import DEFINITIONS, SUBSCHEMA_LIST, SUBSCHEMA_MAP, SUBSCHEMA_ONE
from .types import Tool

NULL = {"type": "null"}
# Keywords that, beside ``type``, could exclude null however ``type`` is widened.
_RESTRICTING = frozenset({"enum", "const", "$ref", "$dynamicRef", "allOf", "anyOf", "oneOf",
                          "not", "if"})
_CLOSING = ("additionalProperties", "unevaluatedProperties")
_PROPERTY_MAPS = frozenset({"properties", "patternProperties"})


def lenient_tools(tools: list[Tool]) -> list[Tool]:
    """``tools`` with every outputSchema in its lenient form."""
    return [replace(t, output_schema=lenient(t.output_schema)) if t.output_schema else t
            for t in tools]


def lenient(schema: dict[str, Any]) -> dict[str, Any]:
    """The lenient form of an outputSchema (its root stays an object)."""
    walked: dict[str, Any] = _walk(schema)
    return walked


def _walk(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _CLOSING and value is False:
            continue
        if key in _PROPERTY_MAPS and isinstance(value, dict):
            out[key] = {name: _nullable(_walk(sub)) for name, sub in value.items()}
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = _nullable(_walk(value))
        elif key in DEFINITIONS | SUBSCHEMA_MAP and isinstance(value, dict):
            out[key] = {name: _walk(sub) for name, sub in value.items()}
        elif key in SUBSCHEMA_LIST and isinstance(value, list):
            out[key] = [_walk(sub) for sub in value]
        elif key in SUBSCHEMA_ONE:
            out[key] = _walk(value)
        else:
            out[key] = value
    return out


def _nullable(schema: Any) -> Any:
    """``schema`` that also admits null."""
    if schema is True or schema == {}:
        return schema
    if schema is False:
        return NULL
    if not isinstance(schema, dict):
        return schema
    kind = schema.get("type")
    if not _RESTRICTING & set(schema):
        if kind is None:    # every keyword left applies to one type only: null passes
            return schema
        kinds = [kind] if isinstance(kind, str) else list(kind)
        return schema if "null" in kinds else {**schema, "type": [*kinds, "null"]}
    return {"anyOf": [schema, NULL]}
