"""OpenAPI 3.1 schemas named by ``$id`` and places marked by ``$anchor`` resolve offline.

swagger-petstore v31 writes ``$ref: /components/schemas/petdetails#pet_details_id``:
``/components/schemas/petdetails`` is not a file but the ``$id`` of PetDetails, and
``pet_details_id`` an ``$anchor`` inside it. The bundler resolves such references
the JSON Schema way (against the enclosing ``$id``, then the file) through an index
of ids and anchors, and rewrites them to plain JSON pointers; an ``https://`` id
that a schema declares is found there, never fetched. ``#/...`` pointers are read
against the document, as authors mean them, and fall back to the ``$id`` resource.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.fixtures import generate, real, tool, write_spec
from toolcat.errors import ToolcatError
from toolcat.load.bundle import bundle

SCHEMAS: dict[str, Any] = {
    "Pet": {"type": "object", "properties": {
        "detailsId": {"$ref": "/components/schemas/petdetails#pet_details_id"},
        "details": {"$ref": "/components/schemas/petdetails"},
        "tag": {"$ref": "https://example.com/schemas/tag"}}},
    "PetDetails": {"$id": "/components/schemas/petdetails", "type": "object", "properties": {
        "id": {"$anchor": "pet_details_id", "type": "integer", "format": "int64"},
        "category": {"$ref": "#/components/schemas/Category"},
        "sameId": {"$ref": "#/properties/id"},
        "anchored": {"$ref": "#pet_details_id"}}},
    "Tag": {"$id": "https://example.com/schemas/tag", "type": "object",
            "properties": {"name": {"type": "string"}}},
    "Category": {"type": "object", "properties": {"label": {"type": "string"}}},
}


def _spec(schemas: dict[str, Any]) -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "ids", "version": "1"},
            "paths": {"/pets": {"get": {"operationId": "getPet", "responses": {"200": {
                "description": "ok", "content": {"application/json": {"schema": {
                    "$ref": "#/components/schemas/Pet"}}}}}}}},
            "components": {"schemas": schemas}}


def test_refs_become_pointers(tmp_path: Path) -> None:
    document = bundle(write_spec(tmp_path, _spec(SCHEMAS))).document
    schemas = document["components"]["schemas"]
    assert schemas["Pet"]["properties"] == {
        "detailsId": {"$ref": "#/components/schemas/PetDetails/properties/id"},
        "details": {"$ref": "#/components/schemas/PetDetails"},
        "tag": {"$ref": "#/components/schemas/Tag"}}
    details = schemas["PetDetails"]["properties"]
    assert details["category"] == {"$ref": "#/components/schemas/Category"}
    assert details["sameId"] == {"$ref": "#/components/schemas/PetDetails/properties/id"}
    assert details["anchored"] == {"$ref": "#/components/schemas/PetDetails/properties/id"}


def test_catalog_types_through_ids(tmp_path: Path) -> None:
    output = tool(generate(write_spec(tmp_path, _spec(SCHEMAS))), "get_pet")["tool"][
        "outputSchema"]
    defs = output["$defs"]
    target = output["properties"]["detailsId"]["$ref"].removeprefix("#/$defs/")
    assert defs[target] == {"type": "integer", "format": "int64"}
    assert output["properties"]["tag"] == {"$ref": "#/$defs/Tag"}
    assert "$id" not in str(output)
    assert "$anchor" not in str(output)


def test_unknown_anchor_is_located(tmp_path: Path) -> None:
    schemas = {**SCHEMAS, "Pet": {"properties": {"x": {
        "$ref": "/components/schemas/petdetails#nowhere"}}}}
    with pytest.raises(ToolcatError) as caught:
        bundle(write_spec(tmp_path, _spec(schemas)))
    text = caught.value.render()
    assert "/components/schemas/Pet/properties/x" in text
    assert "names an anchor 'nowhere' that no schema declares" in text


def test_unmatched_id_is_not_fetched(tmp_path: Path) -> None:
    schemas = {**SCHEMAS, "Pet": {"properties": {"x": {
        "$ref": "https://example.com/schemas/other"}}}}
    with pytest.raises(ToolcatError) as caught:
        bundle(write_spec(tmp_path, _spec(schemas)))
    assert "remote $ref 'https://example.com/schemas/other' refused" in caught.value.render()


def test_swagger_petstore_v31(tmp_path: Path) -> None:
    """The real document, minus its one ``$ref: null`` line (see test_broken_refs)."""
    source = real("corpus", "swagger-petstore", "v31", "src", "main", "webapp",
                  "design-first", "petstore.yaml")
    lines = source.read_text().splitlines(keepends=True)
    broken = next(i for i, line in enumerate(lines)
                  if line.strip() == "$ref: #/components/schemas/petdetails")
    del lines[broken - 1: broken + 1]                  # "petDetails:" and its null $ref
    path = tmp_path / "petstore.yaml"
    path.write_text("".join(lines))
    entry = tool(generate(path, validate=False), "add_pet")
    schema = entry["tool"]["inputSchema"]
    target = schema["properties"]["petDetailsId"]["$ref"].removeprefix("#/$defs/")
    assert schema["$defs"][target]["type"] == "integer"
