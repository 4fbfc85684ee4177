"""Inputs admit null only where OpenAPI 3.0.3's ``nullable`` does, by its letter.

3.0.3: ``nullable: true`` adds null "only if type is explicitly defined within the
same Schema Object. Other Schema Object constraints retain their defined behavior".
DigitalOcean's ``reasoning_effort: {type: string, nullable: true, enum: [none, ...]}``
and ``stop: {nullable: true, oneOf: [...]}`` (no type) admitted null as inputs, and a
validating API refuses it. Inputs follow the letter; outputs keep admitting null (a
server that sends it must still pass outputSchema). Oracle figure: every drawn call
is accepted.
"""

from __future__ import annotations

from typing import Any

import jsonschema
from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run

SETTINGS: dict[str, Any] = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "effort": {"type": "string", "nullable": True, "enum": ["low", "high"]},
        "stop": {"nullable": True, "oneOf": [
            {"type": "string", "enum": ["."]},
            {"type": "array", "maxItems": 1, "items": {"type": "string", "enum": ["!"]}}]},
        "note": {"type": "string", "nullable": True, "enum": ["n", None]},
        "size": {"type": "integer", "nullable": True, "minimum": 0, "maximum": 3},
    },
}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/settings": {"put": {
        "operationId": "putSettings",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/Settings"}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Settings"}}}}}}}},
    "components": {"schemas": {"Settings": SETTINGS}},
}


def test_inputs_follow_the_letter_outputs_stay_loose(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    entry = tool(catalog, "put_settings")
    inputs = jsonschema.Draft202012Validator(entry["tool"]["inputSchema"])
    for name, admits_null in (("effort", False), ("stop", False), ("note", True),
                              ("size", True)):
        assert inputs.is_valid({name: None}) is admits_null, name
    outputs = jsonschema.Draft202012Validator(entry["tool"]["outputSchema"])
    for name in ("effort", "stop", "note", "size"):
        assert outputs.is_valid({name: None}), name
    tally = run(spec, catalog, count=10, seed_value=4)
    assert tally.requests >= 3
    assert tally.failures == []
    assert tally.accepted == tally.requests
