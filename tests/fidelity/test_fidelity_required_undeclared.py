"""A body field the spec requires but declares no schema for is an argument of any value.

DigitalOcean's ``uptime_create_check`` body requires ``method`` while its properties
name ``type`` instead: the field was dropped (silently), so no call could send the
body the API requires. In an object open to other names the field is an argument
with an empty schema (any value, said in its description); in a closed object no
body can satisfy the spec, and nothing is added. Oracle figure: every drawn call is
accepted.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run
from toolcat.model.arguments import UNDECLARED


def _spec(closed: bool) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "required": ["name", "method"],
                              "properties": {"name": {"type": "string", "enum": ["up"]}}}
    if closed:
        schema["additionalProperties"] = False
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/checks": {"post": {
                "operationId": "createCheck",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": schema}}},
                "responses": {"204": {"description": "ok"}}}}}}


def test_required_undeclared_field_is_an_argument(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, _spec(closed=False), "spec.json")
    catalog = generate(spec)
    entry = tool(catalog, "create_check")
    schema = entry["tool"]["inputSchema"]
    assert schema["properties"]["method"] == {"description": UNDECLARED}
    assert schema["required"] == ["method", "name"]
    assert entry["binding"]["arguments"]["method"] == {"in": "body", "name": "method"}
    tally = run(spec, catalog, count=10, seed_value=4)
    assert tally.requests >= 2
    assert tally.failures == []
    assert tally.accepted == tally.requests


def test_closed_object_gets_nothing_added(tmp_path: Any) -> None:
    spec = write_spec(tmp_path / "closed", _spec(closed=True), "spec.json")
    schema = tool(generate(spec), "create_check")["tool"]["inputSchema"]
    assert sorted(schema["properties"]) == ["name"]
