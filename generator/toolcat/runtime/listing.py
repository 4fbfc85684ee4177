"""`tools/list` as served: caching hints and pages of bounded size with a stable cursor.

Caching (MCP 2026-07-28, server/utilities/caching): a catalog is fixed for the life of the
process; it changes only when a new release of the server is deployed. So `tools/list` and
`server/discover` are `public` (the same for every caller: tools do not depend on who asks,
the API credentials are the server's) and fresh for an hour (`ttlMs` 3,600,000): long enough
that a client need not list on every turn, short enough that a client picks up a redeployed
catalog within the hour (and a call to a tool that went away is a JSON-RPC error, which makes
a client list again).

Pages: tools are served in catalog order (sorted by name when generated, so the order is
deterministic); a page holds whole tools up to `PAGE_BYTES` of JSON (a tool larger than that
is a page of its own). The cursor is the name of the first tool of the next page, so it means
the same on every replica serving the same catalog and needs no state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import mcp_types as types
from mcp.server.caching import CacheableMethod, CacheHint
from mcp.shared.exceptions import MCPError

CATALOG_TTL_MS = 3_600_000
CACHE_HINTS: dict[CacheableMethod, CacheHint] = {
    "tools/list": CacheHint(ttl_ms=CATALOG_TTL_MS, scope="public"),
    "server/discover": CacheHint(ttl_ms=CATALOG_TTL_MS, scope="public"),
}
PAGE_BYTES = 256 * 1024


def _size(tool: types.Tool) -> int:
    wire = tool.model_dump(by_alias=True, mode="json", exclude_none=True)
    return len(json.dumps(wire, ensure_ascii=False, separators=(",", ":")).encode())


def page_starts(tools: Sequence[types.Tool], page_bytes: int = PAGE_BYTES) -> list[int]:
    """The index of the first tool of each page (always 0 first)."""
    starts = [0]
    used = 0
    for index, tool in enumerate(tools):
        size = _size(tool)
        if used and used + size > page_bytes:
            starts.append(index)
            used = 0
        used += size
    return starts


class Pages:
    """The catalog's tools cut into pages once; `page(cursor)` answers one `tools/list`."""

    def __init__(self, tools: Sequence[types.Tool], page_bytes: int = PAGE_BYTES) -> None:
        self.tools = list(tools)
        self.starts = page_starts(self.tools, page_bytes) if self.tools else [0]
        self.by_cursor = {self.tools[s].name: i for i, s in enumerate(self.starts) if self.tools}

    def page(self, cursor: str | None) -> types.ListToolsResult:
        number = 0
        if cursor is not None:
            if cursor not in self.by_cursor:
                raise MCPError(types.INVALID_PARAMS, f"Invalid cursor: {cursor!r} starts no "
                               "page of this catalog; list again without a cursor")
            number = self.by_cursor[cursor]
        start = self.starts[number]
        last = number + 1 == len(self.starts)
        end = len(self.tools) if last else self.starts[number + 1]
        next_cursor = None if last else self.tools[end].name
        return types.ListToolsResult(tools=self.tools[start:end], next_cursor=next_cursor)
