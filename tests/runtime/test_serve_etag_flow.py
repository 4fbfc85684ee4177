"""Full replace with optimistic concurrency, end to end over stdio: get -> ETag surfaced ->
update with ifMatch -> 200 with the new ETag; the stale ETag again -> 412 -> the advice to
read the resource again and pass its new ETag. The incident's GET-edit-PUT, done safely.
"""

from __future__ import annotations

import re
from typing import Any

import anyio
from helpers.broadcast_api import SpecServer
from helpers.paths import EXAMPLE_SPEC
from helpers.serve_session import stdio_session
from helpers.stub_api import StubApi

ETAG = re.compile(r'ETag: ("[^"]*")')


def _etag(result: Any) -> str:
    found = [m.group(1) for block in result.content if (m := ETAG.search(block.text))]
    assert found, [b.text for b in result.content]
    return found[0]


def test_get_update_with_if_match_then_stale_etag_is_refused_with_advice() -> None:
    api = SpecServer(EXAMPLE_SPEC)

    async def run() -> list[Any]:
        async with stdio_session("broadcast", "--base-url", base) as session:
            got = await session.call_tool("broadcast_get_channel", {"channelId": 5})
            channel = dict(got.structured_content or {})
            first = _etag(got)
            update = {"channelId": 5, "ifMatch": first, "name": "Renamed",
                      **{k: v for k, v in channel.items() if k not in ("id", "createdAt")},
                      "categories": [], "graphicsElementIds": [], "group": "g",
                      "isEnabled": True, "showInEpg": True, "fallbackFillerId": None,
                      "preferredAudioLanguageCode": None, "watermarkId": None}
            ok = await session.call_tool("broadcast_update_channel", update)
            stale = await session.call_tool("broadcast_update_channel", update)
            return [got, ok, stale]

    with StubApi(api.answer) as stub:
        base = stub.url
        got, ok, stale = anyio.run(run)
    assert not got.is_error
    assert _etag(got) == '"v1"'
    assert not ok.is_error, ok.content[0].text
    assert _etag(ok) == '"v2"'
    put = [r for r in api.seen if r.method == "PUT"]
    assert [r.headers.get("if-match") for r in put] == ['"v1"', '"v1"']
    assert all(r.ok for r in api.seen)
    assert stale.is_error
    text = stale.content[0].text
    assert "HTTP 412" in text
    assert "read it again" in text
    assert "new ETag as ifMatch" in text
