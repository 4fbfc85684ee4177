"""readOnly request-body fields are never inputs, at any depth, also through $ref and allOf.

The server owns them (ids, timestamps): an agent that could set them would send
values the API ignores or rejects. writeOnly fields, the mirror image, never appear
in outputs. A parameter whose shared schema is readOnly (cloudflare's identifiers)
is still how the resource is addressed, so it stays.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.fixtures import generate, real_catalog, tool, write_spec

REF = "#/components/schemas/"
SPEC: dict[str, Any] = {
    "openapi": "3.1.0",
    "info": {"title": "readOnly", "version": "1"},
    "paths": {
        "/items": {"post": {
            "operationId": "createItem",
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": {"$ref": REF + "Item"}}}},
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"$ref": REF + "Item"}}}}}}},
        "/items/{id}": {"put": {
            "operationId": "replaceItem",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"$ref": REF + "Id"}}],
            "requestBody": {"content": {"application/json": {"schema": {"oneOf": [
                {"$ref": REF + "Item"}, {"$ref": REF + "Tag"}]}}}},
            "responses": {"204": {"description": "done"}}}},
    },
    "components": {"schemas": {
        "Id": {"type": "string", "readOnly": True},
        "Base": {"type": "object", "required": ["id", "name"], "properties": {
            "id": {"$ref": REF + "Id"},
            "created": {"type": "string", "readOnly": True},
            "password": {"type": "string", "writeOnly": True},
            "name": {"type": "string"}}},
        "Item": {"allOf": [{"$ref": REF + "Base"}, {"type": "object", "properties": {
            "tags": {"type": "array", "items": {"$ref": REF + "Tag"}},
            "owner": {"$ref": REF + "Owner"}}}]},
        "Tag": {"type": "object", "required": ["tagId", "label"], "properties": {
            "tagId": {"type": "integer", "readOnly": True},
            "label": {"type": "string"}}},
        "Owner": {"type": "object", "properties": {
            "ownerId": {"$ref": REF + "Id"},
            "email": {"type": "string"}}},
    }},
}


def _catalog(tmp_path: Path) -> dict[str, Any]:
    return generate(write_spec(tmp_path, SPEC))


def test_top_level_and_allof_fields(tmp_path: Path) -> None:
    entry = tool(_catalog(tmp_path), "create_item")
    schema = entry["tool"]["inputSchema"]
    # id (readOnly through its $ref) and created (readOnly itself, in an allOf part) go.
    assert sorted(schema["properties"]) == ["name", "owner", "password", "tags"]
    assert schema["required"] == ["name"], "a required readOnly field is no longer required"
    assert sorted(entry["binding"]["arguments"]) == ["name", "owner", "password", "tags"]


def _inputs(props: dict[str, Any]) -> list[str]:
    """Property names a value may carry (a readOnly one stays as ``false``: never sent)."""
    return sorted(name for name, sub in props.items() if sub is not False)


def test_nested_definitions(tmp_path: Path) -> None:
    defs = tool(_catalog(tmp_path), "create_item")["tool"]["inputSchema"]["$defs"]
    assert _inputs(defs["Tag"]["properties"]) == ["label"]
    assert defs["Tag"]["required"] == ["label"]
    assert _inputs(defs["Owner"]["properties"]) == ["email"]


def test_open_objects_forbid_the_dropped_names(tmp_path: Path) -> None:
    """Open objects (no additionalProperties): without ``false`` the readOnly name would
    be admitted again as an additional property of any value."""
    defs = tool(_catalog(tmp_path), "create_item")["tool"]["inputSchema"]["$defs"]
    assert defs["Tag"]["properties"]["tagId"] is False
    assert defs["Owner"]["properties"]["ownerId"] is False


def test_whole_body_union_loses_readonly_too(tmp_path: Path) -> None:
    schema = tool(_catalog(tmp_path), "replace_item")["tool"]["inputSchema"]
    assert "body" in schema["properties"]
    assert _inputs(schema["$defs"]["Tag"]["properties"]) == ["label"]
    assert "'created': {" not in str(schema["$defs"])


def test_parameter_with_readonly_schema_stays(tmp_path: Path) -> None:
    entry = tool(_catalog(tmp_path), "replace_item")
    assert entry["binding"]["arguments"]["id"]["in"] == "path"
    assert "id" in entry["tool"]["inputSchema"]["required"]


def test_outputs_keep_readonly_and_drop_writeonly(tmp_path: Path) -> None:
    """A writeOnly property's schema leaves the output; its name stays allowed (``true``,
    issue 22 item 6: a response SHOULD NOT carry it, and may)."""
    output = tool(_catalog(tmp_path), "create_item")["tool"]["outputSchema"]
    text = str(output)
    assert "'created'" in text
    assert "'id'" in text
    assert "'password': True" in text
    assert "writeOnly" not in text


def test_digitalocean_ssh_key_ids_are_not_inputs() -> None:
    entry = tool(real_catalog("corpus", "digitalocean", "specification",
                              "DigitalOcean-public.v2.yaml"), "ssh_keys_create")
    # keys/models/sshKeys.yml: id and fingerprint are readOnly through $ref'd attribute files.
    assert sorted(entry["tool"]["inputSchema"]["properties"]) == ["name", "public_key"]


def test_cloudflare_readonly_body_id_is_not_an_input() -> None:
    entry = tool(real_catalog("corpus", "cloudflare", "openapi.json"),
                 "ip_access_rules_for_an_account_update_an_ip_access_rule")
    assert ("body", "id") not in {(b["in"], b["name"])
                                  for b in entry["binding"]["arguments"].values()}
    # ...while the readOnly-typed identifier in the path is still an argument.
    assert entry["binding"]["arguments"]["identifier"]["in"] == "path"
