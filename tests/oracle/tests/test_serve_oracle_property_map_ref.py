"""`properties: {$ref: ...}` (a reference standing for a whole properties map) is judged.

DigitalOcean writes `properties: {$ref: 'attributes.yml#/load_balancer_droplet_tag'}`:
JSON Reference replaces the object by the map it points to, and toolcat reads it so.
jsonschema's `referencing` took it for a property named `$ref` whose schema is a
string and crashed (`AttributeError: 'str' object has no attribute 'get'`) on 685 of
DigitalOcean's 1,868 requests. The judge inlines such maps in every file it reads
(tests/oracle/quirks.py), keeping the map's own references pointing where they did.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from oracle.client import judge

ROOT: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/v2/load_balancers": {"post": {
        "operationId": "load_balancers_create",
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": {"$ref": "models/create.yml"}}}},
        "responses": {"202": {"description": "accepted"}}}}},
}
CREATE = """\
allOf:
- type: object
  properties:
    $ref: 'lb/attributes.yml#/droplet_tag'
- type: object
  properties:
    region:
      type: string
      enum: [nyc1]
required: [tag, region]
"""
ATTRIBUTES = """\
droplet_tag:
  tag:
    $ref: '../../shared/tag.yml'
"""
TAG = "type: string\nmaxLength: 3\nminLength: 1\n"


def _write(tmp_path: Path) -> Path:
    # the map lives one folder deeper than the file using it: its own reference must
    # still be read from its folder
    write_spec(tmp_path, CREATE, "models/create.yml")
    write_spec(tmp_path, ATTRIBUTES, "models/lb/attributes.yml")
    write_spec(tmp_path, TAG, "shared/tag.yml")
    return write_spec(tmp_path, ROOT, "spec.yaml")


def _request(body: str) -> dict[str, Any]:
    return {"method": "POST", "path": "/v2/load_balancers", "query": "", "headers": {},
            "cookies": {}, "contentType": "application/json", "body": body,
            "bodyBase64": None, "operation": "POST /v2/load_balancers"}


def test_runtime_requests_are_judged(tmp_path: Path) -> None:
    spec = _write(tmp_path)
    tally = judge_runtime(spec, generate(spec), count=3, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 2


def test_the_inlined_map_is_checked(tmp_path: Path) -> None:
    spec = _write(tmp_path)
    good, long = judge(spec, [_request('{"tag": "web", "region": "nyc1"}'),
                              _request('{"tag": "webserver", "region": "nyc1"}')])
    assert good["ok"], good
    assert long["class"] == "openapi-core", long
    assert any("'webserver' is too long" in e for e in long["errors"]), long
