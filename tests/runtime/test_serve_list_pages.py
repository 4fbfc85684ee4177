"""`tools/list` in pages: whole tools, each page under the byte budget, in catalog order,
with the next page's first tool name as the cursor (stateless: any replica reads it)."""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from toolcat.runtime.listing import PAGE_BYTES
from toolcat.runtime.mcp_server import ToolOutcome, make_server


def _tool(number: int) -> dict[str, Any]:
    return {"name": f"demo_tool_{number:03d}", "description": "x" * (100 + 37 * (number % 5)),
            "inputSchema": {"type": "object", "additionalProperties": False}}


TOOLS = [_tool(n) for n in range(40)]


async def _nothing(name: str, arguments: dict[str, Any]) -> ToolOutcome:
    return ToolOutcome(text="ok")


def _pages(page_bytes: int, mode: str, cursors: list[str | None]) -> list[Any]:
    server = make_server("demo", TOOLS, _nothing, page_bytes=page_bytes)

    async def run() -> list[Any]:
        async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
            return [await client.list_tools(cursor=c) for c in cursors]

    return anyio.run(run)


def _walk(page_bytes: int, mode: str) -> list[Any]:
    pages = _pages(page_bytes, mode, [None])
    while pages[-1].next_cursor is not None:
        pages += _pages(page_bytes, mode, [pages[-1].next_cursor])
    return pages


def _size(tool: Any) -> int:
    wire = tool.model_dump(by_alias=True, mode="json", exclude_none=True)
    return len(json.dumps(wire, separators=(",", ":")).encode())


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_pages_cover_the_catalog_in_order_each_under_the_budget(mode: str) -> None:
    pages = _walk(1500, mode)
    assert len(pages) > 3
    names = [t.name for page in pages for t in page.tools]
    assert names == [t["name"] for t in TOOLS]
    for page in pages:
        assert sum(map(_size, page.tools)) <= 1500
        assert page.tools  # no empty page
    for page, following in pairwise(pages):
        assert page.next_cursor == following.tools[0].name  # the cursor is a tool name


def test_the_default_budget_lists_the_example_sized_catalog_in_one_page() -> None:
    assert PAGE_BYTES == 256 * 1024
    (page,) = _pages(PAGE_BYTES, "legacy", [None])
    assert len(page.tools) == len(TOOLS)
    assert page.next_cursor is None


def test_a_cursor_that_starts_no_page_is_invalid_params() -> None:
    server = make_server("demo", TOOLS, _nothing, page_bytes=1500)

    async def run() -> MCPError:
        async with Client(server, mode="legacy") as client:
            with pytest.raises(MCPError) as raised:
                await client.list_tools(cursor="demo_tool_001")
            return raised.value

    error = anyio.run(run).error
    assert error.code == -32602
    assert "demo_tool_001" in error.message
