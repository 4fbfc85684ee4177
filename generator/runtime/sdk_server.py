"""A minimal MCP server over catalog tools, on the SDK's low-level ``Server``.

Stand-in until the serve runtime (``generator/runtime/mcp_server.py``, branch
d-serve) lands: the same ``make_server(name, tools, handler)`` and
``ToolOutcome``, so switching is one import in ``typed.py``.

The SDK's low-level server validates nothing and turns any exception but
``MCPError`` into a JSON-RPC error, so this module owns the contract: unknown
tool -> JSON-RPC error; arguments checked against inputSchema before the
handler runs, and structured output against outputSchema before it leaves,
both failing as ``isError`` results the agent can act on.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

INVALID_PARAMS = -32602


@dataclass(frozen=True)
class ToolOutcome:
    structured: Any = None      # the JSON result (validated against outputSchema)
    text: str | None = None     # shown when there is no structured result, or the error
    is_error: bool = False


Handler = Callable[[str, dict[str, Any]], Awaitable[ToolOutcome]]


def make_server(name: str, tools: list[dict[str, Any]], handler: Handler) -> Server[Any]:
    """A server whose ``tools/list`` is exactly ``tools``, calls going to ``handler``."""
    listed = [types.Tool.model_validate(t) for t in tools]
    inputs = {t["name"]: Draft202012Validator(t["inputSchema"]) for t in tools}
    outputs = {t["name"]: Draft202012Validator(t["outputSchema"])
               for t in tools if "outputSchema" in t}

    async def list_tools(_ctx: Any, _params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if params.name not in inputs:
            raise MCPError(INVALID_PARAMS, f"unknown tool: {params.name}")
        arguments = dict(params.arguments or {})
        problems = _problems(inputs[params.name], arguments)
        if problems:
            return _error("invalid arguments:\n" + "\n".join(problems))
        outcome = await handler(params.name, arguments)
        if outcome.is_error:
            return _error(outcome.text or f"{params.name} failed")
        output = outputs.get(params.name)
        if output is None:
            return types.CallToolResult(content=[_text(outcome.text or _json(outcome.structured))])
        problems = _problems(output, outcome.structured)
        if problems:
            return _error("the result does not match the outputSchema:\n" + "\n".join(problems))
        return types.CallToolResult(content=[_text(_json(outcome.structured))],
                                    structured_content=outcome.structured)

    return Server(name, on_list_tools=list_tools, on_call_tool=call_tool)


async def run_stdio(server: Server[Any]) -> None:
    from mcp.server.stdio import stdio_server  # noqa: PLC0415

    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def _problems(validator: Draft202012Validator, value: Any) -> list[str]:
    return sorted(f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
                  for e in validator.iter_errors(value))


def _error(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[_text(message)], is_error=True)


def _text(value: str) -> types.TextContent:
    return types.TextContent(type="text", text=value)


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
