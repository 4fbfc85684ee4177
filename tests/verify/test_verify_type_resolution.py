"""The parity guard's type vocabulary (the seed decision's): what compares equal, what not.

integer and number differ; nullable is part of the type however it is spelled;
an enum $ref is a string and a model $ref an object; arrays compare their items;
an unknown shape gets a label of its own instead of falling through to 'any'.
"""

from __future__ import annotations

from typing import Any

import pytest
from toolcat.verify.resolution import enum_values, type_label

ROOT: dict[str, Any] = {"$defs": {
    "Mode": {"type": "string", "enum": ["Duration", "Count"]},
    "Artwork": {"type": "object", "properties": {"path": {"type": "string"}}},
}}


@pytest.mark.parametrize(("schema", "label"), [
    ({"type": "integer"}, "integer"),
    ({"type": "number"}, "number"),
    ({"type": "string", "format": "int32"}, "string"),
    ({"type": ["integer", "null"]}, "integer|null"),
    ({"type": "integer", "nullable": True}, "integer|null"),
    ({"anyOf": [{"type": "integer"}, {"type": "null"}]}, "integer|null"),
    ({"oneOf": [{"$ref": "#/$defs/Mode"}, {"type": "null"}]}, "string|null"),
    ({"$ref": "#/$defs/Mode"}, "string"),
    ({"$ref": "#/$defs/Artwork"}, "object"),
    ({"allOf": [{"$ref": "#/$defs/Artwork"}]}, "object"),
    ({"type": "array", "items": {"type": "integer"}}, "array<integer>"),
    ({"type": "array", "items": {"$ref": "#/$defs/Mode"}}, "array<string>"),
    ({"type": "array"}, "array<any>"),
    ({"enum": ["a", "b"]}, "string"),
    ({"properties": {"a": {}}}, "object"),
    ({}, "any"),
    ({"type": ["integer", "string"]}, "integer|string"),
    ({"$ref": "#/$defs/Missing"}, "unresolved $ref #/$defs/Missing"),
    ({"type": "int"}, "unknown type 'int'"),
])
def test_labels(schema: dict[str, Any], label: str) -> None:
    assert type_label(schema, ROOT) == label


@pytest.mark.parametrize(("left", "right"), [
    ({"type": "integer"}, {"type": "number"}),
    ({"type": "integer"}, {"type": ["integer", "null"]}),
    ({"type": "array", "items": {"type": "integer"}},
     {"type": "array", "items": {"type": "string"}}),
    ({"type": "string"}, {"type": "integer"}),
])
def test_distinct(left: dict[str, Any], right: dict[str, Any]) -> None:
    assert type_label(left, ROOT) != type_label(right, ROOT)


def test_enums_compare_as_sets_of_values() -> None:
    assert enum_values({"$ref": "#/$defs/Mode"}, ROOT) == '"Count", "Duration"'
    assert enum_values({"enum": ["Count", "Duration"]}, ROOT) == '"Count", "Duration"'
    assert enum_values({"type": "array", "items": {"$ref": "#/$defs/Mode"}}, ROOT) \
        == 'items: "Count", "Duration"'
    assert enum_values({"type": "string"}, ROOT) == ""
