"""Beyond one machine: two `toolcat serve --transport http` replicas behind a round-robin
balancer (a proxy in the test that sends each request to the next replica and records which
one answered) serve one 2026-07-28 client with no session affinity: the stateless core keeps
no per-client state, so a client's requests may land on either replica.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from typing import Any

import anyio
import httpx2
import pytest
from helpers.broadcast_api import SpecServer
from helpers.paths import EXAMPLE_SPEC
from helpers.serve_session import http_server
from helpers.stub_api import Answer, Arrived, Conn, StubApi
from mcp import Client

HOP = frozenset({"connection", "keep-alive", "transfer-encoding", "content-length", "host"})


def _balancer(replicas: list[str]) -> tuple[Answer, list[tuple[int, str]]]:
    """Round robin over `replicas`; records (replica index, method) per request."""
    turns = itertools.cycle(range(len(replicas)))
    served: list[tuple[int, str]] = []
    lock = threading.Lock()

    def forward(arrived: Arrived, conn: Conn) -> None:
        with lock:
            turn = next(turns)
        headers = {k: v for k, v in arrived.fields if k.lower() not in HOP}
        with httpx2.Client(timeout=30) as http:
            answer = http.request(arrived.method, replicas[turn], headers=headers,
                                  content=arrived.body)
        served.append((turn, arrived.method))
        # the 2025 control below gives up mid-answer: the stub drops the broken connection
        conn.respond(answer.status_code, answer.content, media=None, headers={
            k: v for k, v in answer.headers.items() if k.lower() not in HOP})

    return forward, served


@pytest.fixture(scope="module")
def balanced() -> Iterator[tuple[str, list[tuple[int, str]], SpecServer]]:
    api = SpecServer(EXAMPLE_SPEC)
    with StubApi(api.answer) as stub, \
            http_server("broadcast", "--base-url", stub.url) as one, \
            http_server("broadcast", "--base-url", stub.url) as two:
        forward, served = _balancer([one, two])
        with StubApi(forward) as proxy:
            yield f"{proxy.url}/mcp", served, api


def test_one_client_alternating_between_two_replicas(balanced: Any) -> None:
    url, served, api = balanced

    async def run() -> list[Any]:
        async with Client(url) as client:
            results = []
            for number in (1, 2, 3, 4):
                results.append(await client.list_tools())
                results.append(await client.call_tool("broadcast_get_channel",
                                                      {"channelId": number}))
            return [client.protocol_version, *results]

    version, *results = anyio.run(run)
    assert version == "2026-07-28"
    assert all(not r.is_error for r in results[1::2]), results
    assert {len(r.tools) for r in results[0::2]} == {21}
    # server/discover, one tools/list (the client keeps it: ttlMs is an hour), four calls,
    # each request on the next replica
    assert served == [(0, "POST"), (1, "POST")] * 3
    calls = [r.target for r in api.seen if r.method == "GET"]
    assert calls == [f"/api/v1/channels/{n}" for n in (1, 2, 3, 4)]


def test_a_2025_session_needs_affinity_which_is_why_the_stateless_core_matters(
        balanced: Any) -> None:
    """The control: a 2025-11-25 client holds an `Mcp-Session-Id` that only the replica which
    initialized it knows, so round robin breaks it (docs/serve.md: sticky sessions for those)."""
    url = balanced[0]

    async def run() -> None:
        async with Client(url, mode="legacy") as client:
            for number in (1, 2):
                await client.call_tool("broadcast_get_channel", {"channelId": number})

    with pytest.raises(Exception) as raised:  # noqa: PT011 - whatever the SDK raises
        anyio.run(run)
    assert "Session not found" in repr(raised.value), repr(raised.value)
