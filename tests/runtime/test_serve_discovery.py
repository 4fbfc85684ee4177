"""Discovery mode (`toolcat serve --mode discover`, issue 23): three meta-tools list a
catalog of any size in a few KB, every tool is reachable through search and describe, and a
call through `call_tool` is the direct call: the same requests at the wire (a server on
127.0.0.1 records them) and the same result, with the called tool's annotations in `_meta`.

In the suite: every tool of the example and of Kratos is reached and called; every
Cloudflare tool is reached and a fixed slice called; Stripe's and Cloudflare's served
`tools/list` are at most 4 KB. `make discover-walk`
(TOOLCAT_DISCOVER_FULL=1) calls every tool of Cloudflare and of Stripe too.
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

import anyio
import pytest
from helpers.broadcast_api import SpecServer
from helpers.draw import draw_arguments
from helpers.fixtures import real_catalog
from helpers.minimal_args import cheap_arguments
from helpers.paths import EXAMPLE_OUTPUT, EXAMPLE_SPEC
from helpers.stub_api import StubApi, replying
from mcp import Client
from toolcat.render.size import list_size
from toolcat.runtime.api import ApiHandler, ApiOptions
from toolcat.runtime.discover import CALL, DESCRIBE, META_KEY, SEARCH, Discovery, meta_tools
from toolcat.runtime.embed import build_server, open_catalog

FULL = bool(os.environ.get("TOOLCAT_DISCOVER_FULL"))
CLOUDFLARE = ("corpus", "cloudflare", "openapi.json")
STRIPE = ("corpus", "stripe", "spec3.yaml")
KRATOS = ("corpus", "kratos", "api.json")
SLICE = 100   # in-suite: every 100th Cloudflare tool (16 tools)


def _wire(result: Any) -> dict[str, Any]:
    data: dict[str, Any] = result.model_dump(by_alias=True, exclude_none=True, mode="json")
    return data


async def _direct(client: Client, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    return [_wire(await client.call_tool(name, args)) for name, args in calls]


async def _through(client: Client, calls: list[tuple[str, dict[str, Any]]]) -> list[Any]:
    return [_wire(await client.call_tool(CALL, {"name": name, "arguments": args}))
            for name, args in calls]


def _walk(catalog: dict[str, Any], calls: list[tuple[str, dict[str, Any]]], base: str,
          seen: list[Any], reset: Any = None) -> tuple[list[Any], list[Any], list[Any],
                                                        list[Any]]:
    """The same calls direct and through discovery: (results, requests) of each."""
    servers = {mode: build_server(catalog, base_url=base, mode=mode)
               for mode in ("tools", "discover")}
    async def run(mode: str) -> tuple[list[Any], list[Any]]:
        start = len(seen)
        async with Client(servers[mode], mode="legacy") as client:
            results = await (_direct if mode == "tools" else _through)(client, calls)
        return results, seen[start:]

    direct, sent = anyio.run(run, "tools")
    if reset is not None:
        reset()
    through, sent_through = anyio.run(run, "discover")
    return direct, sent, through, sent_through


def _assert_same(catalog: dict[str, Any], calls: list[tuple[str, dict[str, Any]]],
                 walked: tuple[list[Any], list[Any], list[Any], list[Any]]) -> None:
    direct, sent, through, sent_through = walked
    assert sent_through == sent
    annotations = {e["tool"]["name"]: e["tool"]["annotations"] for e in catalog["tools"]}
    for (name, args), one, other in zip(calls, direct, through, strict=True):
        called = other.pop("_meta", {}).get(META_KEY)
        assert called == {"name": name, "annotations": annotations[name]}, (name, called)
        assert other == one, (name, args)


def test_tools_list_is_three_honest_meta_tools() -> None:
    catalog = open_catalog(EXAMPLE_OUTPUT)

    async def run() -> Any:
        async with Client(build_server(catalog, mode="discover"), mode="legacy") as client:
            return await client.list_tools()

    listed = [t.model_dump(by_alias=True, exclude_none=True) for t in anyio.run(run).tools]
    assert [t["name"] for t in listed] == [SEARCH, DESCRIBE, CALL]
    hints = {t["name"]: t["annotations"] for t in listed}
    for local in (SEARCH, DESCRIBE):
        assert hints[local] == {"readOnlyHint": True, "destructiveHint": False,
                                "idempotentHint": True, "openWorldHint": False}
    # The example has destructive, non-idempotent writes: the call tool says so.
    assert hints[CALL]["readOnlyHint"] is False
    assert hints[CALL]["destructiveHint"] is True
    assert hints[CALL]["idempotentHint"] is False
    assert list_size(listed).total < 4096


def test_call_tool_hints_follow_the_tools_it_can_call() -> None:
    def tool(**hints: bool) -> dict[str, Any]:
        return {"name": "t", "inputSchema": {"type": "object"}, "annotations": hints}

    readers = [tool(readOnlyHint=True, destructiveHint=False, idempotentHint=True,
                    openWorldHint=False)] * 2
    call = meta_tools("x", readers)[2]["annotations"]
    assert call == {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
                    "openWorldHint": False}
    # An absent hint counts as MCP's default (destructive, open world).
    mixed = meta_tools("x", [*readers, tool(readOnlyHint=True)])[2]["annotations"]
    assert mixed == {"readOnlyHint": True, "destructiveHint": True, "idempotentHint": False,
                     "openWorldHint": True}


def test_example_calls_are_the_direct_calls_at_the_wire() -> None:
    """Every example tool with drawn arguments, and invalid ones: the spec server judges
    the requests and answers with documented bodies, so results pass output checking."""
    catalog = open_catalog(EXAMPLE_OUTPUT)
    api = SpecServer(EXAMPLE_SPEC)
    calls = [(e["tool"]["name"], args) for e in catalog["tools"]
             for args in draw_arguments(e["tool"]["inputSchema"], 1)]
    calls += [(e["tool"]["name"], {"nope": 1}) for e in catalog["tools"][:3]]

    def seen() -> list[Any]:
        return [(r.method, r.target, r.headers, r.body) for r in api.seen]

    class Seen(list[Any]):
        def __getitem__(self, item: Any) -> Any:
            return seen()[item]

        def __len__(self) -> int:
            return len(api.seen)

    with StubApi(api.answer) as stub:
        base = stub.url
        walked = _walk(catalog, calls, base, Seen(), reset=api.etags.clear)
    _assert_same(catalog, calls, walked)
    direct = walked[0]
    assert sum(not r.get("isError") for r in direct) >= len(catalog["tools"])
    assert [r for r in direct[-3:] if "nothing was sent" not in r["content"][0]["text"]] == []
    assert all(r.ok for r in api.seen)


def _catalog_walk(catalog: dict[str, Any], tools: list[dict[str, Any]]) -> None:
    """Reach every tool of the catalog (paging through a search with no words lists each
    once; describe gives its exact object), find each of `tools` by its name, then call
    them both ways against a stub API that records them."""
    calls = [(t["name"], cheap_arguments(t["inputSchema"])) for t in tools]
    every = [e["tool"] for e in catalog["tools"]]

    async def reach() -> tuple[list[str], list[Any], list[Any]]:
        # Every tool in process (the meta-tools' own code), the called ones over MCP.
        discovery = Discovery(catalog["name"], catalog["tools"], ApiHandler(
            catalog, ApiOptions()))
        listed: list[str] = []
        offset: int | None = 0
        while offset is not None:
            page = await discovery.call(SEARCH, {"query": "", "limit": 50, "offset": offset})
            listed += [t["name"] for t in page.structured_content["tools"]]
            offset = page.structured_content.get("nextOffset")
        described = []
        for start in range(0, len(every), 20):
            names = [t["name"] for t in every[start:start + 20]]
            result = await discovery.call(DESCRIBE, {"names": names})
            described += result.structured_content["tools"]
        async with Client(build_server(catalog, mode="discover"), mode="legacy") as client:
            found = [await client.call_tool(SEARCH, {"query": t["name"], "limit": 1})
                     for t in tools]
        return listed, described, found

    listed, described, found = anyio.run(reach)
    assert sorted(listed) == sorted(t["name"] for t in every)
    assert len(listed) == len(every)
    assert described == every
    assert [f.structured_content["tools"][0]["name"] for f in found] == [
        t["name"] for t in tools]
    with StubApi(replying(200, {"recorded": True})) as api:
        walked = _walk(catalog, calls, api.url, api.seen)
    _assert_same(catalog, calls, walked)
    refused = [r for r in walked[0] if "nothing was sent" in r["content"][0]["text"]]
    assert len(walked[1]) + len(refused) == len(calls)


def test_kratos_every_tool_reached_and_called_as_directly() -> None:
    catalog = real_catalog(*KRATOS)
    _catalog_walk(catalog, [e["tool"] for e in catalog["tools"]])


@pytest.mark.parametrize("doc", [CLOUDFLARE, *([STRIPE] if FULL else [])],
                         ids=lambda d: d[1])
def test_large_catalog_reached_and_called_as_directly(doc: tuple[str, ...]) -> None:
    catalog = real_catalog(*doc)
    tools = [e["tool"] for e in catalog["tools"]]
    _catalog_walk(catalog, tools if FULL else tools[::SLICE])


@pytest.mark.parametrize("doc", [CLOUDFLARE, STRIPE], ids=lambda d: d[1])
def test_large_catalog_tools_list_is_a_few_kb(doc: tuple[str, ...]) -> None:
    """The issue's target: `tools/list` in discovery mode, as served, at most 4 KB."""
    catalog = real_catalog(*doc)

    async def run() -> Any:
        async with Client(build_server(catalog, mode="discover"), mode="legacy") as client:
            return await client.list_tools()

    listed = [t.model_dump(by_alias=True, exclude_none=True) for t in anyio.run(run).tools]
    assert [t["name"] for t in listed] == [SEARCH, DESCRIBE, CALL]
    assert f"{len(catalog['tools']):,} tools" in listed[0]["title"]
    assert list_size(listed).total <= 4096, list_size(listed).total


def test_search_is_ranked_deterministic_and_paged() -> None:
    catalog = open_catalog(EXAMPLE_OUTPUT)

    async def run() -> list[Any]:
        async with Client(build_server(catalog, mode="discover"), mode="legacy") as client:
            pages = [await client.call_tool(SEARCH, {"query": "channel", "limit": 4,
                                                     "offset": offset})
                     for offset in range(0, 40, 4)]
            whole = await client.call_tool(SEARCH, {"query": "channel", "limit": 50})
            route = await client.call_tool(SEARCH, {"query": "schedules", "limit": 3})
            bad = await client.call_tool(SEARCH, {"query": "x", "limit": 0})
            unknown = await client.call_tool(DESCRIBE, {"names": ["broadcast_get_chanel"]})
            return [pages, whole, route, bad, unknown]

    pages, whole, route, bad, unknown = anyio.run(run)
    every = whole.structured_content["tools"]
    assert "nextOffset" not in whole.structured_content
    assert [t for p in pages for t in p.structured_content["tools"]] == every
    assert pages[0].structured_content["nextOffset"] == 4
    assert len(every) == whole.structured_content["total"] > 4
    assert all("channel" in (t["name"] + t["title"] + t["route"]).lower() for t in every[:4])
    assert json.loads(whole.content[0].text) == whole.structured_content
    assert all("schedule" in t["route"] for t in route.structured_content["tools"])
    assert bad.is_error
    assert "limit" in bad.content[0].text
    assert unknown.is_error
    assert "broadcast_get_channel" in unknown.content[0].text


def test_discovery_has_the_same_server_shell_as_direct_serving() -> None:
    """serverInfo version (catalog digest), and a call whose handler raises is a result,
    never the end of the server: the discovery server is built like make_server's."""
    from toolcat.runtime.discover import make_discovery_server
    from toolcat.runtime.embed import server_version

    catalog = open_catalog(EXAMPLE_OUTPUT)

    async def boom(name: str, arguments: dict[str, Any]) -> Any:
        raise asyncio.CancelledError   # raised by the handler itself, not a cancellation

    server = make_discovery_server("broadcast", catalog["tools"], boom,
                                   version=server_version(catalog))

    async def run() -> tuple[Any, Any, Any]:
        async with Client(server, mode="legacy") as client:
            failed = await client.call_tool("call_tool", {"name": "broadcast_list_channels",
                                                          "arguments": {}})
            listed = await client.list_tools()
            return client.server_info, failed, listed

    info, failed, listed = anyio.run(run)
    assert info.version == server_version(catalog)
    assert failed.is_error
    assert "CancelledError" in failed.content[0].text
    assert len(listed.tools) == 3
