"""readOnly reached through a reference counts for the judge as it does for OpenAPI.

OpenAPI 3.0: a readOnly property in a ``required`` list is required in responses only,
and readOnly concerns properties only. openapi-core 0.23 skips such a requirement only
when ``readOnly`` stands on the property's own schema, and refuses readOnly array items:
Cloudflare's ``modified_on: {$ref: ...}`` (readOnly target), ``id: {allOf: [{$ref},
{readOnly: true}]}``, a DNS record's ``created_on`` required beside a oneOf whose every
branch declares it readOnly, and vectorize's ``ids`` items were refused in requests
that the document allows. The judge (tests/oracle/quirks.py ``mark_inherited_access``)
writes the inherited flag beside the reference; a written readOnly property is still
refused.
"""

from __future__ import annotations

import json
from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from oracle.client import judge

STAMP = {"type": "string", "readOnly": True}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {
        "/firewalls/{id}": {"patch": {
            "operationId": "updateFirewall",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "string"}}],
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["name", "modified_on", "id"],
                "properties": {
                    "name": {"type": "string"},
                    "modified_on": {"$ref": "#/components/schemas/stamp"},
                    "id": {"allOf": [{"$ref": "#/components/schemas/ident"},
                                     {"readOnly": True}]}}}}}},
            "responses": {"200": {"description": "ok"}}}},
        "/records": {"post": {
            "operationId": "createRecord",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/record"}}}},
            "responses": {"200": {"description": "ok"}}}},
        "/vectors/get": {"post": {
            "operationId": "getVectors",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "required": ["ids"], "properties": {"ids": {
                    "type": "array", "minItems": 1,
                    "items": {"$ref": "#/components/schemas/vectorId"}}}}}}},
            "responses": {"200": {"description": "ok"}}}},
    },
    "components": {"schemas": {
        "stamp": STAMP,
        "ident": {"type": "string", "maxLength": 8},
        "vectorId": {"type": "string", "maxLength": 8, "readOnly": True},
        "base": {"type": "object", "properties": {
            "created_on": {"$ref": "#/components/schemas/stamp"}}},
        "a": {"allOf": [{"type": "object", "required": ["type"], "properties": {
            "type": {"type": "string", "enum": ["A"]}}}, {"$ref": "#/components/schemas/base"}]},
        "mx": {"allOf": [{"type": "object", "required": ["type"], "properties": {
            "type": {"type": "string", "enum": ["MX"]}}}, {"$ref": "#/components/schemas/base"}]},
        "record": {"type": "object", "required": ["type", "created_on"],
                   "oneOf": [{"$ref": "#/components/schemas/a"},
                             {"$ref": "#/components/schemas/mx"}]},
    }},
}


def _request(method: str, path: str, operation: str, body: Any) -> dict[str, Any]:
    return {"method": method, "path": path, "query": "", "headers": {}, "cookies": {},
            "contentType": "application/json", "body": json.dumps(body), "bodyBase64": None,
            "operation": operation}


def test_required_read_only_through_references_is_not_demanded(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    verdicts = judge(spec, [
        _request("PATCH", "/firewalls/f1", "PATCH /firewalls/{id}", {"name": "x"}),
        _request("POST", "/records", "POST /records", {"type": "A"}),
        _request("POST", "/vectors/get", "POST /vectors/get", {"ids": ["v1"]}),
    ])
    assert [v["ok"] for v in verdicts] == [True, True, True], verdicts


def test_a_written_read_only_property_is_still_refused(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    verdicts = judge(spec, [
        _request("PATCH", "/firewalls/f1", "PATCH /firewalls/{id}",
                 {"name": "x", "modified_on": "now"}),
        _request("PATCH", "/firewalls/f1", "PATCH /firewalls/{id}", {"name": "x", "id": "i"}),
        _request("POST", "/records", "POST /records", {"type": "A", "created_on": "now"}),
    ])
    for verdict in verdicts:
        assert verdict["class"] == "openapi-core", verdict
        assert any("read-only" in e for e in verdict["errors"]), verdict


def test_the_runtime_requests_are_accepted(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=2, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 6
