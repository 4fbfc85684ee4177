"""`output_schemas: exact | shallow | none` (issue 23): how much outputSchema a catalog
publishes. Shallow keeps the documented object's top-level properties typed and opens every
deeper level; the oracle proves it the way the size policy's loosening is proven: every
response the ORIGINAL document describes (examples and drawn instances) still validates."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.fixtures import generate, real, tool, write_spec
from oracle.responses import check
from toolcat.model.shallow import shallow_schema, types_of

ITEM = {"type": "object", "required": ["id"], "properties": {
    "id": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}}}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {
        "/things/{id}": {"get": {
            "operationId": "getThing",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Thing"}}}}}}},
        "/things": {"get": {
            "operationId": "listThings",
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}
            }}}}}},
        "/either": {"get": {
            "operationId": "getEither",
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"oneOf": [{"$ref": "#/components/schemas/Item"},
                                     {"$ref": "#/components/schemas/Thing"}]}}}}}}}},
    "components": {"schemas": {
        "Item": ITEM,
        "Thing": {"type": "object", "required": ["name", "kind"], "properties": {
            "name": {"type": "string", "minLength": 2},
            "kind": {"type": "string", "enum": ["a", "b"]},
            "size": {"type": "number", "nullable": True},
            "parent": {"$ref": "#/components/schemas/Thing"},
            "item": {"allOf": [{"$ref": "#/components/schemas/Item"}]},
            "choice": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
            "anything": {},
            "items": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}}}}},
}


def test_shallow_types_the_top_level_and_opens_the_rest(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec, output_schemas="shallow")
    thing = tool(catalog, "get_thing")["tool"]["outputSchema"]
    assert thing == {"type": "object", "required": ["kind", "name"], "properties": {
        "name": {"type": "string"}, "kind": {"type": "string"},
        "size": {"type": ["null", "number"]}, "parent": {"type": "object"},
        "item": {"type": "object"}, "choice": {"type": ["integer", "string"]},
        "anything": {}, "items": {"type": "array"}}}
    exact = generate(spec)
    assert tool(exact, "get_thing")["tool"]["outputSchema"] != thing
    # A union answer is wrapped (result): typed as the union's types, nothing deeper.
    assert tool(catalog, "get_either")["tool"]["outputSchema"] == {
        "type": "object", "properties": {"result": {"type": "object"}}, "required": ["result"]}
    listed = tool(catalog, "list_things")["tool"]["outputSchema"]
    assert listed["properties"] == {"result": {"type": "array"}}
    tally = check(spec, catalog, count=6)
    assert tally.instances >= 9
    assert tally.failures == []
    assert tally.accepted == tally.instances


def test_none_publishes_no_output_schema(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec, output_schemas="none")
    assert [e["tool"].get("outputSchema") for e in catalog["tools"]] == [None] * 3
    # The wrapper stays: an array answer is still a structured (object) result.
    assert tool(catalog, "list_things")["binding"]["outputWrapper"] == "result"


@pytest.mark.parametrize("doc", [("corpus", "train-travel", "openapi.yaml"),
                                 ("corpus", "museum", "openapi.yaml")], ids=lambda d: d[1])
def test_shallow_accepts_every_documented_response(doc: tuple[str, ...]) -> None:
    spec = real(*doc)
    catalog = generate(spec, validate=False, output_schemas="shallow")
    tally = check(spec, catalog, count=2)
    assert tally.instances > 20
    assert tally.failures == []


def test_types_of_is_a_superset() -> None:
    defs = {"A": {"$ref": "#/$defs/A"}, "N": {"type": "number"}}
    assert types_of({"$ref": "#/$defs/A"}, defs) is None          # a cycle: open
    assert types_of({"allOf": [{"$ref": "#/$defs/N"}, {"type": "integer"}]}, defs) == {
        "integer"}
    assert types_of({"enum": [1, "x", None, True]}, defs) == {"integer", "string", "null",
                                                              "boolean"}
    assert types_of({"oneOf": [{"type": "string"}, {}]}, defs) is None
    assert types_of(False, defs) == set()
    assert shallow_schema({"type": "object", "properties": {"x": False}, "if": {}}) == {
        "type": "object"}
