"""What an inputSchema and an outputSchema say about values a caller sends or may get back
(issue 22 items 5 and 6).

* Cloudflare marks its identifier schemas ``readOnly: true`` and uses them for required
  path parameters: the inputSchema told clients that a value they must send is read-only.
  No ``readOnly``/``writeOnly`` annotation is left in an input (parameters, body fields that
  stay inputs, their ``$defs``): what is left there is sent by the caller.
* A required header (or cookie) string admitted ``""``, which Prism and many servers read
  as absent (144 refused calls of one document): ``minLength: 1``, as for required query
  strings; an optional one may still be empty.
* An outputSchema that dropped a writeOnly property under ``additionalProperties: false``
  (or an ancestor's ``unevaluatedProperties: false``) refused a response that still carries
  it (OpenAPI: SHOULD NOT, not MUST NOT): the dropped name stays allowed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.fixtures import generate, real_catalog, tool, write_spec
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

REF = "#/components/schemas/"
SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "annotations", "version": "1"},
    "paths": {"/accounts/{account_id}/users": {"post": {
        "operationId": "createUser",
        "parameters": [
            {"name": "account_id", "in": "path", "required": True,
             "schema": {"$ref": REF + "Identifier"}},
            {"name": "X-Request-Id", "in": "header", "required": True,
             "schema": {"type": "string"}},
            {"name": "X-Trace", "in": "header", "schema": {"type": "string"}},
            {"name": "session", "in": "cookie", "required": True, "schema": {"type": "string"}},
        ],
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": REF + "NewUser"}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": REF + "User"}}}}}}}},
    "components": {"schemas": {
        "Identifier": {"type": "string", "readOnly": True, "maxLength": 32},
        "NewUser": {"type": "object", "properties": {
            "name": {"type": "string"},
            "password": {"type": "string", "writeOnly": True},
            "team": {"$ref": REF + "Team"}}},
        "Team": {"type": "object", "properties": {"id": {"$ref": REF + "Identifier"},
                                                  "label": {"type": "string"}}},
        "User": {"type": "object", "additionalProperties": False, "properties": {
            "id": {"$ref": REF + "Identifier"},
            "name": {"type": "string"},
            "password": {"type": "string", "writeOnly": True},
            "profile": {"$ref": REF + "Profile"}}},
        "Profile": {"unevaluatedProperties": False, "allOf": [
            {"type": "object", "properties": {"bio": {"type": "string"},
                                              "pin": {"type": "string", "writeOnly": True}}}]},
    }},
}


@pytest.fixture(scope="module")
def entry(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder: Path = tmp_path_factory.mktemp("annotations")
    return tool(generate(write_spec(folder, SPEC, "spec.json")), "create_user")


def test_inputs_carry_no_access_annotation(entry: dict[str, Any]) -> None:
    schema = entry["tool"]["inputSchema"]
    text = json.dumps(schema)
    assert "readOnly" not in text
    assert "writeOnly" not in text
    # the values stay inputs: the path identifier and the writeOnly body field
    assert "account_id" in schema["required"]
    assert "password" in schema["properties"]


def test_required_header_and_cookie_strings_are_not_empty(entry: dict[str, Any]) -> None:
    schema = entry["tool"]["inputSchema"]
    validator = Draft202012Validator(schema)
    base = {"account_id": "a1", "X-Request-Id": "r1", "session": "s1"}
    assert not list(validator.iter_errors(base))
    for name in ("X-Request-Id", "session"):
        assert schema["properties"][name]["minLength"] == 1
        errors = list(validator.iter_errors({**base, name: ""}))
        assert [list(e.path) for e in errors] == [[name]], name
    assert "minLength" not in schema["properties"]["X-Trace"]
    assert not list(validator.iter_errors({**base, "X-Trace": ""}))


def test_a_response_that_carries_writeonly_names_validates(entry: dict[str, Any]) -> None:
    output = entry["tool"]["outputSchema"]
    validator = Draft202012Validator(output)
    answer = {"id": "a1", "name": "ann", "password": "echoed", "profile": {"bio": "b",
                                                                          "pin": "1234"}}
    assert not list(validator.iter_errors(answer))
    assert list(validator.iter_errors({**answer, "other": 1})), "the object is still closed"
    assert "writeOnly" not in json.dumps(output)


def test_cloudflare_identifiers_are_not_read_only_in_inputs() -> None:
    catalog = real_catalog("corpus", "cloudflare", "openapi.json")
    entry = tool(catalog, "dns_records_for_a_zone_list_dns_records")
    schema = entry["tool"]["inputSchema"]
    assert "zone_id" in schema["required"]
    annotated = [e["tool"]["name"] for e in catalog["tools"]
                 if "readOnly" in json.dumps(e["tool"]["inputSchema"])
                 or "writeOnly" in json.dumps(e["tool"]["inputSchema"])]
    assert annotated == []
