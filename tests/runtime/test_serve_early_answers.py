"""The answers `toolcat serve` writes on stdio while the MCP SDK loads (runtime/early.py).

Each exchange runs over real pipes twice with the same request lines: once with early.py's
Front answering until it hands over to the SDK's transport, once on the SDK's own path (no
ListMemo: every answer made and written by the SDK and pydantic). Every answer must be byte
for byte the same, for every protocol version the SDK negotiates, and the lines answered
early are exactly the expected ones.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import anyio
import pytest
from helpers.paths import EXAMPLE_OUTPUT, REPO
from helpers.stdio_exchange import INITIALIZED, exchange, initialize, lines, list_tools
from toolcat.runtime import early, listing, stdio
from toolcat.runtime.embed import open_catalog
from toolcat.runtime.mcp_server import ToolOutcome, make_server


def _tool(number: int) -> dict[str, Any]:
    tool: dict[str, Any] = {
        "name": f"tool_{number:02d}", "title": f"Tool «{number}» \u2028 😀",
        "description": "d\x01\"\\" + "é" * (700 + 60 * (number % 4)),
        "inputSchema": {"type": "object", "$defs": {"x": {"default": None}},
                        "properties": {"n": {"type": "integer", "maximum": 1e16,
                                             "multipleOf": 0.5, "default": 2**70}, "b": True},
                        "required": ["n"], "additionalProperties": False},
        "annotations": {"readOnlyHint": number % 2 == 0, "destructiveHint": False,
                        "openWorldHint": True, "idempotentHint": True}}
    if number % 3:
        tool["outputSchema"] = {"properties": {"z": {}, "a": {"enum": [None]}}, "type": "object",
                                "$schema": "https://json-schema.org/draft/2020-12/schema"}
    if number % 5 == 0:
        tool["annotations"]["title"] = "Annotated"
    return tool


TOOLS = [_tool(n) for n in range(20)]
PAGE_BYTES = 4000
VERSIONS = [*early.HANDSHAKE_VERSIONS, "1999-01-01"]   # the last: negotiated to the latest


async def _ok(name: str, arguments: dict[str, Any]) -> ToolOutcome:
    return ToolOutcome(structured={"called": name})


def _sdk(tools: list[dict[str, Any]], version: str = "1", page_bytes: int = PAGE_BYTES) -> Any:
    """The reference: the SDK's own path, every answer made and written by pydantic."""
    server = make_server("demo", tools, _ok, version=version, page_bytes=page_bytes)
    server.middleware[:] = [m for m in server.middleware if not isinstance(m, listing.ListMemo)]
    return server


def _plain(server: Any) -> Any:
    return lambda i, o: anyio.run(stdio.serve_stdio, server, i, o)


def _early(front: early.Front, server: Any, ready: int, written: list[bytes]) -> Any:
    """Serve with `front` answering first, until `ready` is readable or a line needs the
    SDK; the lines it wrote go to `written`."""
    def serve(wire_in: Any, wire_out: Any) -> None:
        def spy(fd: int, data: bytes) -> None:
            written.append(data)
            os.write(fd, data)

        original, early._write_all = early._write_all, spy
        try:
            handover = early.answer_early(front, wire_in.fileno(), wire_out.fileno(), ready)
        finally:
            early._write_all = original
        anyio.run(stdio.serve_stdio, server, wire_in, wire_out, handover)
    return serve


def _both(tools: list[dict[str, Any]], batches: list[list[bytes]], ready_after: int | None = None,
          version: str = "1", page_bytes: int = PAGE_BYTES) -> tuple[list[bytes], list[bytes]]:
    """The answers with the Front (the SDK "loaded" once batch `ready_after` is answered;
    then serve's server, with its ListMemo), checked equal to the SDK's, and the lines the
    Front wrote before the hand-over."""
    front = early.Front.of("demo", version, tools, page_bytes)
    assert front is not None
    ready, loaded = os.pipe()
    written: list[bytes] = []

    def between(number: int) -> None:
        if number == ready_after:
            os.write(loaded, b".")

    try:
        served = make_server("demo", tools, _ok, version=version, page_bytes=page_bytes)
        fast = exchange(_early(front, served, ready, written), batches, between)
    finally:
        os.close(ready)
        os.close(loaded)
    reference = exchange(_plain(_sdk(tools, version, page_bytes)), batches)
    assert fast == reference
    return fast, written


def _cursors(tools: list[dict[str, Any]], page_bytes: int = PAGE_BYTES) -> list[str | None]:
    found: list[str | None] = [None]
    while True:
        answers = exchange(_plain(_sdk(tools, page_bytes=page_bytes)), [
            lines(initialize(1), INITIALIZED, list_tools(2, found[-1]))])
        cursor = json.loads(answers[-1])["result"].get("nextCursor")
        if cursor is None:
            return found
        found.append(cursor)


def test_the_handshake_versions_are_the_sdks() -> None:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

    assert early.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS


@pytest.mark.parametrize("version", VERSIONS)
def test_every_early_answer_is_the_sdks_bytes(version: str) -> None:
    cursors = _cursors(TOOLS)
    assert len(cursors) > 3
    ids = [7, "r-1", 2**70, "é \"q\" \\ \u2028", 0]
    batches = [lines(initialize("init", version), INITIALIZED)]
    batches += [lines(*(list_tools(f"{i}-{n}", c) for i in ids)) for n, c in enumerate(cursors)]
    # A call needs the SDK: the Front hands over; a list after it is the SDK's again.
    call = {"jsonrpc": "2.0", "id": 99, "method": "tools/call",
            "params": {"name": "tool_01", "arguments": {"n": 1}}}
    batches += [lines(call), lines(list_tools(100, cursors[1]))]
    answers, written = _both(TOOLS, batches)
    assert written == answers[:1 + len(ids) * len(cursors)]
    assert json.loads(answers[0])["result"]["protocolVersion"] == (
        version if version in early.HANDSHAKE_VERSIONS else early.HANDSHAKE_VERSIONS[-1])
    assert json.loads(answers[-2])["result"]["structuredContent"] == {"called": "tool_01"}


@pytest.fixture
def listed(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The ids of the lists the Front answered after the hand-over (listing.Shortcut)."""
    seen: list[Any] = []
    original = listing.Shortcut.answer

    def spy(self: listing.Shortcut, value: Any, line: Any) -> bytes | None:
        found = original(self, value, line)
        if found is not None and self.front is not None:
            seen.append(value["id"])
        return found

    monkeypatch.setattr(listing.Shortcut, "answer", spy)
    return seen


def test_the_sdk_takes_over_once_it_has_loaded(listed: list[Any]) -> None:
    cursor = _cursors(TOOLS)[1]
    batches = [lines(initialize(1), INITIALIZED), lines(list_tools(2)),
               lines(list_tools(3)), lines(list_tools(4, cursor), list_tools(5, "no_such_tool")),
               lines(initialize(6, "2025-03-26"), list_tools(7)), lines(list_tools(8))]
    answers, written = _both(TOOLS, batches, ready_after=1)
    assert written == answers[:2]   # the handshake and the first list; then the SDK's
    # transport, where the Front still answers the plain lists of pages (not a cursor
    # that starts none) until another initialize.
    assert listed == [3, 4]
    assert json.loads(answers[4])["error"]["code"] < 0


def test_the_example_catalog_at_the_pages_serve_cuts() -> None:
    catalog = open_catalog(EXAMPLE_OUTPUT)
    tools = [entry["tool"] for entry in catalog["tools"]]
    version = early.server_version(catalog)
    front = early.front_for(catalog, "tools", None, None)
    assert front is not None
    assert front.server_version == version
    for page_bytes in (early.PAGE_BYTES, 3000):
        cursors = _cursors(tools, page_bytes)
        assert (len(cursors) > 2) is (page_bytes == 3000)
        batches = [lines(initialize(1), INITIALIZED), lines(*(list_tools(f"p{n}", cursor)
                                                              for n, cursor in enumerate(cursors)))]
        answers, written = _both(tools, batches, version=version, page_bytes=page_bytes)
        assert written == answers


# (capabilities, clientInfo) of initialize requests: what the Front answers itself...
PLAIN = [({}, {"name": "t", "version": "1"}),
         ({"roots": {"listChanged": True}, "sampling": {}, "elicitation": {}},
          {"name": "mcp-inspector", "version": "0.15.0"}),
         ({"roots": {}, "sampling": {"context": {}, "tools": {}},
           "elicitation": {"form": {}, "url": {}}, "experimental": {"x": {"a": [1]}}},
          {"name": "c", "version": "2", "title": "C", "description": "d",
           "websiteUrl": "https://example.com"})]
# ... and what it leaves to the SDK (accepted there or not).
LEFT = [({"roots": {"listChanged": "yes"}}, {"name": "t", "version": "1"}),
        ({"sampling": {"context": 1}}, {"name": "t", "version": "1"}),
        ({"tasks": {}}, {"name": "t", "version": "1"}),
        ({"roots": None}, {"name": "t", "version": "1"}),
        ({}, {"name": "t"}),
        ({}, {"name": 5, "version": "1"}),
        ({}, {"name": "t", "version": "1", "icons": []}),
        (None, {"name": "t", "version": "1"})]


@pytest.mark.parametrize(("capabilities", "info", "plain"),
                         [(*case, True) for case in PLAIN] + [(*case, False) for case in LEFT])
def test_initialize_is_answered_early_only_in_shapes_the_sdk_accepts(
        capabilities: Any, info: Any, plain: bool) -> None:
    request = initialize(1)
    request["params"] |= {"capabilities": capabilities, "clientInfo": info}
    answers, written = _both(TOOLS, [lines(request, INITIALIZED), lines(list_tools(2))])
    assert written == (answers if plain else [])
    assert ("result" in json.loads(answers[0])) or not plain


@pytest.mark.parametrize("odd", [
    {"_meta": {"progressToken": 1}}, {"protocolVersion": 2025}, {"extra": 1}])
def test_other_initialize_params_are_left_to_the_sdk(odd: dict[str, Any]) -> None:
    request = initialize(1)
    request["params"] |= odd
    assert early.plain_initialize(request) is None
    _, written = _both(TOOLS, [lines(request, INITIALIZED), lines(list_tools(2))])
    assert written == []


def test_what_is_not_plain_goes_to_the_sdk() -> None:
    odd = [list_tools(10) | {"params": {"_meta": {"progressToken": 1}}},
           list_tools(11) | {"params": {"cursor": "no_such_tool"}}]
    for message in odd:
        batches = [lines(initialize(1), INITIALIZED), lines(list_tools(2)), lines(message),
                   lines(list_tools(3))]
        answers, written = _both(TOOLS, batches)
        assert written == answers[:2]
    # before initialize, and a line that is not JSON
    for first in (list_tools(1), b"{\"id\": 5, not json"):
        answers, written = _both(TOOLS, [lines(first), lines(initialize(2))])
        assert written == []


@pytest.mark.parametrize("change", [
    {"_meta": {"k": 1}}, {"icons": []}, {"title": None}, {"inputSchema": {"properties": {}}},
    {"outputSchema": {"type": "array"}}, {"annotations": {"readOnlyHint": "yes"}},
    {"inputSchema": {"type": "object", "default": None}},
    {"inputSchema": {"type": "object", "properties": {"a": 1}}},
    {"inputSchema": {"type": "object", "required": "a"}},
    {"annotations": {"other": True}}])
def test_a_catalog_with_a_tool_not_plain_is_served_by_the_sdk_alone(
        change: dict[str, Any]) -> None:
    assert early.Front.of("demo", "1", TOOLS, PAGE_BYTES) is not None
    assert early.Front.of("demo", "1", [*TOOLS[:3], TOOLS[3] | change], PAGE_BYTES) is None


def test_the_sdks_own_answer_to_the_early_initialize_is_not_sent_again(
        capfd: pytest.CaptureFixture[str]) -> None:
    line = json.dumps(initialize(1)).encode() + b"\n"
    wrong = b'{"jsonrpc":"2.0","id":1,"result":{}}\n'
    handover = early.Handover(lines=[line], written={1: wrong})
    answers = exchange(lambda i, o: anyio.run(stdio.serve_stdio, _sdk(TOOLS), i, o, handover),
                       [lines(list_tools(2))])
    assert [json.loads(a)["id"] for a in answers] == [2]
    assert "differs from the SDK's" in capfd.readouterr().err


PROGRAM = f"""
import json, sys
from toolcat.catalog.reader import open_catalog
from toolcat.runtime import early
from helpers.stdio_exchange import initialize, list_tools
front = early.front_for(open_catalog({str(EXAMPLE_OUTPUT)!r}), "tools", None, None)
answered = [front.answer(initialize(1)), front.answer(list_tools(2))]
loaded = sorted(m for m in ("mcp", "mcp_types", "anyio") if m in sys.modules)
print(json.dumps([all(answered), loaded]))
"""


def test_the_early_answers_need_none_of_the_sdk() -> None:
    run = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                         cwd=REPO, timeout=60, check=False,
                         env={**os.environ, "PYTHONPATH": str(REPO / "tests")})
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [True, []]
