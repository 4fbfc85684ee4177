"""readOnly on a parameter's own schema does not make the parameter unsendable.

Cloudflare's path parameters (`account_id`, `zone_id`, ...) reference identifier
schemas that are also readOnly properties of its resources. OpenAPI 3.0 says readOnly
concerns properties only; openapi-core 0.23 refused every value ("Tried to write
read-only property"): two thirds of a Cloudflare sample. The judge drops readOnly from
the top of a parameter's schema, on a copy: the same schema as a body property still
refuses to be written.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from oracle.client import judge

SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/accounts/{account_id}/queues": {
        "parameters": [{"name": "account_id", "in": "path", "required": True,
                        "schema": {"$ref": "#/components/schemas/identifier"}}],
        "post": {"operationId": "queueCreate",
                 "requestBody": {"content": {"application/json": {"schema": {
                     "type": "object", "properties": {
                         "id": {"$ref": "#/components/schemas/identifier"},
                         "name": {"type": "string", "maxLength": 5}}}}}},
                 "responses": {"200": {"description": "ok"}}}}},
    "components": {"schemas": {"identifier": {"type": "string", "maxLength": 32,
                                              "readOnly": True}}},
}


def test_the_parameter_is_sendable(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=2, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 2


def test_the_shared_schema_is_still_read_only_in_a_body(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    (verdict,) = judge(spec, [{"method": "POST", "path": "/accounts/a1/queues", "query": "",
                               "headers": {}, "cookies": {}, "contentType": "application/json",
                               "body": '{"id": "x", "name": "q"}', "bodyBase64": None,
                               "operation": "POST /accounts/{account_id}/queues"}])
    assert verdict["class"] == "openapi-core", verdict
    assert any("read-only" in e for e in verdict["errors"]), verdict
