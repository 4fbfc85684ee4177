"""One call can never end the server: whatever a handler raises (CancelledError included) and
whatever text an API answers (a lone surrogate) comes back as a result, and the next call is
served. In process through the SDK's client, and over streamable HTTP at the wire."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import anyio
import pytest
from helpers.paths import EXAMPLE_OUTPUT
from helpers.serve_session import http_session
from helpers.stub_api import StubApi, shape
from mcp import Client
from toolcat.runtime.mcp_server import ToolOutcome, make_server

TOOLS = [e["tool"] for e in json.loads((EXAMPLE_OUTPUT / "catalog.json").read_text())["tools"]]


def _raising(exc: BaseException) -> Any:
    async def handler(name: str, arguments: dict[str, Any]) -> ToolOutcome:
        if name == "broadcast_list_schedules":
            return ToolOutcome(structured={"result": []})
        raise exc
    return handler


async def _two_calls(handler: Any) -> list[Any]:
    server = make_server("broadcast", TOOLS, handler)
    async with Client(server, mode="legacy") as client:
        first = await client.call_tool("broadcast_get_channel", {"channelId": 1})
        second = await client.call_tool("broadcast_list_schedules", {})
        return [first, second]


@pytest.mark.parametrize(("exc", "shown"), [
    (asyncio.CancelledError(), "CancelledError"),
    (RecursionError("maximum recursion depth exceeded"), "RecursionError"),
    (UnicodeEncodeError("utf-8", "\ud800", 0, 1, "surrogates not allowed"),
     "UnicodeEncodeError"),
    # text blocks show a lone surrogate as its escape (runtime/secrets.py, one rule)
    (LookupError("\ud800 gone"), "LookupError: \\ud800 gone")])
def test_a_raising_handler_is_a_result_and_the_server_goes_on(exc: BaseException,
                                                              shown: str) -> None:
    first, second = anyio.run(_two_calls, _raising(exc))
    assert first.is_error
    assert shown in first.content[0].text
    assert not second.is_error


def test_surrogate_answer_over_http_is_answered() -> None:
    async def run(url: str) -> list[Any]:
        async with http_session("broadcast", "-q", "--base-url", url) as session:
            answered = await session.call_tool("broadcast_list_schedules", {})
            again = await session.list_tools()
            return [answered, again]

    with StubApi(shape("surrogate")) as api:
        answered, again = anyio.run(run, api.url)
    text = json.dumps(answered.model_dump(mode="json"), ensure_ascii=False)
    assert "\ufffd" in text
    assert "lone surrogate" in text
    assert "replaced with U+FFFD" in text
    assert len(again.tools) == len(TOOLS)
