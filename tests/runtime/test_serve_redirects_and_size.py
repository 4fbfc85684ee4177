"""Guards on what comes back: a redirect to another host is not followed (a credential must not
travel there), a same-host redirect is, an oversized response is not read, and a timeout is an
error result."""

from __future__ import annotations

from typing import Any

import anyio
import httpx2
from toolcat.runtime.api import ApiHandler, ApiOptions


def _handler(answer: Any, **options: Any) -> tuple[ApiHandler, list[str]]:
    seen: list[str] = []

    def record(request: httpx2.Request) -> httpx2.Response:
        seen.append(str(request.url))
        result: httpx2.Response = answer(request)
        return result

    tool = {"name": "t", "description": "d",
            "inputSchema": {"type": "object", "additionalProperties": False}}
    binding = {"method": "GET", "path": "/x", "arguments": {}, "requestContentType": None,
               "responseContentType": "application/json", "outputWrapper": None,
               "servers": [{"url": "https://api.test"}],
               "security": [[{"id": "k", "type": "apiKey", "in": "header", "name": "K"}]]}
    catalog = {"name": "demo", "tools": [{"tool": tool, "binding": binding}]}
    handler = ApiHandler(catalog, ApiOptions(**options), environ={"TOOLCAT_DEMO_K": "secret1"},
                         transport=httpx2.MockTransport(record))
    return handler, seen


def test_redirect_to_another_host_is_refused() -> None:
    handler, seen = _handler(lambda r: httpx2.Response(
        302, headers={"Location": "https://evil.test/steal"}))
    outcome = anyio.run(handler, "t", {})
    assert outcome.is_error
    assert "redirected to another origin (evil.test); not followed" in outcome.text
    assert seen == ["https://api.test/x"]


def test_same_host_redirect_is_followed() -> None:
    def answer(request: httpx2.Request) -> httpx2.Response:
        if request.url.path == "/x":
            return httpx2.Response(307, headers={"Location": "/y"})
        return httpx2.Response(200, json={"at": request.url.path})

    handler, seen = _handler(answer)
    outcome = anyio.run(handler, "t", {})
    assert outcome.structured == {"at": "/y"}
    assert seen == ["https://api.test/x", "https://api.test/y"]


def test_oversized_response_is_not_read() -> None:
    handler, _ = _handler(lambda r: httpx2.Response(200, content=b"[" + b"1," * 5000 + b"1]"),
                          max_response_bytes=1000)
    outcome = anyio.run(handler, "t", {})
    assert outcome.is_error
    assert "larger than 1000 bytes" in outcome.text


def test_timeout_is_an_error_result() -> None:
    def slow(request: httpx2.Request) -> httpx2.Response:
        raise httpx2.ReadTimeout("timed out", request=request)

    handler, _ = _handler(slow, timeout=0.5)
    outcome = anyio.run(handler, "t", {})
    assert outcome.is_error
    assert outcome.text.startswith("Sent, no answer: GET /x reached the API")
    assert "timed out: --timeout 0.5 s bounds the whole call" in outcome.text
