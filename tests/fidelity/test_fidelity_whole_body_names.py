"""A body carried whole (a union) admits at its top only the names its document declares.

A body split into arguments never sends a name the document does not declare (the
inputSchema's ``additionalProperties: false``). A union body is one ``body`` argument
holding the document's schema, where an object that merely omits
``additionalProperties`` admits any other name: OpenAI's ``create_response`` sent
``{"": null}``, Cloudflare's ``create_zone_ruleset_rule`` and
``account_members_update_member`` drawn names, and a DNS record ``created_on: null``.
The argument gets ``propertyNames`` with the names its branches declare (or require),
unless a branch is open on purpose (``additionalProperties``, a free-form object).

A name required beside a oneOf whose branches all declare it readOnly (Cloudflare's DNS
record requires ``created_on``, ``modified_on``, ``proxiable`` at the union) leaves the
input's ``required``: OpenAPI 3.0 says such a requirement concerns responses only, and
the inputSchema demanded the field with any value.
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from helpers.fixtures import generate, real_catalog, tool, write_spec
from helpers.runtime_oracle import judge_runtime

REF = "#/components/schemas/"


def _spec(open_branch: bool) -> dict[str, Any]:
    mx: dict[str, Any] = {"allOf": [{"type": "object", "required": ["type", "priority"],
                                     "properties": {"type": {"type": "string", "enum": ["MX"]},
                                                    "priority": {"type": "integer"}}},
                                    {"$ref": REF + "base"}]}
    if open_branch:
        mx["additionalProperties"] = {"type": "string"}
    return {
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "paths": {"/records": {"post": {
            "operationId": "createRecord",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "$ref": REF + "record"}}}},
            "responses": {"200": {"description": "ok"}}}}},
        "components": {"schemas": {
            "stamp": {"type": "string", "readOnly": True},
            "base": {"type": "object", "properties": {
                "created_on": {"$ref": REF + "stamp"}, "ttl": {"type": "integer"}}},
            "a": {"allOf": [{"type": "object", "required": ["type", "content"], "properties": {
                "type": {"type": "string", "enum": ["A"]},
                "content": {"type": "string"}}}, {"$ref": REF + "base"}]},
            "mx": mx,
            "record": {"type": "object", "required": ["type", "created_on"],
                       "oneOf": [{"$ref": REF + "a"}, {"$ref": REF + "mx"}]},
        }},
    }


def _schema(tmp_path: Any, open_branch: bool = False) -> tuple[Any, dict[str, Any]]:
    spec = write_spec(tmp_path, _spec(open_branch), "spec.json")
    catalog = generate(spec)
    return spec, tool(catalog, "create_record")["tool"]["inputSchema"]


def test_union_body_admits_only_declared_names(tmp_path: Any) -> None:
    _, schema = _schema(tmp_path)
    assert schema["properties"]["body"]["propertyNames"] == {
        "enum": ["content", "priority", "ttl", "type"]}
    check = jsonschema.Draft202012Validator(schema)
    assert check.is_valid({"body": {"type": "A", "content": "1.2.3.4"}})
    assert not check.is_valid({"body": {"type": "A", "content": "1.2.3.4", "": None}})
    assert not check.is_valid({"body": {"type": "A", "content": "x", "created_on": None}})


def test_read_only_required_beside_the_union_is_not_required(tmp_path: Any) -> None:
    _, schema = _schema(tmp_path)
    assert schema["$defs"]["record"]["required"] == ["type"]


def test_open_branch_keeps_the_body_open(tmp_path: Any) -> None:
    _, schema = _schema(tmp_path, open_branch=True)
    assert "propertyNames" not in schema["properties"]["body"]


def test_runtime_requests_are_accepted(tmp_path: Any) -> None:
    spec, _ = _schema(tmp_path)
    spec_catalog = generate(spec)
    tally = judge_runtime(spec, spec_catalog, count=6, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 2


@pytest.mark.parametrize(("doc", "name", "absent"), [
    (("corpus", "openai", "openapi.yaml"), "create_response", ""),
    (("corpus", "cloudflare", "openapi.json"), "dns_records_for_a_zone_create_dns_record",
     "created_on"),
])
def test_real_union_bodies(doc: tuple[str, ...], name: str, absent: str) -> None:
    body = tool(real_catalog(*doc), name)["tool"]["inputSchema"]["properties"]["body"]
    assert "propertyNames" in body
    assert absent not in body["propertyNames"]["enum"]
