"""readOnly said in an ``allOf`` part of a property is readOnly for the whole property.

DigitalOcean's database cluster declares ``connection: {allOf: [{$ref: Connection},
{readOnly: true}]}``: every ``allOf`` part holds for the property, so the API (and
openapi-core) refuses it in a request. It was an input (``databases_create_cluster``
sent ``connection: {}``); it is left out of inputs and kept in outputs. Oracle figure:
every drawn call is accepted.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run

CLUSTER: dict[str, Any] = {
    "type": "object", "required": ["name"],
    "properties": {
        "name": {"type": "string", "enum": ["db"]},
        "connection": {"allOf": [{"$ref": "#/components/schemas/Connection"},
                                 {"readOnly": True}]},
        "backup": {"allOf": [{"$ref": "#/components/schemas/Connection"},
                             {"description": "not read-only"}]},
    },
}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/clusters": {"post": {
        "operationId": "createCluster",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "$ref": "#/components/schemas/Cluster"}}}},
        "responses": {"201": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Cluster"}}}}}}}},
    "components": {"schemas": {
        "Cluster": CLUSTER,
        "Connection": {"type": "object", "properties": {"uri": {"type": "string"}}}}},
}


def test_readonly_in_an_allof_part_hides_the_input(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    entry = tool(catalog, "create_cluster")
    inputs = entry["tool"]["inputSchema"]["properties"]
    assert sorted(inputs) == ["backup", "name"]
    outputs = entry["tool"]["outputSchema"]
    cluster = outputs["$defs"]["Cluster"] if "$ref" in outputs else outputs
    assert "connection" in cluster["properties"]
    tally = run(spec, catalog, count=10, seed_value=4)
    assert tally.requests >= 2
    assert tally.failures == []
    assert tally.accepted == tally.requests
