"""Serve or call a catalog from your own Python code.

    from .embed import Caller, build_server, open_catalog

    catalog = open_catalog("generated/broadcast")           # the committed folder
    server = build_server(catalog, base_url="http://127.0.0.1:8409")
    # ... run it: await run_stdio(server) / await run_http(server, "127.0.0.1", 8000)

    async with Caller(catalog, base_url="http://127.0.0.1:8409") as api:
        outcome = await api.call("broadcast_get_channel", {"channelId": 1})
        outcome.structured, outcome.notes   # the channel, its ETag

`Caller` applies the same argument validation as the server: an invalid call comes back as an
error outcome naming each argument, and nothing is sent.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import TracebackType
from typing import Any

from mcp.server.lowlevel import Server

from ..catalog.reader import open_catalog
from ..vocab import ecma
from .api import ApiHandler, ApiOptions
from .early import server_version, toolset_entries
from .mcp_server import ToolOutcome, argument_errors, make_server
from .profiles import profile_hooks
from .request_log import RequestLog
from .strict import STRICT

# The embedding API: open_catalog is the catalog room's checked reader, named here too.
__all__ = ["Caller", "build_server", "open_catalog", "toolset_entries"]


def build_server(catalog: dict[str, Any], *, base_url: str | None = None,
                 credentials: Mapping[str, str] | None = None, timeout: float = 30.0,
                 environ: Mapping[str, str] | None = None, log: RequestLog | None = None,
                 mode: str = "tools", toolset: str | None = None,
                 schema_profile: str | None = None,
                 warn: Callable[[str], None] | None = None) -> Server[Any]:
    """The MCP server `toolcat serve` runs, for a catalog already in memory: one tool per
    operation (`mode="tools"`) or the discovery meta-tools (`"discover"`), over the whole
    catalog or one of its toolsets. `warn` hears what the schema profile could not keep."""
    options = ApiOptions(base_url=base_url, timeout=timeout, credentials=dict(credentials or {}),
                         log=log)
    entries = toolset_entries(catalog, toolset)
    handler = ApiHandler(catalog, options, environ)
    if mode == "discover":
        if schema_profile == STRICT:
            raise ValueError(f"--schema-profile {STRICT} is not available in discovery mode "
                             "(its meta-tools take open objects)")
        # Imported here: the tools mode's start-up does without the search index's stemmer.
        from .discover import make_discovery_server  # noqa: PLC0415

        return make_discovery_server(str(catalog["name"]), entries, handler, schema_profile,
                                     version=server_version(catalog))
    tools = [e["tool"] for e in entries]
    view, decode, warnings = profile_hooks(tools, schema_profile)
    for line in warnings:
        (warn or _ignore)(line)
    return make_server(str(catalog["name"]), tools, handler, view,
                       version=server_version(catalog), decode=decode)


def _ignore(line: str) -> None:
    """The default `warn`: an embedding caller that asked for no warnings gets none."""


class Caller:
    """Call the catalog's tools directly, without MCP: validation, request, outcome."""

    def __init__(self, catalog: dict[str, Any], *, base_url: str | None = None,
                 credentials: Mapping[str, str] | None = None, timeout: float = 30.0,
                 environ: Mapping[str, str] | None = None) -> None:
        options = ApiOptions(base_url=base_url, timeout=timeout,
                             credentials=dict(credentials or {}))
        self.handler = ApiHandler(catalog, options, environ)
        validator = ecma.ECMAValidator
        self.validators = {e["tool"]["name"]: validator(
            e["tool"]["inputSchema"], format_checker=validator.FORMAT_CHECKER)
            for e in catalog["tools"]}

    async def call(self, name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if name not in self.validators:
            raise KeyError(f"unknown tool '{name}'")
        problems = argument_errors(self.validators[name], arguments)
        if problems:
            return ToolOutcome(text="Invalid arguments; nothing was sent to the API:\n"
                               + "\n".join(f"- {p}" for p in problems), is_error=True)
        return await self.handler(name, arguments)

    async def __aenter__(self) -> Caller:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, value: BaseException | None,
                        traceback: TracebackType | None) -> None:
        await self.handler.aclose()
