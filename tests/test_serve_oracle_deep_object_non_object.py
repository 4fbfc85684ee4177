"""deepObject on a schema that is not an object: absent, judged; sent, counted apart.

Stripe declares `expand` (an array) and `created` (anyOf object/integer) as query
parameters with `style: deepObject`, and the same in its form bodies' `encoding`.
OpenAPI defines deepObject for objects only, and openapi-core 0.23 refused every
request of such an operation (`DeserializeError: ('deepObject', 'expand')`), the
parameter sent or not: 70 % of a Stripe sample. The judge now reads such a parameter
as `form`, so an absent one is absent, and a request that sends one is
"unserialisable" (no OpenAPI rule writes it), never a pass.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from oracle.client import judge

EXPAND = {"type": "array", "items": {"type": "string", "maxLength": 10}}
SPEC: dict[str, Any] = {
    "openapi": "3.0.0", "info": {"title": "t", "version": "1"},
    "paths": {"/v1/disputes": {
        "get": {"operationId": "GetDisputes", "parameters": [
            {"name": "expand", "in": "query", "style": "deepObject", "explode": True,
             "schema": EXPAND},
            {"name": "limit", "in": "query", "schema": {"type": "integer", "maximum": 100}}],
            "responses": {"200": {"description": "ok"}}},
        "post": {"operationId": "PostDisputes", "requestBody": {"content": {
            "application/x-www-form-urlencoded": {
                "encoding": {"expand": {"style": "deepObject", "explode": True}},
                "schema": {"type": "object", "additionalProperties": False,
                           "properties": {"expand": EXPAND,
                                          "reason": {"type": "string", "maxLength": 5}}}}}},
            "responses": {"200": {"description": "ok"}}}}},
}
GET = {"method": "GET", "path": "/v1/disputes", "headers": {}, "cookies": {},
       "contentType": None, "body": None, "bodyBase64": None, "operation": "GET /v1/disputes"}


def test_absent_is_judged_sent_is_counted_apart(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=2, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.unserialisable > 0
    assert tally.accepted > 0


def test_the_other_parameters_are_still_checked(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    absent, bad, sent = judge(spec, [{**GET, "query": "limit=5"}, {**GET, "query": "limit=500"},
                                     {**GET, "query": "expand=a&limit=5"}])
    assert absent["ok"], absent
    assert bad["class"] == "openapi-core", bad
    assert sent["class"] == "unserialisable", sent
    assert "['expand']" in sent["errors"][0], sent
