"""An implementation of the typed surface, served: tools/list is the catalog, calls are typed.

In process, through the MCP SDK's own client (which also checks structured
output against each outputSchema): a handler receives its input model and
returns its output model; invalid arguments, a failing handler and a wrong
return type are ``isError`` results; an unknown tool is a JSON-RPC error.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
from helpers.models import import_models
from mcp import Client
from mcp.shared.exceptions import MCPError
from toolcat.output.files import Files
from toolcat.runtime.typed import serve

ARGS = {"channelId": 7, "ifMatch": '"v1"', "name": "News", "number": "1", "group": "g",
        "categories": [], "streamingMode": "TransportStream", "ffmpegProfileId": 1,
        "watermarkId": None, "fallbackFillerId": None, "preferredAudioLanguageCode": None,
        "isEnabled": True, "showInEpg": True, "graphicsElementIds": [3, 4]}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory, example_files: Files) -> ModuleType:
    return import_models(example_files, tmp_path_factory.mktemp("typed"))


class Channels:
    """Implements three tools; the typed surface asks for one method per tool."""

    def __init__(self, models: ModuleType) -> None:
        self.models = models
        self.seen: list[Any] = []

    async def broadcast_update_channel(self, arguments: Any) -> Any:
        self.seen.append(arguments)
        return self.models.BroadcastUpdateChannelOutput(
            id=arguments.channelId, name=arguments.name, number=arguments.number,
            streamingMode=arguments.streamingMode, ffmpegProfileId=arguments.ffmpegProfileId,
            createdAt="2026-01-01T00:00:00Z", graphicsElementIds=arguments.graphicsElementIds)

    async def broadcast_delete_channel(self, arguments: Any) -> Any:
        return {"deleted": arguments.channelId}

    async def broadcast_get_channel(self, arguments: Any) -> Any:
        raise LookupError(f"no channel {arguments.channelId}")

    async def broadcast_reset_playout(self, arguments: Any) -> Any:
        return {"not": "a model"}


def _session(models: ModuleType, impl: Channels, work: Any) -> Any:
    async def main() -> Any:
        async with Client(serve(models, impl)) as client:
            return await work(client)
    return anyio.run(main)


def test_tools_list_is_exactly_the_catalog(models: ModuleType, example_files: Files) -> None:
    async def work(client: Any) -> Any:
        return await client.list_tools()

    listed = _session(models, Channels(models), work)
    want = [e["tool"] for e in json.loads(example_files["catalog.json"])["tools"]]
    got = [t.model_dump(by_alias=True, exclude_none=True, mode="json") for t in listed.tools]
    assert got == want


def test_a_call_reaches_the_handler_typed(models: ModuleType) -> None:
    impl = Channels(models)

    async def work(client: Any) -> Any:
        return await client.call_tool("broadcast_update_channel", ARGS)

    result = _session(models, impl, work)
    assert not result.is_error, result.content
    assert isinstance(impl.seen[0], models.BroadcastUpdateChannelInput)
    assert impl.seen[0].graphicsElementIds == [3, 4]
    assert result.structured_content["graphicsElementIds"] == [3, 4]
    # Fields the handler never set are absent, not null.
    assert "logo" not in result.structured_content
    assert json.loads(result.content[0].text) == result.structured_content


@pytest.mark.parametrize(("tool", "arguments", "expect"), [
    ("broadcast_update_channel", {k: v for k, v in ARGS.items() if k != "graphicsElementIds"},
     "graphicsElementIds"),
    ("broadcast_update_channel", {**ARGS, "channelId": "7"}, "channelId"),
    ("broadcast_get_channel", {"channelId": 9}, "no channel 9"),
    ("broadcast_reset_playout", {"playoutId": 1}, "not BroadcastResetPlayoutOutput"),
])
def test_errors_are_results(models: ModuleType, tool: str, arguments: dict[str, Any],
                            expect: str) -> None:
    impl = Channels(models)

    async def work(client: Any) -> Any:
        return await client.call_tool(tool, arguments)

    result = _session(models, impl, work)
    assert result.is_error
    assert expect in result.content[0].text
    assert impl.seen == []


def test_a_tool_without_output_schema_returns_text(models: ModuleType) -> None:
    async def work(client: Any) -> Any:
        return await client.call_tool("broadcast_delete_channel", {"channelId": 5})

    result = _session(models, Channels(models), work)
    assert not result.is_error
    assert json.loads(result.content[0].text) == {"deleted": 5}


def test_unknown_tool_is_a_protocol_error(models: ModuleType) -> None:
    async def work(client: Any) -> Any:
        try:
            await client.call_tool("broadcast_no_such_tool", {})
        except MCPError as exc:
            return exc
        return None

    error = _session(models, Channels(models), work)
    assert isinstance(error, MCPError)
    assert error.error.code == -32602
    assert "Unknown tool" in error.error.message


def test_serve_needs_every_tool(models: ModuleType, tmp_path: Path) -> None:
    from toolcat.runtime.typed import serve_typed

    with pytest.raises(ValueError, match="broadcast_get_channel"):
        serve_typed("x", [{"name": "broadcast_get_channel", "inputSchema": {"type": "object"}}],
                    {}, Channels(models))
