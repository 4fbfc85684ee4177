"""Output conformance of one read-only call, a pure judgement of its result.

When the catalog declares an outputSchema, the server MUST return
``structuredContent`` that conforms, and SHOULD also return the same JSON as a
text block (2025-11-25, server/tools). Both are checked: the schema with a
JSON Schema 2020-12 validator (every violation, not the first), the text by
parsing each text block and comparing values, so formatting and key order do
not matter but content does.
"""

from __future__ import annotations

import json
from typing import Any

from .answers import judge_error
from .findings import Finding, Note
from .instances import invalid


def judge_call(tool: str, output_schema: dict[str, Any] | None,
               result: dict[str, Any]) -> tuple[list[Finding], list[Note]]:
    """``result``: the CallToolResult as wire JSON."""
    if result.get("isError") is True:
        return judge_error(tool, _texts(result))
    if output_schema is None:
        return [], [Note(tool, "no outputSchema in the catalog: only the call was checked")]
    if "structuredContent" not in result:
        return [Finding("error", tool, "output", "structured-content",
                        message="the tool declares an outputSchema but the result has no "
                        "structuredContent", expected="structuredContent", actual="absent")], []
    structured = result["structuredContent"]
    findings = [Finding("error", tool, "output", "output-schema", message=problem)
                for problem in invalid(output_schema, structured)]
    parsed = [_parse(text) for text in _texts(result)]
    if not any(value == structured for value in parsed):
        actual = "no text block" if not parsed else "text differs from structuredContent"
        findings.append(Finding("error", tool, "output", "text-fallback",
                                message="no text block carries the structuredContent JSON",
                                expected="same JSON as text", actual=actual))
    return findings, []


def _texts(result: dict[str, Any]) -> list[str]:
    return [block.get("text", "") for block in result.get("content") or []
            if isinstance(block, dict) and block.get("type") == "text"]


def _parse(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return _Unparsable()


class _Unparsable:
    """Equal to nothing, so plain text never counts as the JSON fallback."""

    def __eq__(self, other: object) -> bool:
        return False

    __hash__ = None  # type: ignore[assignment]
