"""The API is not running: every call is an `isError` result naming the host, never a crash
and never a JSON-RPC error (the agent can tell the user; the session goes on)."""

from __future__ import annotations

import json

import anyio
from helpers.paths import EXAMPLE_OUTPUT
from helpers.stub_api import free_port
from mcp import Client
from toolcat.runtime.api import ApiHandler, ApiOptions
from toolcat.runtime.mcp_server import make_server


def test_unreachable_api_is_an_error_result() -> None:
    port = free_port()   # nobody listens there
    catalog = json.loads((EXAMPLE_OUTPUT / "catalog.json").read_text())
    handler = ApiHandler(catalog, ApiOptions(base_url=f"http://127.0.0.1:{port}", timeout=5))
    server = make_server("broadcast", [e["tool"] for e in catalog["tools"]], handler)

    async def run() -> list[object]:
        async with Client(server, mode="legacy") as client:
            return [await client.call_tool("broadcast_get_channel", {"channelId": 1}),
                    await client.call_tool("broadcast_list_schedules", {})]

    for result in anyio.run(run):
        assert result.is_error  # type: ignore[attr-defined]
        text = result.content[0].text  # type: ignore[attr-defined]
        assert text.startswith("Not sent: GET /api/v1/")
        assert f"ConnectError talking to 127.0.0.1:{port}" in text
        assert "It is safe to retry." in text
