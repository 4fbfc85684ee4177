"""A property literally named ``$ref`` is a property, not a reference.

Kubernetes' JSONSchemaProps declares ``properties: {"$ref": {type: string}}``. Only a
``$ref`` key whose value is a string is a reference; a map member named ``$ref`` whose
value is a schema stays a member at every stage (bundle, Swagger 2.0 conversion,
schema rewriting, flattening into arguments).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.fixtures import generate, real_catalog, tool, write_spec

SWAGGER: dict[str, Any] = {
    "swagger": "2.0",
    "info": {"title": "props", "version": "1"},
    "paths": {"/props": {"post": {
        "operationId": "createProps",
        "parameters": [{"name": "body", "in": "body", "required": True,
                        "schema": {"$ref": "#/definitions/Props"}}],
        "responses": {"200": {"description": "ok",
                              "schema": {"$ref": "#/definitions/Props"}}}}}},
    "definitions": {"Props": {"type": "object", "required": ["$ref"], "properties": {
        "$ref": {"type": "string", "description": "a reference, as data"},
        "$schema": {"type": "string"},
        "nested": {"$ref": "#/definitions/Props"}}}},
}


def test_swagger_property_named_ref(tmp_path: Path) -> None:
    entry = tool(generate(write_spec(tmp_path, SWAGGER)), "create_props")
    arguments = entry["binding"]["arguments"]
    # The wire name is exact; the argument name is what clients accept.
    assert arguments["ref"] == {"in": "body", "name": "$ref"}
    assert arguments["schema"] == {"in": "body", "name": "$schema"}
    schema = entry["tool"]["inputSchema"]
    assert schema["properties"]["ref"]["type"] == "string"
    assert "ref" in schema["required"]
    # Inside the recursive definition the member keeps its literal name.
    assert schema["$defs"]["Props"]["properties"]["$ref"] == {
        "type": "string", "description": "a reference, as data"}
    output = entry["tool"]["outputSchema"]
    assert output["properties"]["$ref"]["type"] == "string"


def test_multi_file_property_named_ref(tmp_path: Path) -> None:
    write_spec(tmp_path, {"type": "object", "properties": {
        "$ref": {"type": "string"}, "size": {"type": "integer"}}}, "models/props.yaml")
    spec = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/p": {"get": {"operationId": "getProps", "responses": {"200": {
                "description": "ok", "content": {"application/json": {"schema": {
                    "$ref": "models/props.yaml"}}}}}}}}}
    entry = tool(generate(write_spec(tmp_path, spec)), "get_props")
    assert entry["tool"]["outputSchema"]["properties"] == {
        "$ref": {"type": "string"}, "size": {"type": "integer"}}


def test_kubernetes_json_schema_props() -> None:
    catalog = real_catalog("corpus", "kubernetes", "swagger.json.unprocessed")
    entry = tool(catalog, "create_apiextensions_v1_custom_resource_definition")
    defs = entry["tool"]["inputSchema"]["$defs"]
    props = defs["io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSONSchemaProps"]
    assert props["properties"]["$ref"]["type"] == "string"
    assert props["properties"]["$schema"]["type"] == "string"
