"""End to end over stdio: every example tool, called with arguments drawn from its inputSchema,
becomes a request that the independent spec server accepts (100 %), and tools/list is the
catalog's tools in catalog order.

Real parts only: the SDK's ClientSession launches `toolcat serve` as a subprocess, which calls
an HTTP server on 127.0.0.1 that judges each request against specs/broadcast/v1.json by itself.
"""

from __future__ import annotations

import json
from typing import Any

import anyio
from helpers.broadcast_api import SpecServer
from helpers.draw import draw_arguments
from helpers.paths import EXAMPLE_OUTPUT, EXAMPLE_SPEC
from helpers.serve_session import stdio_session
from helpers.stub_api import StubApi

PER_TOOL = 3   # per variant (as drawn, and with every optional property): 6 calls a tool


def test_every_tool_call_is_accepted_by_the_spec_server() -> None:
    catalog = json.loads((EXAMPLE_OUTPUT / "catalog.json").read_text())
    api = SpecServer(EXAMPLE_SPEC)
    calls: list[tuple[str, dict[str, Any]]] = [
        (entry["tool"]["name"], arguments)
        for entry in catalog["tools"]
        for arguments in draw_arguments(entry["tool"]["inputSchema"], PER_TOOL)
    ]

    bindings = {e["tool"]["name"]: e["binding"]["arguments"] for e in catalog["tools"]}
    sent: list[int] = []   # requests the API received for each call

    async def run() -> tuple[list[Any], list[Any]]:
        async with stdio_session("broadcast", "--base-url", base) as session:
            listed = await session.list_tools()
            results = []
            for name, args in calls:
                before = len(api.seen)
                results.append(await session.call_tool(name, args))
                sent.append(len(api.seen) - before)
            return listed.tools, results

    with StubApi(api.answer) as stub:
        base = stub.url
        tools, results = anyio.run(run)
    assert [t.model_dump(by_alias=True, exclude_none=True) for t in tools] == [
        e["tool"] for e in catalog["tools"]]
    rejected = [(r.method, r.target, r.errors) for r in api.seen if not r.ok]
    assert rejected == []
    # One request per call, except a header value with CR, LF or NUL (no schema forbids
    # them; HTTP cannot carry them): refused by name, nothing sent.
    for (name, args), result, count in zip(calls, results, sent, strict=True):
        bad = sorted(a for a, v in args.items() if bindings[name][a]["in"] == "header"
                     and any(c in str(v) for c in "\r\n\0"))
        if bad:
            assert count == 0, (name, args)
            assert result.is_error
            assert f"argument '{bad[0]}'" in result.content[0].text
        else:
            assert count == 1, (name, args, result.content[0].text)
    assert {r.operation for r in api.seen} >= {
        f"{e['binding']['method']} {e['binding']['path']}" for e in catalog["tools"]}
    # Drawn ETags are not the server's: those calls end in 412, every other call succeeds.
    for (name, args), result in zip(calls, results, strict=True):
        if "ifMatch" in args:
            continue
        assert not result.is_error, (name, args, result.content[0].text)
