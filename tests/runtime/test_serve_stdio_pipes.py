"""stdio over pipes: lines read by the event loop, small answers written without a thread hop.

A client that spawns `toolcat serve` talks to it over pipes. The event loop then reads the
pipe itself (`stdio.pipe_lines`) and writes an answer of at most PIPE_BUF bytes itself; a
larger answer (a tools/list page), and any stream that is not a pipe, go through a worker
thread as before. These tests prove the lines are the lines `readline` gives, whatever the
chunks the pipe delivers, and that each path is taken where it should be, with the same
answers. (A larger answer the widened pipe can take whole, when empty, is written by the
event loop too: test_serve_list_shortcut.py.)
"""

from __future__ import annotations

import io
import json
import os
import queue
import select
import threading
from typing import Any

import anyio
import anyio.to_thread
import pytest
from toolcat.runtime import stdio
from toolcat.runtime.mcp_server import ToolOutcome, make_server

CHUNKS = [b'{"a":1}\n{"b"', b':2}\n', b"\n", b"x" * (stdio.READ_BYTES + 10) + b"\n",
          b"partial ", b"last line without newline"]


def _lines_of(chunks: list[bytes]) -> list[bytes]:
    read_end, write_end = os.pipe()

    def feed() -> None:
        for chunk in chunks:
            os.write(write_end, chunk)
        os.close(write_end)

    async def collect() -> list[bytes]:
        return [line async for line in stdio.pipe_lines(read_end)]

    feeder = threading.Thread(target=feed)
    feeder.start()
    try:
        return anyio.run(collect)
    finally:
        feeder.join()
        os.close(read_end)


def test_pipe_lines_are_the_lines_readline_gives() -> None:
    expected = io.BytesIO(b"".join(CHUNKS)).readlines()
    assert _lines_of(CHUNKS) == expected
    assert _lines_of([bytes([byte]) for byte in b'{"id":1}\n{"id":2}']) == [b'{"id":1}\n',
                                                                           b'{"id":2}']


def test_only_a_pipe_is_read_by_the_event_loop(tmp_path: Any) -> None:
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(read_end, "rb", closefd=False) as pipe:
            assert stdio.pipe_fd(pipe) == read_end
        file = tmp_path / "requests"
        file.write_bytes(b"")
        with file.open("rb") as regular:
            assert stdio.pipe_fd(regular) is None
        assert stdio.pipe_fd(io.BytesIO()) is None
    finally:
        os.close(read_end)
        os.close(write_end)


TOOLS = [{"name": f"tool_{n:02d}", "description": "d" * 3000,
          "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}}}
         for n in range(4)]
REQUESTS = [
    {"jsonrpc": "2.0", "id": 1, "method": "initialize",
     "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"}}},
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
    {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
     "params": {"name": "tool_00", "arguments": {"n": 1}}},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {}},
]


async def _ok(name: str, arguments: dict[str, Any]) -> ToolOutcome:
    return ToolOutcome(structured={"called": name})


def _serve(over_pipes: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[int]]:
    """The answers to REQUESTS, and the sizes of the lines written by a worker thread."""
    threaded: list[int] = []
    original = anyio.to_thread.run_sync

    async def counting(function: Any, *args: Any, **kwargs: Any) -> Any:
        if function is stdio._put:
            threaded.append(len(args[1]))
        return await original(function, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counting)
    data = b"".join(json.dumps(r).encode() + b"\n" for r in REQUESTS)
    server = make_server("demo", TOOLS, _ok, version="1")
    if over_pipes:
        in_read, in_write = os.pipe()
        out_read, out_write = os.pipe()
        os.write(in_write, data)
        written: list[bytes] = []
        drain = threading.Thread(target=lambda: written.append(_read_all(out_read, in_write)))
        drain.start()
        with os.fdopen(in_read, "rb") as wire_in, os.fdopen(out_write, "wb") as wire_out:
            anyio.run(stdio.serve_stdio, server, wire_in, wire_out)
        drain.join()
        os.close(out_read)
        output = written[0]
    else:
        feed = _Feed(data)
        sink = _Sink(feed)
        anyio.run(stdio.serve_stdio, server, io.BufferedReader(feed), sink)
        output = sink.getvalue()
    return [json.loads(line) for line in output.splitlines()], threaded


class _Feed(io.RawIOBase):
    """Requests that are not a pipe: `data`, then a wait for the end the sink gives."""

    def __init__(self, data: bytes) -> None:
        self.chunks: queue.Queue[bytes] = queue.Queue()
        self.chunks.put(data)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        chunk = self.chunks.get()
        buffer[:len(chunk)] = chunk
        return len(chunk)


class _Sink(io.BytesIO):
    """Answers into memory; the feed ends once every request is answered."""

    def __init__(self, feed: _Feed) -> None:
        super().__init__()
        self.feed = feed

    def write(self, line: Any) -> int:
        written = super().write(line)
        if self.getvalue().count(b"\n") == 3:
            self.feed.chunks.put(b"")
        return written


def _read_all(fd: int, requests: int) -> bytes:
    """Everything the server writes; its input is closed (it then returns) once every
    request is answered, as a client closes it when done."""
    parts: list[bytes] = []
    while chunk := os.read(fd, 1 << 16):
        parts.append(chunk)
        if b"".join(parts).count(b"\n") == 3:
            os.close(requests)
    return b"".join(parts)


def test_small_answers_skip_the_worker_thread_on_a_pipe(
        monkeypatch: pytest.MonkeyPatch) -> None:
    answers, threaded = _serve(True, monkeypatch)
    assert [a["id"] for a in answers] == [1, 2, 3]
    assert answers[1]["result"]["structuredContent"] == {"called": "tool_00"}
    assert len(answers[2]["result"]["tools"]) == len(TOOLS)
    # initialize and the call did not go through a worker thread; the page (12 KB) only if
    # the client had not read everything before it yet (test_serve_list_shortcut.py).
    assert len(threaded) <= 1
    assert all(size > select.PIPE_BUF for size in threaded)


def test_other_streams_keep_the_worker_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    answers, threaded = _serve(False, monkeypatch)
    assert len(threaded) == 3   # every answer, small or not
    monkeypatch.undo()
    piped, _ = _serve(True, monkeypatch)
    assert answers == piped
