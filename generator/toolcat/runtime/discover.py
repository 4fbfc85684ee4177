"""Discovery mode: three meta-tools in place of one tool per operation.

`toolcat serve --mode discover` lists `search_tools`, `describe_tools` and `call_tool`
whatever the size of the catalog, so `tools/list` stays a few KB for an API of 1,500
operations. The agent searches by words, reads the exact `tool` objects of the ones it
wants (inputSchema, outputSchema, annotations: the catalog's, unchanged), then calls one by
name. A call goes through `call_entry`, the very function `tools/call` uses: the same
argument validation against the exact inputSchema, the same request, the same output
checking and the same errors. Its result is the direct call's result, with the called
tool's name and annotations added under `_meta` (`toolcat/tool`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from .containment import contain
from .listing import CACHE_HINTS
from .longrun import REPORTER
from .mcp_server import Entry, Handler, argument_errors, call_entry, entries_of
from .profiles import profiled_tool
from .search import SearchIndex

SEARCH, DESCRIBE, CALL = "search_tools", "describe_tools", "call_tool"
PAGE, MAX_PAGE, MAX_DESCRIBE = 10, 50, 20
META_KEY = "toolcat/tool"
# The MCP default of each hint, and how the call tool's hint follows from the catalog's:
# read-only and idempotent only if every tool is; destructive and open-world if any is.
HINTS = (("readOnlyHint", False, all), ("destructiveHint", True, any),
         ("idempotentHint", False, all), ("openWorldHint", True, any))
LOCAL = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
         "openWorldHint": False}   # search and describe read the catalog in memory


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": required,
            "additionalProperties": False}


def meta_tools(name: str, tools: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The three meta-tools' objects for a catalog `name` of `tools`."""
    hints = {hint: rule(bool(t.get("annotations", {}).get(hint, default)) for t in tools)
             for hint, default, rule in HINTS}
    count = f"{len(tools):,} tools of the {name} API"
    return [
        {"name": SEARCH, "title": f"Search {count}",
         "description": f"Search {count} by words (what to do, the resource, the path). "
                        "Returns names, titles and HTTP routes, best match first; page with "
                        "offset. Then describe_tools for a tool's exact arguments.",
         "inputSchema": _schema({
             "query": {"type": "string", "description": "Words to look for."},
             "limit": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE,
                       "default": PAGE, "description": "Results per page."},
             "offset": {"type": "integer", "minimum": 0, "default": 0,
                        "description": "Results to skip (nextOffset of the last page)."}},
             ["query"]),
         "annotations": dict(LOCAL)},
        {"name": DESCRIBE, "title": f"Describe tools of the {name} API",
         "description": "The exact definitions (inputSchema, outputSchema, annotations) of "
                        f"up to {MAX_DESCRIBE} tools, by name.",
         "inputSchema": _schema({"names": {
             "type": "array", "items": {"type": "string"}, "minItems": 1,
             "maxItems": MAX_DESCRIBE, "uniqueItems": True}}, ["names"]),
         "annotations": dict(LOCAL)},
        {"name": CALL, "title": f"Call a tool of the {name} API",
         "description": "Call one tool by name with its arguments, exactly as if it were "
                        "listed: the arguments are checked against its inputSchema before "
                        "anything is sent. Describe it first.",
         "inputSchema": _schema({
             "name": {"type": "string", "description": "The tool's name."},
             "arguments": {"type": "object", "default": {},
                           "description": "The tool's arguments (its inputSchema)."}},
             ["name"]),
         "annotations": hints},
    ]


def _json_result(value: dict[str, Any]) -> types.CallToolResult:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                structured_content=value)


def _unknown(names: list[str], known: SearchIndex) -> types.CallToolResult:
    advice = []
    for name in names:
        near = [h.name for h in known.search(name)[:3]]
        advice.append(f"- {name}: no such tool" + (f" (did you mean: {', '.join(near)}?)"
                                                     if near else ""))
    text = "Unknown tool name(s); search_tools finds names:\n" + "\n".join(advice)
    return types.CallToolResult(content=[types.TextContent(type="text", text=text)],
                                is_error=True)


class Discovery:
    """The meta-tools over one catalog's entries (`{"tool": ..., "binding": ...}`)."""

    def __init__(self, name: str, catalog_entries: Sequence[dict[str, Any]],
                 handler: Handler, profile: str | None = None) -> None:
        self.tools = [e["tool"] for e in catalog_entries]
        self.bindings = {e["tool"]["name"]: e.get("binding") or {} for e in catalog_entries}
        self.entries: dict[str, Entry] = entries_of(self.tools)
        self.index = SearchIndex(catalog_entries)
        self.handler = handler
        self.meta = entries_of(meta_tools(name, self.tools))
        self.profile = profile   # describe_tools shows inputSchemas as this client needs

    def search(self, query: str, limit: int = PAGE, offset: int = 0) -> dict[str, Any]:
        hits = self.index.search(query)
        page = []
        for hit in hits[offset:offset + limit]:
            binding = self.bindings[hit.name]
            tool = self.entries[hit.name].tool
            page.append({"name": hit.name, "title": tool.get("title") or "",
                         "route": f"{binding.get('method', '')} {binding.get('path', '')}"})
        found: dict[str, Any] = {"total": len(hits), "offset": offset, "tools": page}
        if offset + limit < len(hits):
            found["nextOffset"] = offset + limit
        return found

    async def call(self, tool: str, arguments: dict[str, Any]) -> types.CallToolResult:
        entry = self.meta.get(tool)
        if entry is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {tool}")
        problems = argument_errors(entry.inputs, arguments)
        if problems:
            return types.CallToolResult(content=[types.TextContent(
                type="text", text="Invalid arguments:\n" + "\n".join(
                    f"- {p}" for p in problems))], is_error=True)
        if tool == SEARCH:
            return _json_result(self.search(arguments["query"], arguments.get("limit", PAGE),
                                            arguments.get("offset", 0)))
        if tool == DESCRIBE:
            missing = [n for n in arguments["names"] if n not in self.entries]
            if missing:
                return _unknown(missing, self.index)
            return _json_result({"tools": [profiled_tool(self.entries[n].tool, self.profile)
                                           for n in arguments["names"]]})
        return await self._call(arguments["name"], arguments.get("arguments", {}))

    async def _call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        entry = self.entries.get(name)
        if entry is None:
            return _unknown([name], self.index)
        result = await call_entry(entry, arguments, self.handler)
        called = {"name": name, "annotations": entry.tool.get("annotations", {})}
        return result.model_copy(update={"meta": {**(result.meta or {}), META_KEY: called}})

    def server(self, name: str, version: str = "") -> Server[Any]:
        """The same server shell as a direct catalog's (mcp_server.make_server): version,
        cache hints, progress reporting, and one call never ending the server."""
        listed = [e.wire for e in self.meta.values()]

        async def list_tools(ctx: Any, params: types.PaginatedRequestParams | None
                             ) -> types.ListToolsResult:
            return types.ListToolsResult(tools=listed)

        async def call_tool(ctx: Any, params: types.CallToolRequestParams
                            ) -> types.CallToolResult:
            reporting = REPORTER.set(ctx.session.report_progress)
            try:
                return await self.call(params.name, dict(params.arguments or {}))
            finally:
                REPORTER.reset(reporting)

        return Server(name, version=version, cache_hints=CACHE_HINTS,
                      on_list_tools=list_tools, on_call_tool=contain(call_tool))


def make_discovery_server(name: str, catalog_entries: Sequence[dict[str, Any]],
                          handler: Handler, profile: str | None = None,
                          version: str = "") -> Server[Any]:
    """A low-level MCP server that lists the meta-tools and serves the catalog through them."""
    return Discovery(name, catalog_entries, handler, profile).server(name, version)
