"""A remembered tools/list page answered by the stdio transport itself (listing.Shortcut),
and pages written by the event loop into a widened pipe: the very bytes the SDK's path
writes, and only where the SDK's answer is that page.

Each exchange runs twice over real pipes, on a server whose shortcut works and on one
without ListMemo (the SDK's own path, every answer written by pydantic), with the same
request lines; every answer must be byte for byte the same, and the lines the shortcut
answered are exactly the expected ones.
"""

from __future__ import annotations

import json
import os
from typing import Any

import anyio
import pytest
from anyio import wait_all_tasks_blocked
from helpers.stdio_exchange import INITIALIZED, exchange
from helpers.stdio_exchange import initialize as _initialize
from helpers.stdio_exchange import lines as _lines
from helpers.stdio_exchange import list_tools as _list
from toolcat.runtime import listing, stdio
from toolcat.runtime.mcp_server import ToolOutcome, make_server


def _tool(number: int) -> dict[str, Any]:
    return {"name": f"tool_{number:02d}", "title": f"Tool «{number}»",
            "description": "d" * (900 + 50 * (number % 3)),
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
            "outputSchema": {"type": "object"}}


TOOLS = [_tool(n) for n in range(24)]
PAGE_BYTES = 5000


async def _ok(name: str, arguments: dict[str, Any]) -> ToolOutcome:
    return ToolOutcome(structured={"called": name})


async def _noop(ctx: Any, call_next: Any) -> Any:
    return await call_next(ctx)


def _server(shortcut: bool) -> Any:
    """A server with its ListMemo and shortcut, or (the reference) the SDK's plain path:
    no ListMemo, so every answer is made and written by the SDK and pydantic."""
    server = make_server("demo", TOOLS, _ok, version="1", page_bytes=PAGE_BYTES)
    if not shortcut:
        server.middleware[:] = [m for m in server.middleware
                                if not isinstance(m, listing.ListMemo)]
    return server


def _exchange(server: Any, batches: list[list[bytes]]) -> list[bytes]:
    """The answer lines to `batches` of request lines over pipes (helpers/stdio_exchange)."""
    return exchange(lambda i, o: anyio.run(stdio.serve_stdio, server, i, o), batches)


@pytest.fixture
def taken(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The ids of the requests the shortcut answered."""
    seen: list[Any] = []
    original = listing.Shortcut.answer

    def spy(self: listing.Shortcut, value: Any, line: Any) -> bytes | None:
        found = original(self, value, line)
        if found is not None:
            seen.append(value["id"])
        return found

    monkeypatch.setattr(listing.Shortcut, "answer", spy)
    return seen


def _both(batches: list[list[bytes]], taken: list[Any]) -> tuple[list[bytes], list[Any]]:
    """The answers with the shortcut, checked equal to the answers without it, and the ids
    the shortcut answered."""
    fast = _exchange(_server(True), batches)
    answered = list(taken)
    reference = _exchange(_server(False), batches)
    assert taken == answered   # the reference server never took it
    assert fast == reference
    return fast, answered


def _cursors() -> list[str | None]:
    """Every page's cursor (None: the first page)."""
    server, found = _server(False), [None]
    while True:
        answers = _exchange(server, [_lines(_initialize(1), INITIALIZED, _list(2, found[-1]))])
        cursor = json.loads(answers[-1])["result"].get("nextCursor")
        if cursor is None:
            return found
        found.append(cursor)


IDS = [7, 0, -3, 2**70, "r-1", "é \"quoted\" \\ \u2028", ""]


def test_every_page_short_circuited_is_the_sdks_bytes(taken: list[Any]) -> None:
    cursors = _cursors()
    assert len(cursors) > 3
    batches = [_lines(_initialize(1), INITIALIZED)]
    for number, cursor in enumerate(cursors):
        first = f"first-{number}"
        batches.append(_lines(_list(first, cursor)))   # through the SDK: remembered
        batches.append(_lines(*(_list(i, cursor) for i in IDS)))
    answers, answered = _both(batches, taken)
    assert answered == IDS * len(cursors)
    assert len(answers) == 1 + len(cursors) * (1 + len(IDS))
    last = json.loads(answers[-1])
    assert last["id"] == IDS[-1]
    assert "nextCursor" not in last["result"]


def test_a_request_before_initialize_is_not_short_circuited(taken: list[Any]) -> None:
    server = _server(True)
    listed = _exchange(server, [_lines(_initialize(1), INITIALIZED), _lines(_list(2)),
                                _lines(_list(3))])
    assert taken == [3]
    # A second connection to the same server (its ListMemo holds the first page):
    # before its initialize, and between initialize and the first plain list.
    batches = [_lines(_list(4)), _lines(_initialize(5)), _lines(_list(6)), _lines(_list(7))]
    again = _exchange(server, batches)
    assert taken == [3, 7]
    assert json.loads(again[0])["error"]["code"] < 0
    assert again[2:] == [line.replace(b'"id":3', b'"id":%d' % n) for n, line in
                         ((6, listed[2]), (7, listed[2]))]
    reference = _exchange(_server(False), batches)
    assert again == reference


def test_what_is_not_a_plain_list_goes_to_the_sdk(taken: list[Any]) -> None:
    odd = [_list(10) | {"params": {"_meta": {"progressToken": 1}}},
           _list(11, extra=1), _list(12) | {"jsonrpc": "1.0"}, _list("\ud800"),
           _list(13) | {"params": {"cursor": "no_such_tool"}},
           _list(14) | {"params": {"cursor": 5}}, _list(15) | {"params": None},
           {"jsonrpc": "2.0", "method": "tools/list"}, _list(16) | {"method": "tools/lis"}]
    batches = [_lines(_initialize(1), INITIALIZED), _lines(_list(2)),
               _lines(b'{"jsonrpc":"2.0","id":"\\ud800","method":"tools/list"}'),
               *(_lines(message) for message in odd), _lines(_list(17))]
    _, answered = _both(batches, taken)
    assert answered == [17]


@pytest.mark.parametrize("request_id", [True, 1.0, None, [1]])
def test_an_id_other_than_an_int_or_a_string_is_not_plain(request_id: Any) -> None:
    # (the SDK leaves id true and 1.0 unanswered: they cannot go through an exchange)
    assert listing.plain_list(_list(request_id)) is None
    assert listing.plain_list(_list(1)) == (None,)
    assert listing.plain_list(_list("1", "tool_04")) == ("tool_04",)


def test_a_second_initialize_ends_the_shortcut(taken: list[Any]) -> None:
    # initialize again, at another version, with a list right behind it in the same write:
    # the transport reads the list before the SDK has answered the initialize, so the
    # version it would read could be stale; every later list goes to the SDK.
    batches = [_lines(_initialize(1), INITIALIZED), _lines(_list(2)), _lines(_list(3)),
               _lines(_initialize(4, "2025-03-26"), _list(5)), _lines(_list(6))]
    answers, answered = _both(batches, taken)
    assert answered == [3]
    assert json.loads(answers[3])["result"]["protocolVersion"] == "2025-03-26"


def test_other_middleware_turns_the_shortcut_off(taken: list[Any]) -> None:
    server = _server(True)
    server.middleware.insert(0, _noop)   # not the SDK's own: it might change a result
    _exchange(server, [_lines(_initialize(1), INITIALIZED), _lines(_list(2)), _lines(_list(3))])
    assert taken == []


def test_a_page_is_written_by_the_event_loop_when_the_pipe_is_empty(
        monkeypatch: pytest.MonkeyPatch) -> None:
    threaded: list[int] = []
    original = anyio.to_thread.run_sync

    async def counting(function: Any, *args: Any, **kwargs: Any) -> Any:
        threaded.append(len(args[1]))
        return await original(function, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counting)
    answers = _exchange(_server(True), [_lines(_initialize(1), INITIALIZED), _lines(_list(2)),
                                        _lines(_list(3))])
    assert len(answers[2]) > 4096   # a page larger than PIPE_BUF
    assert threaded == []


def test_a_pipe_is_widened_and_its_unread_bytes_counted() -> None:
    read_end, write_end = os.pipe()
    try:
        assert stdio.widen_pipe(write_end) == stdio.PIPE_BYTES
        assert stdio.unread(write_end) == 0
        os.write(write_end, b"x" * 70_000)   # more than a default pipe holds
        assert stdio.unread(write_end) == 70_000
        os.read(read_end, 69_999)
        assert stdio.unread(write_end) == 1
    finally:
        os.close(read_end)
        os.close(write_end)


def test_the_reader_writes_an_answer_only_between_the_writers_answers() -> None:
    read_end, write_end = os.pipe()
    page = b"p" * 300_000 + b"\n"

    async def run(wire: Any) -> None:
        send, queue = anyio.create_memory_object_stream[bytes](0)
        answers = stdio._Answers(wire, queue)
        assert not answers.put_now(page)   # no writer waits: it is writing an answer
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(queue.receive)
            await wait_all_tasks_blocked()
            assert answers.put_now(page)   # the pipe was empty and takes it whole
            assert stdio.unread(write_end) == len(page)
            assert not answers.put_now(b"x\n")   # the client has not read the page yet
            assert os.read(read_end, len(page)) == page
            assert not answers.put_now(b"y" * (stdio.PIPE_BYTES + 1))   # larger than the pipe
            assert answers.put_now(b"x\n")
            assert os.read(read_end, 10) == b"x\n"
            send.send_nowait(b"handed")   # handed to the writer, not written yet
            assert not answers.put_now(b"z\n")   # it would pass that answer

    try:
        with os.fdopen(write_end, "wb", closefd=False) as wire:
            anyio.run(run, wire)
    finally:
        os.close(read_end)
        os.close(write_end)
