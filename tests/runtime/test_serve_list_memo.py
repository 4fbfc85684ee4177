"""`tools/list` answered from memory (listing.ListMemo) and cut lazily (listing.Pages), and
validators compiled on a tool's first call: faster, with the same bytes and the same refusals.

A remembered page must be the very result the SDK's pipeline makes (cache hints, sieve,
serverInfo stamp) and its line on stdio the very bytes pydantic writes; pages cut on demand
must be the pages cut up front; an invalid first call must still be refused before sending.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from toolcat.runtime.listing import ListMemo, Pages, page_starts
from toolcat.runtime.mcp_server import ToolOutcome, call_entry, entries_of, make_server
from toolcat.runtime.stdio import encode


def _tool(number: int) -> dict[str, Any]:
    return {"name": f"demo_tool_{number:03d}", "description": "é" * (100 + 37 * (number % 5)),
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}},
                            "required": ["n"], "additionalProperties": False},
            "annotations": {"readOnlyHint": True}}


TOOLS = [_tool(n) for n in range(40)]


async def _nothing(name: str, arguments: dict[str, Any]) -> ToolOutcome:
    return ToolOutcome(text="ok")


def _listed(memo: bool, rounds: int = 2) -> tuple[list[dict[str, Any]], Any]:
    """Every page's wire result as the pipeline made it, `rounds` times over, and the
    server's ListMemo (None when removed)."""
    server = make_server("demo", TOOLS, _nothing, version="1+abc", page_bytes=1500)
    found = next(m for m in server.middleware if isinstance(m, ListMemo))
    if not memo:
        server.middleware.remove(found)
    seen: list[dict[str, Any]] = []

    async def record(ctx: Any, call_next: Any) -> Any:
        result = await call_next(ctx)
        if ctx.method == "tools/list":
            seen.append(result)
        return result

    server.middleware.insert(0, record)

    async def run() -> None:
        async with Client(server, mode="legacy") as client:  # type: ignore[arg-type]
            for _ in range(rounds):
                cursor = None
                for _ in TOOLS:   # at most a page per tool: a cursor loop fails, not hangs
                    cursor = (await client.list_tools(cursor=cursor)).next_cursor
                    if cursor is None:
                        break

    anyio.run(run)
    return seen, found if memo else None


def test_a_remembered_page_is_the_result_the_sdk_makes() -> None:
    remembered, memo = _listed(memo=True)
    reference, _ = _listed(memo=False)
    assert len(reference) > 6   # several pages, each listed twice
    assert remembered == reference
    assert len(memo.results) == len(reference) // 2   # one per (version, cursor)


def test_a_remembered_page_is_written_as_pydantic_writes_it() -> None:
    _, memo = _listed(memo=True, rounds=1)
    for number, result in enumerate(memo.results.values()):
        for request_id in (number, f"r-{number}"):
            message = types.JSONRPCResponse(jsonrpc="2.0", id=request_id, result=dict(result))
            assert memo.text(message.result) is not None   # the fast path is taken
            assert encode(message, memo) == encode(message)


def test_a_changed_result_is_not_written_from_memory() -> None:
    _, memo = _listed(memo=True, rounds=1)
    result = dict(next(iter(memo.results.values())))
    result["nextCursor"] = "elsewhere"
    assert memo.text(result) is None


@pytest.mark.parametrize("budget", [1, 700, 1500, 10_000, 10**9])
def test_pages_cut_on_demand_are_the_pages_cut_up_front(budget: int) -> None:
    wires = [types.Tool.model_validate(tool) for tool in TOOLS]
    pages, starts, cursor = Pages(wires, budget), [], None
    while True:
        page = pages.page(cursor)
        starts.append(wires.index(page.tools[0]))
        cursor = page.next_cursor
        if cursor is None:
            break
    assert starts == page_starts(wires, budget)


def test_a_cursor_is_checked_before_the_pages_are_cut_that_far() -> None:
    wires = [types.Tool.model_validate(tool) for tool in TOOLS]
    assert Pages(wires, 1500).page("demo_tool_000").tools[0].name == "demo_tool_000"
    starts = page_starts(wires, 1500)
    inside = wires[starts[3] + 1].name   # a tool in the middle of the fourth page
    with pytest.raises(MCPError, match=inside):
        Pages(wires, 1500).page(inside)
    assert Pages(wires, 1500).page(wires[starts[3]].name).tools[0] == wires[starts[3]]


def test_a_lazily_compiled_validator_refuses_an_invalid_first_call() -> None:
    entry = entries_of(TOOLS)["demo_tool_001"]
    assert "inputs" not in vars(entry)   # nothing compiled at start-up
    sent: list[str] = []

    async def handler(name: str, arguments: dict[str, Any]) -> ToolOutcome:
        sent.append(name)
        return ToolOutcome(text="ok")

    result = anyio.run(call_entry, entry, {"n": "one", "m": 1}, handler)
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert "n: expected integer, got string" in text
    assert "m: not an argument of this tool" in text
    assert sent == []
    assert anyio.run(call_entry, entry, {"n": 1}, handler).is_error is False
    assert sent == ["demo_tool_001"]
