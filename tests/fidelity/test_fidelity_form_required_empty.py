"""A required form field admits no value that writes nothing.

In ``application/x-www-form-urlencoded`` an empty list is no pair at all (exploded) or
``name=``, one empty item; an empty object is no pair (form or deepObject). Stripe's
``post_account_sessions`` admitted ``components: {}`` and
``post_treasury_financial_accounts`` ``supported_currencies: []``: the body then lacked
a field its schema requires. A multipart body writes a list as one part per item, so
``[]`` is no part either; an object there is one JSON part, ``{}`` included. Required
fields get ``minItems: 1`` / ``minProperties: 1``; optional ones may stay empty (absent
is what they write, and absent is allowed).
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, real_catalog, tool, write_spec
from helpers.runtime_oracle import judge_runtime

FIELDS: dict[str, Any] = {
    "components": {"type": "object", "properties": {"onboarding": {"type": "boolean"}}},
    "currencies": {"type": "array", "items": {"type": "string", "maxLength": 3}},
    "tags": {"type": "array", "items": {"type": "string"}},
}


def _spec(ctype: str) -> dict[str, Any]:
    media: dict[str, Any] = {"schema": {"type": "object", "required": ["components", "currencies"],
                                        "properties": FIELDS}}
    if ctype == "application/x-www-form-urlencoded":
        media["encoding"] = {"components": {"style": "deepObject", "explode": True}}
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/sessions": {"post": {
                "operationId": "createSession",
                "requestBody": {"required": True, "content": {ctype: media}},
                "responses": {"200": {"description": "ok"}}}}}}


def test_required_form_fields_cannot_be_empty(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, _spec("application/x-www-form-urlencoded"), "spec.json")
    props = tool(generate(spec), "create_session")["tool"]["inputSchema"]["properties"]
    assert props["components"]["minProperties"] == 1
    assert props["currencies"]["minItems"] == 1
    assert "minItems" not in props["tags"]   # optional: [] writes nothing, as absent does


def test_required_multipart_list_cannot_be_empty(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, _spec("multipart/form-data"), "spec.json")
    props = tool(generate(spec), "create_session")["tool"]["inputSchema"]["properties"]
    assert props["currencies"]["minItems"] == 1
    assert "minProperties" not in props["components"]   # a JSON part, {} is sent


def test_runtime_requests_are_accepted(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, _spec("application/x-www-form-urlencoded"), "spec.json")
    tally = judge_runtime(spec, generate(spec), count=6, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 2


def test_stripe() -> None:
    catalog = real_catalog("corpus", "stripe", "spec3.yaml")
    sessions = tool(catalog, "post_account_sessions")["tool"]["inputSchema"]["properties"]
    assert sessions["components"]["minProperties"] == 1
    accounts = tool(catalog, "post_treasury_financial_accounts")["tool"]["inputSchema"]
    assert accounts["properties"]["supported_currencies"]["minItems"] == 1
