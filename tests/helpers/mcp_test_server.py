"""An MCP server written with the SDK for verify's tests: faithful to a catalog, or drifted.

    python tests/helpers/mcp_test_server.py CATALOG.json [--drift NAME ...] [--http PORT]

Faithful, it lists the catalog's tools exactly, rejects arguments that fail the
inputSchema with ``isError: true`` (the SDK's low-level server does not validate),
answers an unknown tool with a JSON-RPC error, and returns for each call
structuredContent valid against the outputSchema plus the same JSON as text.
Each ``--drift`` reproduces one part of the ErsatzTV incident (``DRIFTS``).
Serves stdio by default; ``--http PORT`` serves streamable HTTP on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import jsonschema
from mcp import types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

# The results are built by the same instance generator verify uses to build
# arguments; what verify checks them with (a JSON Schema validator and a JSON
# comparison of the text block) shares nothing with it.
from toolcat.verify.instances import instance

Tools = dict[str, dict[str, Any]]


def _drop(tool: str, arg: str) -> Callable[[Tools], None]:
    def apply(tools: Tools) -> None:
        schema = tools[tool]["inputSchema"]
        del schema["properties"][arg]
        schema["required"] = [r for r in schema.get("required", []) if r != arg]
    return apply


def _retype(tool: str, arg: str, new: Any) -> Callable[[Tools], None]:
    def apply(tools: Tools) -> None:
        tools[tool]["inputSchema"]["properties"][arg]["type"] = new
    return apply


def _remove(tool: str) -> Callable[[Tools], None]:
    def apply(tools: Tools) -> None:
        del tools[tool]
    return apply


def _extra(tool: str, copy_of: str) -> Callable[[Tools], None]:
    def apply(tools: Tools) -> None:
        tools[tool] = {**copy.deepcopy(tools[copy_of]), "name": tool}
    return apply


def _no_validation(tools: Tools) -> None:
    """Behaviour, not schema: see ``UNVALIDATED``."""


# The incident, one drift each (names used by the tests' mutation table).
DRIFTS: dict[str, Callable[[Tools], None]] = {
    "update-lacks-body-field": _drop("broadcast_update_channel", "graphicsElementIds"),
    "list-lacks-query-parameter": _drop("broadcast_list_playouts", "query"),
    "string-for-integer": _retype("broadcast_update_schedule", "padToNearestMinute",
                                  ["string", "null"]),
    "missing-tool": _remove("broadcast_delete_schedule"),
    "extra-tool": _extra("broadcast_legacy_refresh_guide", "broadcast_reset_playout"),
    "invalid-input-succeeds": _no_validation,
    # ``pageSize: int | None = None``: the Python idiom, a warning of its own kind.
    "null-for-optional": _retype("broadcast_list_channels", "pageSize", ["integer", "null"]),
    "error-on-success": _no_validation,   # behaviour: see ANSWERS
    "api-refuses": _no_validation,        # behaviour: see ANSWERS
}
INCIDENT = ("update-lacks-body-field", "list-lacks-query-parameter", "string-for-integer",
            "missing-tool", "extra-tool", "invalid-input-succeeds")   # the ErsatzTV incident
UNVALIDATED = "broadcast_get_schedule"   # with invalid-input-succeeds: any arguments succeed
# Behaviour drifts: this read-only tool answers isError with what an API said.
ANSWERED = "broadcast_get_channel"
ANSWERS = {
    "error-on-success": "upstream answered HTTP 200 OK, but the result failed its schema",
    "api-refuses": "The API answered GET /channels/1 with HTTP 403 Forbidden",
}


def build(catalog: Path, drifts: list[str]) -> Server[Any]:
    data = json.loads(catalog.read_text())
    tools: Tools = {e["tool"]["name"]: copy.deepcopy(e["tool"]) for e in data["tools"]}
    for drift in drifts:
        DRIFTS[drift](tools)
    unvalidated = UNVALIDATED if "invalid-input-succeeds" in drifts else None
    listed = [types.Tool.model_validate(tool) for tool in tools.values()]

    async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        tool = tools.get(params.name)
        if tool is None:
            raise MCPError(-32602, f"Unknown tool: {params.name}")
        arguments = params.arguments or {}
        errors = sorted(e.message for e in
                        jsonschema.Draft202012Validator(tool["inputSchema"]).iter_errors(arguments))
        if errors and params.name != unvalidated:
            return types.CallToolResult(content=[types.TextContent(type="text", text=errors[0])],
                                        is_error=True)
        answer = next((ANSWERS[d] for d in drifts if d in ANSWERS), None)
        if answer is not None and params.name == ANSWERED:
            return types.CallToolResult(content=[types.TextContent(type="text", text=answer)],
                                        is_error=True)
        if "outputSchema" not in tool:
            return types.CallToolResult(content=[types.TextContent(type="text", text="done")])
        body = instance(tool["outputSchema"])
        return types.CallToolResult(content=[types.TextContent(type="text", text=json.dumps(body))],
                                    structured_content=body)

    return Server("toolcat-verify-test", on_list_tools=list_tools, on_call_tool=call_tool)


async def _stdio(server: Server[Any]) -> None:
    import mcp.server.stdio

    async with mcp.server.stdio.stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("catalog", type=Path)
    parser.add_argument("--drift", action="append", default=[], choices=sorted(DRIFTS))
    parser.add_argument("--http", type=int, metavar="PORT")
    args = parser.parse_args()
    server = build(args.catalog, args.drift)
    if args.http is None:
        anyio.run(_stdio, server)
        return
    import uvicorn

    uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=args.http,
                log_level="warning")


if __name__ == "__main__":
    main()
