"""Issue 21 item 5 (runtime part): text UTF-8 cannot carry never ends a call or the server.

An API answering JSON with a lone surrogate (`"\\udc00"`, valid JSON, not valid Unicode):
over stdio, the result arrives with U+FFFD in its place and a note, and the next call is
served. An argument holding a lone surrogate is refused (nothing sent), naming the argument.
"""

from __future__ import annotations

from typing import Any

import anyio
from helpers.broadcast_api import SpecServer
from helpers.paths import EXAMPLE_SPEC
from helpers.serve_catalog import call, catalog, entry
from helpers.serve_session import stdio_session
from helpers.stub_api import StubApi

NOTE = "was not valid Unicode (a lone surrogate"


def test_lone_surrogate_in_an_answer_is_replaced_and_the_server_lives_on() -> None:
    api = SpecServer(EXAMPLE_SPEC)

    async def run() -> list[Any]:
        # A server that died on the byte leaves the client waiting: bound it.
        with anyio.fail_after(60):
            return await calls()

    async def calls() -> list[Any]:
        async with stdio_session("broadcast", "--base-url", base) as session:
            plain = await session.call_tool("broadcast_get_channel", {"channelId": 5})
            channel = dict(plain.structured_content or {})
            api.answer_override["getChannel"] = {**channel, "name": "a\udc00b"}
            odd = await session.call_tool("broadcast_get_channel", {"channelId": 5})
            after = await session.call_tool("broadcast_list_schedules", {})
            return [plain, odd, after]

    with StubApi(api.answer) as stub:
        base = stub.url
        plain, odd, after = anyio.run(run)
    assert not plain.is_error
    assert not odd.is_error, odd.content[0].text
    assert odd.structured_content["name"] == "a\ufffdb"
    assert any(NOTE in b.text for b in odd.content)
    assert not after.is_error


def test_lone_surrogate_in_a_text_answer_and_a_member_name() -> None:
    body = b'{"\\udc00key": "v", "s": "\\ud800"}'
    with StubApi(lambda a, c: c.respond(200, body)) as api:
        result = call(catalog(entry("t", server=api.url)), "t")
    assert not result.is_error
    assert result.structured_content == {"\ufffdkey": "v", "s": "\ufffd"}
    assert result.content[0].text.encode("utf-8")      # encodable
    assert any(NOTE in b.text for b in result.content)


def test_argument_with_a_lone_surrogate_is_refused_before_sending() -> None:
    inputs = {"type": "object", "properties": {"q": {"type": "string"},
                                               "tags": {"type": "array"}}}
    arguments = {"q": {"in": "query", "name": "q", "style": "form", "explode": True},
                 "tags": {"in": "query", "name": "tags", "style": "form", "explode": True}}
    with StubApi() as api:
        result = call(catalog(entry("t", server=api.url, inputs=inputs, arguments=arguments)),
                      "t", {"q": "x\udc00", "tags": ["ok", "\ud800"]})
    assert api.seen == []
    assert result.is_error
    text = result.content[0].text
    assert text.startswith("Invalid arguments; nothing was sent to the API:")
    assert "- q: holds text that is not valid Unicode (a lone surrogate)" in text
    assert "- tags[1]: holds text that is not valid Unicode" in text
