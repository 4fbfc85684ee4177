"""Class 7 of issue 11: every documented 2xx response and JSON media type is covered.

A 202 beside a 200, or a second JSON media type, describes responses the API sends;
outputSchema is an ``anyOf`` of every distinct shape (wrapped in ``result`` when one
of them is not an object), and ``responseContentType`` stays the preferred type.
Oracle figure: every spec-valid response instance of every 2xx passes outputSchema.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, tool, write_spec
from oracle.responses import check

DONE = {"type": "object", "required": ["id"], "additionalProperties": False,
        "properties": {"id": {"type": "integer"}}}
QUEUED = {"type": "object", "required": ["queue"], "additionalProperties": False,
          "properties": {"queue": {"type": "string"}}}
STARS = {"type": "array", "items": {"type": "object", "required": ["starred_at"],
                                    "properties": {"starred_at": {"type": "string"}}}}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {
        "/deployments": {"post": {
            "operationId": "createDeployment",
            "responses": {
                "201": {"description": "done", "content": {"application/json": {
                    "schema": DONE}}},
                "202": {"description": "queued", "content": {"application/json": {
                    "schema": QUEUED}}}}}},
        "/stargazers": {"get": {
            "operationId": "listStargazers",
            "responses": {"200": {"description": "ok", "content": {
                "application/json": {"schema": {"type": "array", "items": DONE}},
                "application/vnd.github.star+json": {"schema": STARS}}}}}},
    },
}


def test_every_success_shape_is_in_output_schema(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    deploy = tool(catalog, "create_deployment")
    assert deploy["binding"]["outputWrapper"] is None
    assert deploy["binding"]["responseContentType"] == "application/json"
    assert len(deploy["tool"]["outputSchema"]["anyOf"]) == 2
    stars = tool(catalog, "list_stargazers")
    assert stars["binding"]["outputWrapper"] == "result"
    assert len(stars["tool"]["outputSchema"]["properties"]["result"]["anyOf"]) == 2
    tally = check(spec, catalog, count=5)
    assert tally.failures == []
    assert tally.instances >= 8
    assert tally.accepted == tally.instances
