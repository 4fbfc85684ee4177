"""``output_schemas: lenient`` (issue 22 item 3): for documents you do not own, every
property also admits null and objects stay open, while the types the document gives
still hold. Proven like the size policy's loosening: never narrower (every instance
drawn from the exact outputSchema of real documents validates under the lenient one),
and wider exactly where promised (a null where the document says string).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from helpers.draw import draw_arguments
from helpers.fixtures import generate, real, tool, write_spec
from helpers.generate import run_cli
from toolcat.model.lenient import lenient

SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "T", "version": "1"},
    "paths": {"/things/{id}": {"get": {
        "operationId": "getThing",
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Thing"}}}}}}}},
    "components": {"schemas": {
        "Thing": {"type": "object", "required": ["id", "name"],
                  "additionalProperties": False,
                  "properties": {"id": {"type": "integer"},
                                 "name": {"type": "string", "minLength": 1},
                                 "kind": {"type": "string", "enum": ["a", "b"]},
                                 "owner": {"$ref": "#/components/schemas/Owner"},
                                 "tags": {"type": "array", "items": {"type": "string"}}}},
        "Owner": {"type": "object", "additionalProperties": False,
                  "properties": {"login": {"type": "string"}}}}},
}


def _valid(schema: dict[str, Any], value: Any) -> bool:
    return bool(jsonschema_rs.validator_for(schema).is_valid(value))


def _schemas(tmp_path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    path = write_spec(tmp_path, SPEC, "api.json")
    exact = tool(generate(path), "get_thing")["tool"]["outputSchema"]
    loose = tool(generate(path, output_schemas="lenient"), "get_thing")["tool"]["outputSchema"]
    return exact, loose


def test_null_where_the_document_says_string_validates_only_when_lenient(
        tmp_path: Path) -> None:
    exact, loose = _schemas(tmp_path)
    answer = {"id": 1, "name": None, "kind": None, "owner": {"login": None}, "tags": []}
    assert not _valid(exact, answer)
    assert _valid(loose, answer)


def test_objects_stay_open_and_the_types_still_hold(tmp_path: Path) -> None:
    exact, loose = _schemas(tmp_path)
    grown = {"id": 1, "name": "n", "added_later": True, "owner": {"login": "x", "new": 1}}
    assert not _valid(exact, grown)
    assert _valid(loose, grown)
    # What the document says is still checked: types, required, enums, formats of values.
    for wrong in ({"id": "1", "name": "n"}, {"name": "n"}, {"id": 1, "name": "n", "kind": "c"},
                  {"id": 1, "name": ""}, {"id": 1, "name": "n", "tags": [None]}):
        assert not _valid(loose, wrong), wrong


def test_the_forms_of_a_nullable_property() -> None:
    schema = {"type": "object", "properties": {
        "plain": {"type": "string"}, "several": {"type": ["string", "integer"]},
        "already": {"type": ["string", "null"]}, "ref": {"$ref": "#/$defs/X"},
        "untyped": {"description": "anything"}, "never": False},
        "$defs": {"X": {"type": "object", "unevaluatedProperties": False,
                        "properties": {"properties": {"type": "string"}}}}}
    out = lenient(schema)
    props = out["properties"]
    assert props["plain"] == {"type": ["string", "null"]}
    assert props["several"] == {"type": ["string", "integer", "null"]}
    assert props["already"] == {"type": ["string", "null"]}
    assert props["ref"] == {"anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}]}
    assert props["untyped"] == {"description": "anything"}
    assert props["never"] == {"type": "null"}
    # A property *named* properties is a property, not the keyword.
    assert out["$defs"]["X"] == {"type": "object", "properties": {
        "properties": {"type": ["string", "null"]}}}


def test_the_setting_is_in_the_config_and_the_record(tmp_path: Path) -> None:
    write_spec(tmp_path, SPEC, "api.json")
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalogs:\n  t:\n    spec: api.json\n    output: out\n"
                      "    output_schemas: lenient\n")
    assert run_cli("generate", "--config", config).returncode == 0
    record = (tmp_path / "out" / ".toolcat-inputs.json").read_text()
    assert '"outputSchemas": "lenient"' in record
    config.write_text(config.read_text().replace("lenient", "loose"))
    run = run_cli("check", "--config", config)
    assert run.returncode == 2
    assert "output_schemas" in run.stderr


@pytest.mark.parametrize("parts", [
    ("corpus", "oai-examples", "v3.0", "petstore-expanded.json"),
    ("corpus", "museum", "openapi.yaml"),
    ("corpus", "oai-examples", "v3.1", "tictactoe.json"),
    ("corpus", "swagger-petstore", "master", "src", "main", "resources", "openapi.yaml"),
])
def test_never_narrower_on_real_documents(parts: tuple[str, ...]) -> None:
    path = real(*parts)
    exact = generate(path, validate=False)
    loose = {t["tool"]["name"]: t["tool"] for t in
             generate(path, validate=False, output_schemas="lenient")["tools"]}
    checked = 0
    for entry in exact["tools"]:
        schema = entry["tool"].get("outputSchema")
        if schema is None:
            continue
        lenient_schema = loose[entry["tool"]["name"]]["outputSchema"]
        for value in draw_arguments(schema, 5):
            assert _valid(schema, value)
            assert _valid(lenient_schema, value), (entry["tool"]["name"], value)
            checked += 1
    assert checked >= 10, checked
