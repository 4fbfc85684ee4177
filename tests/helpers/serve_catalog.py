"""A one-catalog world for runtime tests: tools built in memory, served by `make_server` with
the real `ApiHandler`, called through the SDK's own client (which checks structuredContent
against the outputSchema on every non-error result)."""

from __future__ import annotations

from typing import Any

import anyio
from mcp import Client
from toolcat.runtime.api import ApiHandler, ApiOptions
from toolcat.runtime.mcp_server import make_server

NO_ARGS = {"type": "object", "additionalProperties": False}


def entry(name: str, method: str = "GET", path: str = "/x", *,
          security: list[list[dict[str, Any]]] | None = None,
          output: dict[str, Any] | None = None, inputs: dict[str, Any] | None = None,
          arguments: dict[str, Any] | None = None, server: str = "http://127.0.0.1:9"
          ) -> dict[str, Any]:
    tool: dict[str, Any] = {"name": name, "description": "d", "inputSchema": inputs or NO_ARGS}
    if output is not None:
        tool["outputSchema"] = output
    binding = {"method": method, "path": path, "arguments": arguments or {},
               "requestContentType": None, "responseContentType": "application/json",
               "outputWrapper": None, "servers": [{"url": server}],
               "security": security or []}
    return {"tool": tool, "binding": binding}


def catalog(*entries: dict[str, Any]) -> dict[str, Any]:
    return {"name": "demo", "tools": list(entries)}


def call(cat: dict[str, Any], tool: str, arguments: dict[str, Any] | None = None, *,
         environ: dict[str, str] | None = None, **options: Any) -> Any:
    """One tools/call through the SDK client (MCP 2025-11-25); the CallToolResult."""
    handler = ApiHandler(cat, ApiOptions(**options), environ=environ or {})
    server = make_server("demo", [e["tool"] for e in cat["tools"]], handler)

    async def run() -> Any:
        async with Client(server, mode="legacy") as client:
            return await client.call_tool(tool, arguments or {})

    return anyio.run(run)


def strings(value: Any) -> list[str]:
    """Every string in a dumped result (keys included): what leaves the server."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings(v)]]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []
