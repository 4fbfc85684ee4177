"""JSON Schema keywords survive the trip from OpenAPI to a tool, exactly.

A body that is a plain object (also through an exact ``allOf`` merge) becomes one
argument per field; anything a field list cannot express (``oneOf``, a map, an
``unevaluatedProperties`` rule, conflicting ``allOf`` parts) travels whole as
``body`` with its schema intact. ``discriminator`` (OpenAPI-only) is dropped: the
``oneOf`` branches decide validity. 3.0's ``nullable`` and 3.1's ``["T", "null"]``
give the same bytes; boolean ``exclusiveMinimum`` becomes 2020-12's number (openai
writes the 3.0 form in a 3.1 document).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.fixtures import generate, tool, write_spec

REF = "#/components/schemas/"


def _spec(schema: dict[str, Any], schemas: dict[str, Any] | None = None,
          version: str = "3.1.0") -> dict[str, Any]:
    return {"openapi": version, "info": {"title": "k", "version": "1"},
            "paths": {"/x": {"post": {
                "operationId": "op",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": schema}}},
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": schema}}}}}}},
            "components": {"schemas": schemas or {}}}


def _entry(tmp_path: Path, spec: dict[str, Any], *, validate: bool = True) -> dict[str, Any]:
    return tool(generate(write_spec(tmp_path, spec), validate=validate), "op")


SHAPES = {
    "Circle": {"type": "object", "required": ["kind"], "properties": {
        "kind": {"const": "circle"}, "r": {"type": "number", "exclusiveMinimum": 0}}},
    "Square": {"type": "object", "required": ["kind"], "properties": {
        "kind": {"const": "square"}, "side": {"type": "number"}}},
    "Base": {"type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}},
}


def test_one_of_travels_whole(tmp_path: Path) -> None:
    union = {"oneOf": [{"$ref": REF + "Circle"}, {"$ref": REF + "Square"}],
             "discriminator": {"propertyName": "kind"}}
    entry = _entry(tmp_path, _spec(union, SHAPES))
    schema = entry["tool"]["inputSchema"]
    # Only the names the branches declare (test_fidelity_whole_body_names.py).
    assert schema["properties"]["body"] == {"oneOf": [{"$ref": "#/$defs/Circle"},
                                                      {"$ref": "#/$defs/Square"}],
                                            "propertyNames": {"enum": ["kind", "r", "side"]}}
    assert schema["$defs"]["Circle"]["properties"]["kind"] == {"const": "circle"}
    assert entry["tool"]["outputSchema"]["properties"]["result"]["oneOf"]


def test_all_of_flattens_when_exact(tmp_path: Path) -> None:
    merged = {"allOf": [{"$ref": REF + "Base"}, {"type": "object", "required": ["name"],
                                                  "properties": {"name": {"type": "string"}}}]}
    schema = _entry(tmp_path, _spec(merged, SHAPES))["tool"]["inputSchema"]
    assert sorted(schema["properties"]) == ["id", "name"]
    assert schema["required"] == ["id", "name"]
    clash = {"allOf": [{"$ref": REF + "Base"}, {"type": "object", "properties": {
        "id": {"type": "integer"}}}]}
    schema = _entry(tmp_path, _spec(clash, SHAPES))["tool"]["inputSchema"]
    assert list(schema["properties"]) == ["body"]
    assert schema["properties"]["body"]["allOf"][0] == {"$ref": "#/$defs/Base"}


def test_maps_and_unevaluated_travel_whole(tmp_path: Path) -> None:
    counts = {"type": "object", "additionalProperties": {"type": "integer"}}
    schema = _entry(tmp_path, _spec(counts))["tool"]["inputSchema"]
    assert schema["properties"]["body"] == counts
    closed = {"allOf": [{"$ref": REF + "Base"}], "unevaluatedProperties": False}
    schema = _entry(tmp_path, _spec(closed, SHAPES))["tool"]["inputSchema"]
    assert schema["properties"]["body"] == {"allOf": [{"$ref": "#/$defs/Base"}],
                                            "unevaluatedProperties": False}


def test_field_keywords_are_kept(tmp_path: Path) -> None:
    body = {"type": "object", "properties": {
        "version": {"const": "v1"},
        "blob": {"type": "string", "contentEncoding": "base64",
                 "contentMediaType": "image/png"},
        "ratio": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
        "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True,
                 "maxItems": 3}}}
    # A boolean exclusiveMinimum is invalid in 3.1 (the validator says so); with the
    # verdict trusted, as for openai, it is read the 3.0 way.
    props = _entry(tmp_path, _spec(body), validate=False)["tool"]["inputSchema"]["properties"]
    assert props["version"] == {"const": "v1"}
    assert props["blob"] == body["properties"]["blob"]
    assert props["ratio"] == {"type": "number", "exclusiveMinimum": 0}
    assert props["tags"] == body["properties"]["tags"]


def test_ref_siblings_are_kept_in_31(tmp_path: Path) -> None:
    body = {"type": "object", "properties": {"base": {
        "$ref": REF + "Base", "description": "the base, described here"}}}
    props = _entry(tmp_path, _spec(body, SHAPES))["tool"]["inputSchema"]["properties"]
    assert props["base"] == {"$ref": "#/$defs/Base", "description": "the base, described here"}


def test_nullable_spellings_agree(tmp_path: Path) -> None:
    v30 = {"type": "object", "properties": {
        "a": {"type": "string", "nullable": True},
        "b": {"type": "object", "allOf": [{"$ref": REF + "Base"}], "nullable": True},
        "c": {"type": "string", "enum": ["x", "y", None], "nullable": True},
        # 3.0.3: nullable does not reach past an enum without null (inputs: the letter)
        "d": {"type": "string", "enum": ["x", "y"], "nullable": True}}}
    v31 = {"type": "object", "properties": {
        "a": {"type": ["string", "null"]},
        "b": {"type": ["object", "null"], "allOf": [{"$ref": REF + "Base"}]},
        "c": {"type": ["null", "string"], "enum": ["x", "y", None]},
        "d": {"type": "string", "enum": ["x", "y"]}}}
    base = {"Base": SHAPES["Base"]}
    old = _entry(tmp_path / "a", _spec(v30, base, "3.0.3"))["tool"]["inputSchema"]
    new = _entry(tmp_path / "b", _spec(v31, base))["tool"]["inputSchema"]
    assert old == new
    assert old["properties"]["a"] == {"type": ["string", "null"]}
