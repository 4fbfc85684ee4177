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

Speed: a page's answer is made by the SDK's own pipeline the first time it is asked for (per
protocol version and cursor) and then reused, with its JSON text: `ListMemo`. On stdio, a
later request for a remembered page is answered by the transport itself, before the SDK
(`Shortcut`): the same bytes, without the SDK's validation, session and task hops.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import suppress
from contextvars import ContextVar
from typing import Any

import mcp_types as types
from mcp.server.caching import CacheableMethod, CacheHint
from mcp.server.context import CallNext, HandlerResult
from mcp.shared.exceptions import MCPError
from pydantic_core import to_json

from .early import PAGE_BYTES, Front, Paging, cuts, plain_list

CATALOG_TTL_MS = 3_600_000
CACHE_HINTS: dict[CacheableMethod, CacheHint] = {
    "tools/list": CacheHint(ttl_ms=CATALOG_TTL_MS, scope="public"),
    "server/discover": CacheHint(ttl_ms=CATALOG_TTL_MS, scope="public"),
}


def _size(tool: types.Tool) -> int:
    wire = tool.model_dump(by_alias=True, mode="json", exclude_none=True)
    return len(json.dumps(wire, ensure_ascii=False, separators=(",", ":")).encode())


def _cuts(tools: Sequence[types.Tool], page_bytes: int) -> Iterator[int]:
    """The index of the first tool of each page (always 0 first), one page at a time."""
    return cuts(tools, page_bytes, _size)


def page_starts(tools: Sequence[types.Tool], page_bytes: int = PAGE_BYTES) -> list[int]:
    """The index of the first tool of each page (always 0 first)."""
    return list(_cuts(tools, page_bytes))


class Pages:
    """The catalog's tools cut into pages; `page(cursor)` answers one `tools/list`.

    Pages are cut as far as a request needs, once (early.Paging): the first page is served
    without sizing the 1,500 tools after it (the cut is the same as `page_starts`)."""

    def __init__(self, tools: Sequence[types.Tool], page_bytes: int = PAGE_BYTES) -> None:
        self.tools = list(tools)
        self.paging = Paging(self.tools, [tool.name for tool in self.tools], page_bytes, _size)

    def page(self, cursor: str | None) -> types.ListToolsResult:
        bounds = self.paging.bounds(cursor)
        if bounds is None:
            raise MCPError(types.INVALID_PARAMS, f"Invalid cursor: {cursor!r} starts no "
                           "page of this catalog; list again without a cursor")
        start, end, next_cursor = bounds
        return types.ListToolsResult(tools=self.tools[start:end], next_cursor=next_cursor)


class ListMemo:
    """Server middleware that answers a repeated `tools/list` from memory.

    The catalog is fixed for the life of the process, so the wire result of one page (cache
    hints, the per-version sieve and serverInfo stamp included) depends only on the
    protocol version and the cursor. The first request for a (version, cursor) goes through
    the SDK's pipeline as any request does; its result and its JSON text are kept, and a
    later identical request on an initialised connection gets the same result without
    re-validating and re-dumping 256 KB of tools. Anything else (other params, a connection
    that has not initialised, an error) takes the SDK's path every time.
    """

    def __init__(self) -> None:
        self.results: dict[tuple[str, str | None], dict[str, Any]] = {}
        self.texts: dict[int, tuple[dict[str, Any], bytes]] = {}

    async def __call__(self, ctx: Any, call_next: CallNext) -> HandlerResult:
        key = _memo_key(ctx)
        if key is None:
            return await call_next(ctx)
        shortcut = SHORTCUT.get()
        if shortcut is not None and shortcut.memo is self:
            shortcut.session = ctx.session   # an initialised connection's: read live
        found = self.results.get(key)
        if found is None:
            result = await call_next(ctx)
            if not isinstance(result, dict) or not isinstance(result.get("tools"), list):
                return result
            found = self.results[key] = result
            # Text UTF-8 cannot carry is left to stdio.encode's own path.
            with suppress(ValueError):
                self.texts[id(found["tools"])] = (found, to_json(found))
        return dict(found)   # the pipeline owns its copy; the tools are shared, never changed

    def text(self, result: Mapping[str, Any]) -> bytes | None:
        """The JSON text of `result` when it is a remembered page (else None)."""
        known = self.texts.get(id(result.get("tools")))
        return known[1] if known is not None and known[0] == result else None

    def page_text(self, version: str, cursor: str | None) -> bytes | None:
        """The JSON text of the page remembered for (version, cursor), if any."""
        found = self.results.get((version, cursor))
        return None if found is None else self.text(found)


class Shortcut:
    """One stdio connection's answers to a remembered page, written without the SDK.

    `answer` gets each parsed line before the SDK does. A plain `tools/list` (params absent,
    `{}` or `{"cursor": "..."}`, an int or string id) whose page `memo` holds for the
    connection's protocol version gets the line the SDK's path writes for it (ListMemo's
    result, stdio.encode's text), if the connection is initialised: `session` is the
    connection's session, set by `ListMemo` when a plain tools/list of this connection
    (initialised, so of the handshake era: a 2026 request carries `_meta`) went through the
    SDK, and read live. Everything else goes to the SDK. A second `initialize` (the
    handshake again, which the SDK may still be answering while later lines are read)
    ends the shortcut for the connection: the version it reads could be stale.

    `front`: the early.Front that answered this connection's initialize before the SDK
    loaded (the SDK was handed that initialize, the first it saw): until another one, it
    answers the plain lists, with the same bytes, for the version it negotiated.
    """

    def __init__(self, memo: ListMemo, front: Front | None = None) -> None:
        self.memo = memo
        self.session: Any = None
        self.initializes = 0
        self.front = front if front is not None and front.version is not None else None

    def answer(self, value: Any, line: Any) -> bytes | None:
        """The answer to the parsed line `value`, or None when the SDK must make it
        (`line(request_id, text)` writes a response: early.response_line)."""
        if self.front is not None and self.initializes <= 1:
            return self.front.list_answer(value)
        session = self.session
        if session is None or self.initializes > 1 or session.client_params is None:
            return None
        plain = plain_list(value)
        if plain is None:
            return None
        text = self.memo.page_text(str(session.protocol_version), plain[0])
        return None if text is None else line(value["id"], text)

    def forwarded(self, method: str) -> None:
        """A request for `method` went to the SDK."""
        if method == "initialize":
            self.initializes += 1


SHORTCUT: ContextVar[Shortcut | None] = ContextVar("toolcat_list_shortcut", default=None)


def _memo_key(ctx: Any) -> tuple[str, str | None] | None:
    """(protocol version, cursor) of a plain tools/list on an initialised connection."""
    if ctx.method != "tools/list" or ctx.session.client_params is None:
        return None
    params = ctx.params or {}
    if not isinstance(params, Mapping) or set(params) - {"cursor"}:
        return None
    cursor = params.get("cursor")
    if not isinstance(cursor, str | None):
        return None
    return str(ctx.protocol_version), cursor
