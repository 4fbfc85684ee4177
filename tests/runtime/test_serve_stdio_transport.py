"""Over stdio, every request with an id gets an answer and no line ends the server.

`toolcat serve` as a subprocess, spoken to line by line (raw JSON-RPC, as a client that
sends anything would), in front of a recording stub API on 127.0.0.1: an unparsable line is
a -32700, a batch and a message nested 1,200 levels are -32600 with their ids, an argument
holding a lone surrogate is refused before anything is sent, and an API answering a lone
surrogate gets a result (U+FFFD and a note). After all of it the server still answers.
"""

from __future__ import annotations

import json
import select
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from helpers.paths import REPO
from helpers.serve_session import SERVE
from helpers.stub_api import StubApi, shape

INIT = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}}


class Wire:
    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        self.process = process

    def send(self, line: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + b"\n")
        self.process.stdin.flush()

    def answer(self, line: bytes, timeout: float = 30) -> dict[str, Any]:
        self.send(line)
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, f"no answer within {timeout} s to {line[:80]!r}"
        got: dict[str, Any] = json.loads(self.process.stdout.readline())
        return got

    def call(self, request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.answer(json.dumps({"jsonrpc": "2.0", "id": request_id, "method":
                                       "tools/call", "params": {"name": name,
                                                                "arguments": arguments}}
                                      ).encode())


@pytest.fixture(scope="module")
def api() -> Iterator[StubApi]:
    with StubApi(shape("ok")) as stub:
        yield stub


@pytest.fixture(scope="module")
def wire(api: StubApi) -> Iterator[Wire]:
    process = subprocess.Popen([sys.executable, *SERVE, "broadcast", "-q", "--base-url",
                                api.url], cwd=REPO, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    talk = Wire(process)
    assert "result" in talk.answer(json.dumps(INIT).encode())
    talk.send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
    yield talk
    assert process.stdin is not None
    process.stdin.close()
    process.wait(timeout=30)
    assert process.returncode == 0, process.stderr.read() if process.stderr else b""


def _error(answer: dict[str, Any]) -> tuple[Any, int]:
    return answer["id"], answer["error"]["code"]


def test_unparsable_line_is_a_parse_error(wire: Wire) -> None:
    assert _error(wire.answer(b"not json")) == (None, -32700)
    assert _error(wire.answer(b'{"jsonrpc": "2.0", "id": 41, "method": "tools/list"')) == (
        41, -32700)
    assert _error(wire.answer(b'{"jsonrpc": "2.0", "id": 42, "method": "\xff"}')) == (
        42, -32700)


def test_batch_answers_every_request_in_it(wire: Wire) -> None:
    batch = [{"jsonrpc": "2.0", "id": 5, "method": "tools/list"},
             {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    answer = wire.answer(json.dumps(batch).encode())
    assert _error(answer) == (5, -32600)
    assert "batches are not supported" in answer["error"]["message"]


@pytest.mark.parametrize("depth", [200, 1200, 100_000])
def test_deep_nesting_is_answered_with_its_id(wire: Wire, depth: int) -> None:
    nested = b"[" * depth + b"]" * depth
    line = (b'{"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": '
            b'"broadcast_list_channels", "arguments": {"query": ' + nested + b"}}}")
    answer = wire.answer(line)
    assert _error(answer) == (8, -32600)
    assert "nests deeper than" in answer["error"]["message"]


def test_invalid_message_is_an_invalid_request(wire: Wire) -> None:
    assert _error(wire.answer(b'{"jsonrpc": "1.0", "id": 9, "method": "tools/list"}')) == (
        9, -32600)


def test_lone_surrogate_argument_is_refused_before_sending(wire: Wire, api: StubApi) -> None:
    before = len(api.seen)
    line = (b'{"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": '
            b'"broadcast_list_channels", "arguments": {"query": "a\\ud800b"}}}')
    result = wire.answer(line)["result"]
    assert result["isError"] is True
    assert "query: holds text that is not valid Unicode (a lone surrogate)" in \
        result["content"][0]["text"]
    assert len(api.seen) == before


def test_lone_surrogate_answer_is_replaced_with_a_note(wire: Wire, api: StubApi) -> None:
    api.answer = shape("surrogate")
    try:
        result = wire.call(11, "broadcast_list_schedules", {})["result"]
    finally:
        api.answer = shape("ok")
    text = json.dumps(result, ensure_ascii=False)
    assert "\ufffd" in text
    assert "lone surrogate" in text
    assert "replaced with U+FFFD" in text
    assert api.seen[-1].target == "/api/v1/schedules"


def test_still_serving_after_all_of_it(wire: Wire) -> None:
    answer = wire.answer(b'{"jsonrpc": "2.0", "id": 99, "method": "tools/list"}')
    assert len(answer["result"]["tools"]) == 21
