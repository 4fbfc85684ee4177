"""Class 3 of issue 11: a required body whose fields are all optional.

``binding.bodyRequired: true`` says the spec requires a body; a caller given no body
argument sends ``{}`` (the oracle's request builder does exactly that). Museum's
``update_special_event`` is the real case. Oracle figure: every drawn call accepted,
the empty call included.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run

SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "paths": {"/events/{id}": {"patch": {
        "operationId": "updateEvent",
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "integer", "minimum": 1, "maximum": 9}}],
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "additionalProperties": False,
            "properties": {"name": {"type": "string", "enum": ["x", "y"]}}}}}},
        "responses": {"200": {"description": "ok"}}}},
        "/events": {"get": {"operationId": "listEvents",
                            "responses": {"200": {"description": "ok"}}}}},
}


def test_required_body_is_stated_and_sent(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    assert tool(catalog, "update_event")["binding"]["bodyRequired"] is True
    assert tool(catalog, "list_events")["binding"]["bodyRequired"] is False
    tally = run(spec, catalog, count=6, seed_value=1, tools=["update_event"])
    assert tally.requests >= 2   # with and without a name
    assert tally.failures == []
    assert tally.accepted == tally.requests


def test_without_the_flag_the_empty_call_is_rejected(tmp_path: Any) -> None:
    """Anti-vacuity: a binding that drops the flag makes the oracle fail."""
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    tool(catalog, "update_event")  # exists
    for entry in catalog["tools"]:
        entry["binding"]["bodyRequired"] = False
    tally = run(spec, catalog, count=6, seed_value=1, tools=["update_event"])
    assert {name for name, _, _ in tally.failures} == {"update_event"}
    assert "request body" in tally.failures[0][2]["errors"][0]
