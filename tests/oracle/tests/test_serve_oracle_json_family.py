"""A JSON body under ``*/*`` or a ``+json`` media type is judged as JSON, not as bytes.

Kubernetes (Swagger 2.0) consumes ``*/*`` for create, replace and delete and
``application/merge-patch+json`` (and other patch types) for patch. openapi-core 0.23
picks a body's deserializer by the document's media type key, and knows JSON only as
``application/json``: every such body came back as bytes and failed its own schema
(``b'{}' is not of type 'object'``: 1,707 of Kubernetes' 4,174 requests). The judge
supplies JSON deserializers for those keys (``tests/oracle/quirks.py``); the schema
still judges the value, so a wrong body is still refused.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from oracle.client import judge

BODY = {"type": "object", "required": ["kind"],
        "properties": {"kind": {"type": "string", "enum": ["Pod"]},
                       "replicas": {"type": "integer", "minimum": 0}}}
SPEC: dict[str, Any] = {
    "swagger": "2.0", "info": {"title": "t", "version": "1"}, "basePath": "/api",
    "consumes": ["*/*"], "produces": ["application/json"],
    "paths": {"/pods/{name}": {
        "parameters": [{"name": "name", "in": "path", "required": True, "type": "string"}],
        "put": {"operationId": "replacePod",
                "parameters": [{"name": "body", "in": "body", "required": True,
                                "schema": BODY}],
                "responses": {"200": {"description": "ok"}}},
        "patch": {"operationId": "patchPod",
                  "consumes": ["application/merge-patch+json"],
                  "parameters": [{"name": "body", "in": "body", "required": True,
                                  "schema": {"type": "object"}}],
                  "responses": {"200": {"description": "ok"}}}}},
}


def test_every_call_is_judged_as_json(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "swagger.json")
    tally = judge_runtime(spec, generate(spec), count=3, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 4


def _request(method: str, content_type: str, body: str) -> dict[str, Any]:
    return {"method": method, "path": "/api/pods/p", "query": "", "headers": {},
            "cookies": {}, "contentType": content_type, "body": body, "bodyBase64": None,
            "operation": f"{method} /pods/{{name}}"}


def test_a_wrong_body_is_still_refused(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "swagger.json")
    verdicts = judge(spec, [_request("PUT", "application/json", '{"kind": "Job"}'),
                            _request("PATCH", "application/merge-patch+json", "[1]"),
                            _request("PUT", "application/json", '{"kind": "Pod"}')])
    assert [v["ok"] for v in verdicts] == [False, False, True], verdicts
