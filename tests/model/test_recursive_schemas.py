"""Recursive schemas are shared through $defs: never expanded forever, never dropped.

A tool's schema carries the closure of the definitions it reaches under their
component names, so ``Node.children[*]`` refers back to ``Node``. Stripe has 92
schemas on reference cycles; openai's CompoundFilter refers to itself with
2019-09's ``$recursiveRef``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jsonschema_rs
import orjson
from helpers.fixtures import generate, real_catalog, tool, write_spec

REF = "#/components/schemas/"
SPEC: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "trees", "version": "1"},
    "paths": {"/trees": {"post": {
        "operationId": "plantTree",
        "requestBody": {"content": {"application/json": {"schema": {"$ref": REF + "Node"}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": REF + "Forest"}}}}}}}},
    "components": {"schemas": {
        "Node": {"type": "object", "properties": {
            "name": {"type": "string"},
            "children": {"type": "array", "items": {"$ref": REF + "Node"}},
            "owner": {"$ref": REF + "Person"}}},
        "Person": {"type": "object", "properties": {
            "name": {"type": "string"},
            "trees": {"type": "array", "items": {"$ref": REF + "Node"}}}},
        "Forest": {"type": "object", "properties": {
            "roots": {"type": "array", "items": {"$ref": REF + "Node"}}}},
    }},
}


def test_cycles_live_in_defs(tmp_path: Path) -> None:
    entry = tool(generate(write_spec(tmp_path, SPEC)), "plant_tree")
    schema = entry["tool"]["inputSchema"]
    assert schema["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert sorted(schema["$defs"]) == ["Node", "Person"]
    assert schema["$defs"]["Person"]["properties"]["trees"]["items"] == {"$ref": "#/$defs/Node"}
    deep = {"name": "a", "children": [{"name": "b", "owner": {"trees": [{"children": []}]}}]}
    assert jsonschema_rs.validator_for(schema).is_valid(deep)
    assert not jsonschema_rs.validator_for(schema).is_valid(
        {"children": [{"owner": {"trees": [{"name": 5}]}}]})
    output = entry["tool"]["outputSchema"]
    assert sorted(output["$defs"]) == ["Node", "Person"]
    assert jsonschema_rs.validator_for(output).is_valid({"roots": [deep]})


def test_self_referencing_root_keeps_its_def(tmp_path: Path) -> None:
    spec = {**SPEC, "paths": {"/trees/{id}": {"get": {
        "operationId": "getTree",
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": REF + "Node"}}}}}}}}}
    output = tool(generate(write_spec(tmp_path, spec)), "get_tree")["tool"]["outputSchema"]
    # The root is Node inlined; its children still point at the shared definition.
    assert output["properties"]["children"]["items"] == {"$ref": "#/$defs/Node"}
    assert "Node" in output["$defs"]


def test_openai_recursive_ref() -> None:
    catalog = real_catalog("corpus", "openai", "openapi.yaml")
    text = orjson.dumps(catalog).decode()
    assert "$recursiveRef" not in text
    assert "$recursiveAnchor" not in text
    for entry in catalog["tools"]:
        defs = entry["tool"]["inputSchema"].get("$defs", {})
        if "CompoundFilter" in defs:
            items = defs["CompoundFilter"]["properties"]["filters"]["items"]
            assert {"$ref": "#/$defs/CompoundFilter"} in items["oneOf"]
            return
    raise AssertionError("no tool input reaches CompoundFilter")


def test_stripe_cycles_are_closed_and_bounded() -> None:
    catalog = real_catalog("corpus", "stripe", "spec3.yaml")
    account = tool(catalog, "get_account")["tool"]["outputSchema"]
    # Every $ref resolves inside the tool (validator_for refuses a dangling one)...
    jsonschema_rs.validator_for(account)
    # ...and the cycle account -> ... -> account is cut by the size policy, not unrolled.
    assert len(orjson.dumps(account)) < 64 * 1024
