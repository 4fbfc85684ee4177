"""The MCP contract of `toolcat.runtime.mcp_server`, through the SDK's own client.

Tools here are written by the test; the handler records what it was called with so each case
can prove that an invalid call never reached it.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from toolcat.runtime.mcp_server import ToolOutcome, make_server

TOOL = {
    "name": "demo_get_thing",
    "title": "Get a thing",
    "description": "Reads one thing.",
    "inputSchema": {
        "type": "object",
        "properties": {
            "thingId": {"type": "integer", "minimum": 1},
            "mode": {"enum": ["fast", "slow"]},
        },
        "required": ["thingId"],
        "additionalProperties": False,
    },
    "outputSchema": {
        "type": "object",
        "properties": {"id": {"type": "integer"}},
        "required": ["id"],
    },
    "annotations": {"readOnlyHint": True},
}
SECOND = {
    "name": "demo_ping",
    "description": "No arguments.",
    "inputSchema": {"type": "object", "additionalProperties": False},
}


def _serve(behaviour: dict[int, Any]) -> tuple[Any, list[dict[str, Any]]]:
    calls: list[dict[str, Any]] = []

    async def handler(name: str, arguments: dict[str, Any]) -> ToolOutcome:
        calls.append({"name": name, **arguments})
        answer = behaviour.get(arguments.get("thingId", 0), {"id": 7})
        if isinstance(answer, Exception):
            raise answer
        if answer is None:
            return ToolOutcome(text="HTTP 204: done (no content)")
        return ToolOutcome(structured=answer, notes=('ETag: "v1"',))

    return make_server("demo", [TOOL, SECOND], handler), calls


def _run(server: Any, steps: Any) -> Any:
    async def main() -> Any:
        async with Client(server, mode="legacy") as client:
            return await steps(client)

    return anyio.run(main)


def test_tools_list_is_the_catalog_tools_in_order() -> None:
    server, _ = _serve({})
    listed = _run(server, lambda c: c.list_tools())
    assert [t.model_dump(by_alias=True, exclude_none=True) for t in listed.tools] == [TOOL, SECOND]


def test_valid_call_returns_structured_content_and_the_same_json_as_text() -> None:
    server, calls = _serve({})
    result = _run(server, lambda c: c.call_tool("demo_get_thing", {"thingId": 3}))
    assert not result.is_error
    assert result.structured_content == {"id": 7}
    assert [b.text for b in result.content] == ['{"id": 7}', 'ETag: "v1"']
    assert calls == [{"name": "demo_get_thing", "thingId": 3}]


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ({}, "thingId: required argument is missing"),
        ({"thingId": "3"}, "thingId: expected integer, got string"),
        ({"thingId": None}, "thingId: expected integer, got null"),
        ({"thingId": 3, "colour": 1}, "colour: not an argument of this tool"),
        ({"thingId": 3, "mode": "warp"}, 'mode: "warp" is not one of: "fast", "slow"'),
        ({"thingId": 0}, "thingId: 0 is less than the minimum of 1"),
    ],
)
def test_invalid_arguments_are_an_error_result_and_never_reach_the_handler(
    arguments: dict[str, Any], expected: str
) -> None:
    server, calls = _serve({})
    result = _run(server, lambda c: c.call_tool("demo_get_thing", arguments))
    assert result.is_error
    assert expected in result.content[0].text
    assert calls == []


def test_unknown_tool_is_a_json_rpc_error() -> None:
    server, _ = _serve({})

    async def steps(client: Any) -> MCPError:
        with pytest.raises(MCPError) as caught:
            await client.call_tool("demo_nope", {})
        return caught.value

    error = _run(server, steps)
    assert error.code == -32602
    assert "demo_nope" in error.message


def test_handler_exception_is_an_error_result_not_code_0() -> None:
    server, _ = _serve({5: RuntimeError("backend exploded")})
    result = _run(server, lambda c: c.call_tool("demo_get_thing", {"thingId": 5}))
    assert result.is_error
    assert "RuntimeError: backend exploded" in result.content[0].text


def test_output_schema_violation_is_reported_to_the_agent() -> None:
    server, _ = _serve({6: {"id": "seven"}})
    result = _run(server, lambda c: c.call_tool("demo_get_thing", {"thingId": 6}))
    assert result.is_error
    assert "does not match this tool's outputSchema" in result.content[0].text
    assert "- /id: expected integer, got string" in result.content[0].text


def test_success_without_json_for_a_tool_with_output_schema_is_explained() -> None:
    server, _ = _serve({8: None})
    result = _run(server, lambda c: c.call_tool("demo_get_thing", {"thingId": 8}))
    assert result.is_error
    assert "- (root): the answer has no JSON body" in result.content[0].text
    assert result.content[1].text == "Response body: HTTP 204: done (no content)"
