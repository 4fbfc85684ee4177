"""A deepObject parameter without `explode` is judged as `a[b]=c`, its only serialization.

Plex declares `prefs` as `style: deepObject` without `explode`, so explode defaults to
false, a combination OpenAPI's style table leaves undefined. openapi-core 0.23 refused
every request of such an operation (`DeserializeError: ('deepObject', 'prefs')`), the
parameter sent or not. The judge reads it by the bracket convention (deep_object.py);
the object's own rules still apply.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from oracle.client import judge

FORM = "application/x-www-form-urlencoded"

SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "paths": {"/sections": {"post": {
        "operationId": "addSection",
        "parameters": [
            {"name": "name", "in": "query", "required": True, "schema": {"type": "string"}},
            {"name": "prefs", "in": "query", "style": "deepObject", "schema": {
                "type": "object", "additionalProperties": False,
                "properties": {"hidden": {"type": "integer", "maximum": 1}}}}],
        "responses": {"200": {"description": "ok"}}}}},
}


def test_sent_or_not_it_is_judged(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=3, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 3


def test_its_schema_still_applies(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    (verdict,) = judge(spec, [{"method": "POST", "path": "/sections",
                               "query": "name=a&prefs%5Bhidden%5D=7", "headers": {},
                               "cookies": {}, "contentType": None, "body": None,
                               "bodyBase64": None, "operation": "POST /sections"}])
    assert verdict["class"] == "openapi-core", verdict
    assert verdict["errors"] == ["InvalidParameter: hidden: 7 is greater than the maximum of 1"]


def test_member_names_of_any_characters(tmp_path: Any) -> None:
    """openapi-core 0.23 read a deepObject member only if its name matched ``\\w+``, so a
    required object whose members were named otherwise (Stripe's post_account_sessions
    ``components[...]``, drawn names) went unread and "missing", in a query or a form
    body; the judge reads any name (tests/oracle/deep_object.py)."""
    spec = write_spec(tmp_path, {
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "paths": {"/s": {"post": {
            "operationId": "s",
            "parameters": [{"name": "filter", "in": "query", "required": True,
                            "style": "deepObject", "explode": True,
                            "schema": {"type": "object"}}],
            "requestBody": {"required": True, "content": {FORM: {
                "schema": {"type": "object", "required": ["components"], "properties": {
                    "components": {"type": "object", "properties": {
                        "onboarding": {"type": "boolean"}}}}},
                "encoding": {"components": {"style": "deepObject", "explode": True}}}}},
            "responses": {"200": {"description": "ok"}}}}}}, "spec.json")
    request = {"method": "POST", "path": "/s", "query": "filter%5Ba-b%5D=1",
               "headers": {}, "cookies": {}, "contentType": FORM,
               "body": "components%5Bx%20y%5D=true", "bodyBase64": None,
               "operation": "POST /s"}
    missing = {**request, "query": "other=1", "body": "other=1"}
    good, bad = judge(spec, [request, missing])
    assert good["ok"], good
    assert not bad["ok"]
