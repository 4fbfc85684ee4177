"""deepObject on a schema that is not an object: judged, absent or sent.

Stripe declares `expand` (an array) and `created` (anyOf object/integer) as query
parameters with `style: deepObject`, and the same in its form bodies' `encoding`.
OpenAPI defines deepObject for objects only, and openapi-core 0.23 refused every
request of such an operation (`DeserializeError: ('deepObject', 'expand')`), the
parameter sent or not: 70 % of a Stripe sample. Such calls were then counted apart as
"unserialisable". The judge now reads every deepObject by the bracket convention the
runtime documents (`expand[0]=a`, list items indexed; a scalar as `created=5`), so they
are judged, and a list sent any other way is refused.
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


def test_sent_and_absent_are_both_judged(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=2, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.unserialisable == 0
    assert tally.accepted == tally.requests > 0


def test_the_list_is_read_by_the_convention_only(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    absent, bad, sent, flat, gap, long = judge(spec, [
        {**GET, "query": "limit=5"}, {**GET, "query": "limit=500"},
        {**GET, "query": "expand%5B0%5D=a&expand%5B1%5D=b&limit=5"},
        {**GET, "query": "expand=a&limit=5"},
        {**GET, "query": "expand%5B0%5D=a&expand%5B2%5D=b"},
        {**GET, "query": "expand%5B0%5D=abcdefghijkl"}])
    assert absent["ok"], absent
    assert bad["class"] == "openapi-core", bad
    assert sent["ok"], sent
    for refused in (flat, gap, long):   # not a list; a gap in the indexes; an item too long
        assert refused["class"] == "openapi-core", refused
    assert "expand" in gap["errors"][0], gap
