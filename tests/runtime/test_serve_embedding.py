"""Embedding: a Python team calls the committed catalog from its own code, with the same
validation as the server, against a real HTTP server."""

from __future__ import annotations

import anyio
from helpers.broadcast_api import SpecServer
from helpers.paths import EXAMPLE_OUTPUT, EXAMPLE_SPEC
from helpers.stub_api import StubApi
from mcp import Client
from toolcat.runtime.embed import Caller, build_server, open_catalog


def test_caller_and_server_from_your_own_code() -> None:
    api = SpecServer(EXAMPLE_SPEC)
    catalog = open_catalog(EXAMPLE_OUTPUT)

    async def run() -> tuple[object, object, object]:
        async with Caller(catalog, base_url=base) as caller:
            good = await caller.call("broadcast_list_channels", {"pageSize": 5})
            bad = await caller.call("broadcast_list_channels", {"pageSize": "5"})
        async with Client(build_server(catalog, base_url=base), mode="legacy") as client:
            listed = await client.list_tools()
        return good, bad, listed

    with StubApi(api.answer) as stub:
        base = stub.url
        good, bad, listed = anyio.run(run)
    assert good.structured == {"result": []}  # type: ignore[attr-defined]
    assert bad.is_error  # type: ignore[attr-defined]
    assert "pageSize: expected integer, got string" in bad.text  # type: ignore[attr-defined]
    assert [r.target for r in api.seen] == ["/api/v1/channels?pageSize=5"]
    assert len(listed.tools) == len(catalog["tools"])  # type: ignore[attr-defined]
