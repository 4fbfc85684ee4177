"""One verify run against a live server: the only module here that talks to it.

It lists the server's tools (every page), then - when asked - sends the probes
and the read-only calls, each under the per-call time limit, and hands what it
saw to the pure judges (parity, probes, conformance). The connection speaks
protocol 2025-11-25 (``ClientSession``), the published baseline the contract
guide tests against. Results are read as sent: the SDK's own output validation
(which raises at the first problem) is bypassed so that every problem is
reported.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import anyio

from ..errors import ToolcatError, fail
from . import conformance, parity, probes
from .connect import Server, leaves
from .examples import Examples, arguments_for
from .findings import Finding, Note
from .instances import Unsatisfiable
from .names import NameMap

MAX_PAGES = 1000
_CONNECTION_CLOSED = -32000


@dataclass(frozen=True)
class Options:
    probe: bool = False
    allow_writes: bool = False
    call_readonly: bool = False
    timeout: float = 10.0
    deadline: float | None = None   # seconds for the whole run
    # Server tool names of catalog tools out of scope (--include/--exclude): not "extra".
    ignore: frozenset[str] = frozenset()
    examples: Examples = field(default_factory=dict)   # --examples: tool -> arguments


@dataclass
class Outcome:
    protocol: str = ""
    server_tools: list[dict[str, Any]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    out_of_time: bool = False


def run(server: Server, catalog: list[dict[str, Any]], names: NameMap,
        options: Options) -> Outcome:
    """Everything verify checks, collected; ToolcatError (exit 2) if the server is
    unreachable or goes away."""
    outcome = Outcome()
    _quiet_sdk()
    try:
        anyio.run(_bounded, server, catalog, names, options, outcome)
    except BaseException as exc:
        found = leaves(exc)
        for leaf in found:
            if isinstance(leaf, ToolcatError):
                raise leaf from None
        if any(isinstance(leaf, KeyboardInterrupt) for leaf in found):
            raise KeyboardInterrupt from None
        raise server.failure(found[0], _fix(server)) from None
    if outcome.out_of_time:
        raise fail(server.label, "", f"verify did not finish within --deadline "
                   f"{options.deadline:g} s ({len(outcome.server_tools)} tools listed, "
                   f"{len(outcome.findings)} findings so far)",
                   "raise --deadline, or verify a server that answers faster")
    return outcome


def _quiet_sdk() -> None:
    """The SDK logs a traceback for every line a server writes that is not JSON: the server
    under test decides those, verify reports what matters, and nothing else reaches stderr."""
    sdk = logging.getLogger("mcp")
    sdk.addHandler(logging.NullHandler())
    sdk.propagate = False


async def _bounded(server: Server, catalog: list[dict[str, Any]], names: NameMap,
                   options: Options, outcome: Outcome) -> None:
    with anyio.move_on_after(options.deadline) as limit:
        await _run(server, catalog, names, options, outcome)
    outcome.out_of_time = limit.cancelled_caught


def _fix(server: Server) -> str:
    if server.stderr is not None:
        return "check that the command starts an MCP server speaking stdio; run it by hand"
    return "check that the server is running and the URL is its streamable HTTP endpoint"


async def _run(server: Server, catalog: list[dict[str, Any]], names: NameMap,
               options: Options, outcome: Outcome) -> None:
    from mcp.client.session import ClientSession  # noqa: PLC0415 - 0.5 s of imports

    async with server.connect() as (read, write), ClientSession(read, write) as session:
        with anyio.fail_after(options.timeout):
            init = await session.initialize()
        outcome.protocol = init.protocol_version
        outcome.server_tools = await _list_tools(session, options.timeout)
        visible = [t for t in outcome.server_tools if t.get("name") not in options.ignore]
        outcome.findings += parity.compare_tools(catalog, visible, names)
        listed = {tool["name"] for tool in outcome.server_tools}
        present = [e for e in catalog if names.server_name(e["tool"]["name"]) in listed]
        caller = _Caller(session, server, options.timeout)
        if options.probe:
            await _probe(caller, present, names, options, outcome, listed)
        if options.call_readonly:
            await _call_readonly(caller, present, names, outcome, options.examples)


async def _list_tools(session: Any, timeout: float) -> list[dict[str, Any]]:
    from mcp import types  # noqa: PLC0415

    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        with anyio.fail_after(timeout):
            page = await session.list_tools(
                params=types.PaginatedRequestParams(cursor=cursor) if cursor else None)
        tools += [t.model_dump(by_alias=True, exclude_none=True, mode="json")
                  for t in page.tools]
        cursor = page.next_cursor
        if not cursor:
            return tools
    raise ToolcatError.single("tools/list", "", f"more than {MAX_PAGES} pages of tools",
                              "the server's cursor never ends; fix its pagination")


class _Caller:
    """tools/call under the time limit, answered as protocol error / isError / success."""

    def __init__(self, session: Any, server: Server, timeout: float) -> None:
        self.session, self.server, self.timeout = session, server, timeout

    async def call(self, name: str, arguments: dict[str, Any]) -> tuple[probes.Outcome,
                                                                         dict[str, Any]]:
        from mcp import types  # noqa: PLC0415
        from mcp.shared.exceptions import MCPError  # noqa: PLC0415

        request = types.CallToolRequest(
            params=types.CallToolRequestParams(name=name, arguments=arguments))
        try:
            with anyio.fail_after(self.timeout):
                result = await self.session.send_request(request, types.CallToolResult)
        except TimeoutError:
            return probes.Outcome(timed_out=True), {}
        except MCPError as exc:
            if exc.code == _CONNECTION_CLOSED and exc.message == "Connection closed":
                raise self.server.failure(f"the server closed the connection during a call "
                                          f"of '{name}'", _fix(self.server)) from None
            return probes.Outcome(protocol_error=f"{exc.code}: {exc.message}"), {}
        except ValueError as exc:  # pydantic: not a CallToolResult at all
            return probes.Outcome(protocol_error=f"malformed result: {exc}"[:200]), {}
        wire = result.model_dump(by_alias=True, exclude_none=True, mode="json")
        return probes.Outcome(is_error=bool(result.is_error)), wire


def _read_only(entry: dict[str, Any]) -> bool:
    return (entry["tool"].get("annotations") or {}).get("readOnlyHint") is True


async def _probe(caller: _Caller, present: list[dict[str, Any]], names: NameMap,
                 options: Options, outcome: Outcome, listed: set[str]) -> None:
    if probes.UNKNOWN_TOOL in listed:
        outcome.notes.append(Note(probes.UNKNOWN_TOOL, "unknown-tool probe skipped: the "
                                  "server really lists a tool of this name"))
    else:
        result, _ = await caller.call(probes.UNKNOWN_TOOL, {})
        _add(outcome, probes.judge_unknown_tool(result))
    for entry in present:
        tool = entry["tool"]
        if not _read_only(entry) and not options.allow_writes:
            outcome.notes.append(Note(tool["name"], "not probed: a write tool in the catalog "
                                      "(pass --allow-writes to probe it)"))
            continue
        planned, skipped = probes.plan(tool["name"], tool["inputSchema"])
        outcome.notes += [Note(tool["name"], why) for why in skipped]
        for probe in planned:
            result, _ = await caller.call(names.server_name(tool["name"]), probe.arguments)
            _add(outcome, probes.judge(probe, result))


async def _call_readonly(caller: _Caller, present: list[dict[str, Any]], names: NameMap,
                         outcome: Outcome, examples: Examples) -> None:
    for entry in present:
        tool = entry["tool"]
        if not _read_only(entry):
            continue
        try:
            arguments = arguments_for(tool, examples).values
        except Unsatisfiable as exc:
            outcome.notes.append(Note(tool["name"], f"not called: {exc}"))
            continue
        result, wire = await caller.call(names.server_name(tool["name"]), arguments)
        if result.timed_out or result.protocol_error is not None:
            actual = "no answer" if result.timed_out else result.protocol_error or ""
            outcome.findings.append(Finding(
                "error", tool["name"], "output", "call",
                message="a call with valid arguments must give a result (isError for "
                "API failures), not a protocol error or silence",
                expected="a result", actual=actual))
            continue
        found, notes = conformance.judge_call(tool["name"], tool.get("outputSchema"), wire)
        outcome.findings += found
        outcome.notes += notes


def _add(outcome: Outcome, finding: Finding | None) -> None:
    if finding is not None:
        outcome.findings.append(finding)
