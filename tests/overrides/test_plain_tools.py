"""A tool no override reaches leaves the overrides stage as drafted, plus the ETag
sentence where its response declares one, without a copy per tool (issue 25: GitHub's
1,223 tools made 2,446 dataclass copies that changed nothing)."""

from __future__ import annotations

from typing import Any

from toolcat.model.build import draft_tools
from toolcat.normalise.defs import Definitions
from toolcat.overrides.apply import apply_overrides
from toolcat.overrides.semantics import ETAG_SENTENCE


def _response(etag: bool) -> dict[str, Any]:
    found: dict[str, Any] = {"description": "ok"}
    if etag:
        found["headers"] = {"ETag": {"schema": {"type": "string"}}}
    return {"200": found}


def test_a_tool_no_override_reaches_is_kept_and_an_etag_is_told() -> None:
    doc = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {
        "/a": {"get": {"operationId": "a", "summary": "Read a.", "responses": _response(False)}},
        "/b": {"get": {"operationId": "b", "summary": "Read b.", "responses": _response(True)}}}}
    drafts, _ = draft_tools(doc, Definitions(doc, "spec.json", True), "")
    tools, exclusions = apply_overrides(drafts, None, "", {})
    assert exclusions == []
    (_, a), (_, b) = drafts
    assert tools[0] is a
    assert tools[1].description == f"Read b.\n\n{ETAG_SENTENCE}"
    assert (tools[1].name, tools[1].binding, tools[1].annotations) == (
        b.name, b.binding, b.annotations)
