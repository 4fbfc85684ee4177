"""Class 2 of issue 11: an optional body whose schema has required properties.

The spec says "no body, or a body with ``files``" (GitHub ``gists_create``). Every
body field is an optional argument, so the inputSchema states the rule exactly:
``dependentRequired`` from each body argument to a representative required one, and
from it to the others (issue 28 item 10: linear, not every pair). No body
argument: no body is sent. Oracle figure: every drawn call is accepted.
"""

from __future__ import annotations

from typing import Any

import jsonschema
from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run

SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/gists": {"post": {
        "operationId": "createGist",
        "requestBody": {"content": {"application/json": {"schema": {
            "type": "object", "required": ["files", "public"], "additionalProperties": False,
            "properties": {"files": {"type": "string", "enum": ["a.txt", "b.txt"]},
                           "public": {"type": "boolean"},
                           "description": {"type": "string", "maxLength": 3}}}}}},
        "responses": {"201": {"description": "created"}}}}},
}


def test_any_body_field_requires_the_schema_required_ones(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    entry = tool(catalog, "create_gist")
    schema = entry["tool"]["inputSchema"]
    assert "required" not in schema
    # one representative (``files``, first by name) that brings the rest: linear size
    assert schema["dependentRequired"] == {
        "description": ["files"], "files": ["public"], "public": ["files"]}
    assert entry["binding"]["bodyRequired"] is False
    check = jsonschema.Draft202012Validator(schema)
    assert check.is_valid({})
    assert not check.is_valid({"description": ""})
    assert check.is_valid({"files": "a.txt", "public": True})
    tally = run(spec, catalog, count=8, seed_value=2)
    assert tally.requests >= 2
    assert tally.failures == []
    assert tally.accepted == tally.requests
