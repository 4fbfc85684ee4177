"""Issue 21 items 8, 11, 12, 14: what `toolcat serve` tells the agent after a call, at the wire.

A stub API on 127.0.0.1 (raw bytes) records what arrived and misbehaves on purpose; the SDK's
client calls the real handler. A failure says how far the request got (not sent / sent with
no answer / answered brokenly) and, for a write, that the API may have applied it; a 2xx is
said first even when its body breaks the outputSchema; an empty 204 or a HEAD is a success;
`--timeout` bounds the whole call; an ETag is surfaced only where a tool takes it back.
"""

from __future__ import annotations

import time
from typing import Any

from helpers.serve_catalog import call, catalog, entry
from helpers.stub_api import Conn, StubApi, free_port

THING = {"type": "object", "required": ["id", "name"],
         "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}


def _run(script: Any, method: str = "POST", output: dict[str, Any] | None = None,
         **options: Any) -> tuple[Any, StubApi]:
    with StubApi(script) as api:
        result = call(catalog(entry("t", method, server=api.url, output=output)), "t",
                      **options)
    return result, api


def test_connect_failure_is_not_sent_and_safe_to_retry() -> None:
    port = free_port()
    result = call(catalog(entry("t", "POST", server=f"http://127.0.0.1:{port}")), "t")
    text = result.content[0].text
    assert result.is_error
    assert text.startswith("Not sent: POST /x never reached the API (ConnectError")
    assert "safe to retry" in text


def test_reset_after_reading_a_write_says_it_may_have_been_applied() -> None:
    result, api = _run(lambda a, c: c.reset())
    text = result.content[0].text
    assert [a.method for a in api.seen] == ["POST"]      # it arrived in full
    assert result.is_error
    assert text.startswith("Sent, no answer: POST /x reached the API, which did not answer")
    assert "The API may have applied it: read the resource before you retry." in text
    assert "not delivered" not in text
    assert "Not sent" not in text


def test_answer_breaking_off_after_a_2xx_says_the_write_was_applied() -> None:
    def half(arrived: Any, conn: Conn) -> None:
        conn.send(b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n"
                     b"Content-Length: 100\r\n\r\n{\"id\": 1")
        conn.reset()

    result, _ = _run(half)
    text = result.content[0].text
    assert result.is_error
    assert text.startswith("Sent, answer broken: the API answered POST /x with HTTP 201, but "
                           "the answer broke off after 8 bytes")
    assert "the call was applied; do not repeat it" in text


def test_timeout_bounds_the_whole_call_not_each_read() -> None:
    # 30 bytes, one every 0.25 s: every read is quick, the whole answer takes 7.5 s.
    with StubApi(lambda a, c: c.drip(b'{"id": 1, "name": "dripping.."}', 0.25)) as api:
        started = time.monotonic()
        result = call(catalog(entry("t", "GET", server=api.url)), "t", timeout=1.0)
    elapsed = time.monotonic() - started
    assert elapsed < 3.0, elapsed
    assert result.is_error
    text = result.content[0].text
    assert text.startswith("Sent, answer broken: the API answered GET /x with HTTP 200")
    assert "timed out: --timeout 1 s bounds the whole call" in text


def test_a_2xx_that_breaks_the_output_schema_says_the_write_happened_first() -> None:
    result, _ = _run(lambda a, c: c.json(201, {"id": 7, "name": None},
                                               reason="Created"), output=THING)
    assert result.is_error
    first, body = result.content[0].text, result.content[1].text
    assert first.startswith("The API answered POST /x with HTTP 201 Created: the call "
                            "succeeded and was applied; do not repeat it.\n")
    assert "- /name: expected string, got null" in first
    assert body == 'Response body: {"id": 7, "name": null}'
    assert result.structured_content is None


def test_a_read_2xx_mismatch_does_not_claim_a_write() -> None:
    result, _ = _run(lambda a, c: c.json(200, {"id": "7", "name": "x"}, reason="OK"),
                     method="GET", output=THING)
    first = result.content[0].text
    assert first.startswith("The API answered GET /x with HTTP 200 OK: the call succeeded.\n")
    assert "- /id: expected integer, got string" in first


def test_empty_204_is_a_success_whatever_the_document_declares() -> None:
    lenient = {"type": "object", "properties": {"id": {"type": "integer"}}}
    result, _ = _run(lambda a, c: c.respond(204, reason="No Content"), method="DELETE",
                     output=lenient)
    assert not result.is_error, result.content[0].text
    assert result.structured_content == {}
    assert result.content[0].text.startswith("The API answered DELETE /x with HTTP 204 No "
                                             "Content: the call succeeded and was applied")


def test_empty_200_for_a_tool_with_an_output_schema_is_a_reported_2xx() -> None:
    result, _ = _run(lambda a, c: c.respond(200, reason="OK"), output=THING)
    assert result.is_error
    assert result.content[0].text.startswith("The API answered POST /x with HTTP 200 OK: the "
                                             "call succeeded and was applied")
    assert "- (root): the answer has no JSON body" in result.content[0].text


def _etag_catalog(base: str) -> dict[str, Any]:
    path_id = {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]}
    simple = {"in": "path", "name": "id", "style": "simple", "explode": False}
    if_match = {"in": "header", "name": "If-Match", "style": "simple", "explode": False}
    update_inputs = {"type": "object", "required": ["thingId"], "properties": {
        "thingId": {"type": "integer"}, "ifMatch": {"type": "string"}}}
    return catalog(
        entry("get_thing", "GET", "/things/{id}", server=base, inputs=path_id,
              arguments={"id": simple}),
        entry("update_thing", "PUT", "/things/{thingId}", server=base, inputs=update_inputs,
              arguments={"thingId": {**simple, "name": "thingId"}, "ifMatch": if_match}),
        entry("get_other", "GET", "/others/{id}", server=base, inputs=path_id,
              arguments={"id": simple}))


def test_etag_note_only_where_a_tool_takes_if_match_for_that_resource() -> None:
    with StubApi(lambda a, c: c.json(200, {"id": 1}, headers={"ETag": '"v9"'})) as api:
        thing = call(_etag_catalog(api.url), "get_thing", {"id": 1})
        other = call(_etag_catalog(api.url), "get_other", {"id": 1})
    assert [b.text for b in thing.content] == [
        '{"id": 1}', 'ETag: "v9" (pass it as ifMatch to update_thing to update this resource)']
    assert [b.text for b in other.content] == ['{"id": 1}']
    assert [a.target for a in api.seen] == ["/things/1", "/others/1"]


def test_help_says_the_timeout_bounds_the_whole_call(toolcat: Any) -> None:
    run = toolcat("serve", "--help")
    text = " ".join(run.stdout.split())
    assert "Seconds for each whole tool call: connecting, sending, reading every byte" in text
    assert "--log-requests [FILE|-]" in text
