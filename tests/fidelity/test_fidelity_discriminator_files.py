"""A discriminator mapping into another file still names its branch once bundled.

DigitalOcean maps ``A`` to ``models/records.yml#/record_a``: bundling rewrote the
branch's ``$ref`` but not the mapping, so the branch got its schema name as the value
(``type: "record_a"``) and the API refused it. Mapping values that are references are
bundled like ``$ref``s. And a branch shared by several mapped values, with an ``enum``
of its own that lists more (DigitalOcean's by-tag droplet actions), gets the mapped
values only: a value the mapping does not list names no schema. Oracle figure: every
drawn call is accepted.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run

MODELS: dict[str, Any] = {
    "record_a": {"type": "object", "required": ["type", "data"],
                 "additionalProperties": False, "properties": {
        "type": {"type": "string"}, "data": {"type": "string", "enum": ["1.2.3.4"]}}},
    "record_mx": {"type": "object", "required": ["type", "priority"],
                  "additionalProperties": False, "properties": {
        "type": {"type": "string"}, "priority": {"type": "integer", "enum": [10]}}},
    "action": {"type": "object", "required": ["type"], "additionalProperties": False,
               "properties": {
        "type": {"type": "string", "enum": ["reboot", "power_on", "power_off"]}}},
}


def _body(branches: list[str], mapping: dict[str, str]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": {
        "oneOf": [{"$ref": f"models.yaml#/{b}"} for b in branches],
        "discriminator": {"propertyName": "type",
                          "mapping": {k: f"models.yaml#/{v}" for k, v in mapping.items()}}}}}}


SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {
        "/records": {"post": {"operationId": "createRecord",
                              "requestBody": _body(["record_a", "record_mx"],
                                                   {"A": "record_a", "MX": "record_mx"}),
                              "responses": {"204": {"description": "ok"}}}},
        "/actions": {"post": {"operationId": "actByTag",
                              "requestBody": _body(["action"], {"power_on": "action",
                                                                "power_off": "action"}),
                              "responses": {"204": {"description": "ok"}}}},
    },
}


def _tags(branches: list[dict[str, Any]]) -> list[Any]:
    return [b.get("properties", {}).get("type") for b in branches]


def test_mapping_into_another_file_names_the_branch(tmp_path: Any) -> None:
    write_spec(tmp_path, MODELS, "models.yaml")
    spec = write_spec(tmp_path, SPEC, "spec.yaml")
    catalog = generate(spec)
    records = tool(catalog, "create_record")["tool"]["inputSchema"]["properties"]["body"]
    assert _tags(records["oneOf"]) == [{"enum": ["A"]}, {"enum": ["MX"]}]
    actions = tool(catalog, "act_by_tag")["tool"]["inputSchema"]["properties"]["body"]
    assert _tags(actions["oneOf"]) == [{"enum": ["power_off", "power_on"]}]
    tally = run(spec, catalog, count=10, seed_value=4)
    assert tally.requests >= 4
    assert tally.failures == []
    assert tally.accepted == tally.requests
