"""Output conformance of a read-only call: structuredContent against the outputSchema, and
the text block carrying the same JSON; an isError result is explained, not judged."""

from __future__ import annotations

import json
from typing import Any

from toolcat.verify.conformance import judge_call

SCHEMA = {"type": "object", "required": ["id", "name"], "additionalProperties": False,
          "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}
GOOD = {"id": 1, "name": "News"}


def _result(structured: Any = GOOD, text: str | None = None, **extra: Any) -> dict[str, Any]:
    body = json.dumps(structured) if text is None else text
    result: dict[str, Any] = {"content": [{"type": "text", "text": body}], **extra}
    if structured is not None:
        result["structuredContent"] = structured
    return result


def _kinds(result: dict[str, Any]) -> list[tuple[str, str]]:
    findings, _ = judge_call("t", SCHEMA, result)
    return [(f.kind, f.message) for f in findings]


def test_conforming_result_passes() -> None:
    assert judge_call("t", SCHEMA, _result(text='{"name": "News", "id": 1}')) == ([], [])


def test_every_schema_violation_is_reported() -> None:
    bad = {"id": "1", "extra": True}
    assert _kinds(_result(bad)) == [
        ("output-schema", "(root): 'name' is a required property"),
        ("output-schema", "(root): Additional properties are not allowed ('extra' was "
                          "unexpected)"),
        ("output-schema", "id: '1' is not of type 'integer'"),
    ]


def test_missing_structured_content() -> None:
    assert _kinds(_result(None, text="{}")) == [
        ("structured-content",
         "the tool declares an outputSchema but the result has no structuredContent")]


def test_text_must_carry_the_same_json() -> None:
    assert [k for k, _ in _kinds(_result(text='{"id": 2, "name": "News"}'))] == ["text-fallback"]
    assert [k for k, _ in _kinds(_result(text="News (1)"))] == ["text-fallback"]
    no_text = {"content": [], "structuredContent": GOOD}
    assert [k for k, _ in _kinds(no_text)] == ["text-fallback"]


def test_is_error_is_a_note_not_a_finding() -> None:
    findings, notes = judge_call("t", SCHEMA, _result(None, text="not found", isError=True))
    assert findings == []
    assert notes[0].message == "read-only call returned isError (output not checked): not found"
