"""The contract guide's invalid-input table, over streamable HTTP: each bad call is a result
with `isError: true` naming the argument and why, and the API saw NO request. An unknown tool
is a JSON-RPC error (-32602), not a result.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from helpers.broadcast_api import SpecServer
from helpers.paths import EXAMPLE_SPEC
from helpers.serve_session import http_session
from helpers.stub_api import StubApi
from mcp.shared.exceptions import MCPError

CREATE = {"name": "News", "number": "4.1", "ffmpegProfileId": 1,
          "streamingMode": "TransportStream"}
# (tool, arguments, text the error must contain)
TABLE: list[tuple[str, dict[str, Any], str]] = [
    ("broadcast_get_channel", {}, "channelId: required argument is missing"),
    ("broadcast_get_channel", {"channelId": "7"}, "channelId: expected integer, got string"),
    ("broadcast_get_channel", {"channelId": None}, "channelId: expected integer, got null"),
    ("broadcast_get_channel", {"channelId": "1/../../admin"},
     "channelId: expected integer, got string"),
    ("broadcast_get_channel", {"channelId": 0}, "channelId: 0 is less than the minimum of 1"),
    ("broadcast_get_channel", {"channelId": 1, "id": 2},
     "id: not an argument of this tool"),
    ("broadcast_list_channels", {"pageSize": 501},
     "pageSize: 501 is greater than the maximum of 500"),
    ("broadcast_list_channels", {"showFiller": True}, "showFiller: not an argument"),
    ("broadcast_create_channel", {**CREATE, "streamingMode": "Carrier"},
     'streamingMode: "Carrier" is not one of: "TransportStream"'),
    ("broadcast_create_channel", {**CREATE, "name": None}, "name: expected string, got null"),
    ("broadcast_create_channel", {**CREATE, "number": "four"}, "number: 'four' does not match"),
    ("broadcast_create_channel", {**CREATE, "X-Request-Id": "r" * 65},
     "X-Request-Id: '" + "r" * 65 + "' is too long"),
    ("broadcast_get_playout_items", {"playoutId": 1, "start": "yesterday"},
     "start: 'yesterday' is not a 'date-time'"),
]


def test_invalid_arguments_never_reach_the_api() -> None:
    api = SpecServer(EXAMPLE_SPEC)

    async def run() -> tuple[list[Any], MCPError]:
        async with http_session("broadcast", "--base-url", base) as session:
            results = [await session.call_tool(name, args) for name, args, _ in TABLE]
            with pytest.raises(MCPError) as unknown:
                await session.call_tool("broadcast_launch_rocket", {})
            return results, unknown.value

    with StubApi(api.answer) as stub:
        base = stub.url
        results, unknown = anyio.run(run)
    assert api.seen == []
    for (name, args, expected), result in zip(TABLE, results, strict=True):
        assert result.is_error, (name, args)
        text = result.content[0].text
        assert text.startswith("Invalid arguments; nothing was sent to the API"), text
        assert expected in text, (name, args, text)
    assert unknown.code == -32602
    assert "broadcast_launch_rocket" in unknown.message
