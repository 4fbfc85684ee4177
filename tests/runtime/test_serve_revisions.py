"""`toolcat serve --transport http` speaks both MCP revisions a client may pin.

The SDK's `Client` negotiates 2026-07-28 (stateless: `server/discover`, `_meta` stamps,
caching hints); `mode="legacy"` runs the 2025-11-25 initialize handshake. Each lists the
example catalog and calls a tool against a stub of the example API that records what
arrived. The raw wire is read for what no client surfaces: the SSE priming event.
"""

from __future__ import annotations

import json
from importlib.metadata import version
from typing import Any

import anyio
import httpx2
import pytest
from helpers.broadcast_api import SpecServer
from helpers.paths import EXAMPLE_SPEC, REPO
from helpers.serve_session import http_server
from helpers.stub_api import StubApi
from mcp import Client
from toolcat.runtime.listing import CATALOG_TTL_MS

CATALOG = json.loads((REPO / "generated" / "broadcast" / "catalog.json").read_text())
TOOLS = [entry["tool"] for entry in CATALOG["tools"]]


@pytest.fixture(scope="module")
def served() -> Any:
    api = SpecServer(EXAMPLE_SPEC)
    with StubApi(api.answer) as stub:
        base = stub.url
        with http_server("broadcast", "--base-url", base) as url:
            yield url, api


def _session(url: str, mode: str) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        async with Client(url, mode=mode) as client:  # type: ignore[arg-type]
            listed = await client.list_tools()
            called = await client.call_tool("broadcast_get_channel", {"channelId": 4})
            return {"version": client.protocol_version, "info": client.server_info,
                    "listed": listed, "called": called}

    return anyio.run(run)


@pytest.mark.parametrize(("mode", "revision"), [("auto", "2026-07-28"),
                                                ("legacy", "2025-11-25")])
def test_each_revision_lists_the_catalog_in_order_and_calls_the_api(
        served: Any, mode: str, revision: str) -> None:
    url, api = served
    before = len(api.seen)
    got = _session(url, mode)
    assert got["version"] == revision
    listed = [t.model_dump(by_alias=True, exclude_none=True) for t in got["listed"].tools]
    assert listed == TOOLS  # every tool, equal as JSON, in catalog order
    assert got["listed"].next_cursor is None  # the example catalog is one page
    called = got["called"]
    assert not called.is_error, called.content
    assert isinstance(called.structured_content, dict)  # the stub's minimal channel
    arrived = api.seen[before:]
    assert [(r.method, r.target, r.ok) for r in arrived] == [("GET", "/api/v1/channels/4", True)]
    info = got["info"]
    assert info.name == "broadcast"
    assert info.version == f"{version('toolcat')}+{CATALOG['digest'][7:15]}"


def test_the_2026_list_is_cached_public_for_an_hour(served: Any) -> None:
    listed = _session(served[0], "auto")["listed"]
    assert (listed.ttl_ms, listed.cache_scope) == (CATALOG_TTL_MS, "public")
    assert CATALOG_TTL_MS == 3_600_000


def _events(body: str) -> list[dict[str, str]]:
    """SSE events as dicts of their fields (RFC: fields `name: value`, events split by a blank)."""
    events = []
    for block in body.replace("\r\n", "\n").split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            name, _, value = line.partition(":")
            fields[name] = value.removeprefix(" ")
        if fields:
            events.append(fields)
    return events


def test_a_post_stream_opens_with_a_priming_event_and_retry(served: Any) -> None:
    url = served[0]
    accept = {"Accept": "application/json, text/event-stream",
              "Content-Type": "application/json"}
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "wire", "version": "0"}}}
    with httpx2.Client(timeout=10) as http:
        first = http.post(url, json=hello, headers=accept)
        session = {"Mcp-Session-Id": first.headers["mcp-session-id"],
                   "Mcp-Protocol-Version": "2025-11-25", **accept}
        http.post(url, headers=session,
                  json={"jsonrpc": "2.0", "method": "notifications/initialized"})
        listed = http.post(url, headers=session,
                           json={"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    assert listed.headers["content-type"].startswith("text/event-stream")
    events = _events(listed.text)
    priming, answer = events[0], events[-1]
    assert priming.get("id"), events
    assert priming.get("data") == "", events
    assert priming.get("retry") == "1000", events
    assert json.loads(answer["data"])["id"] == 2
    assert int(answer["id"]) > int(priming["id"])  # a client resumes after the priming id
