"""Credentials come from the environment variable named per security scheme, go where the
scheme says (bearer, basic, API key in header/query/cookie), and never appear in a result."""

from __future__ import annotations

import base64
from typing import Any

import anyio
import httpx2
from toolcat.runtime.api import ApiHandler, ApiOptions

SECRET = "s3cr3t-value"
SCHEMES = {
    "bearer": {"id": "bearer", "type": "http", "scheme": "bearer"},
    "basic": {"id": "basic", "type": "http", "scheme": "basic"},
    "hkey": {"id": "hkey", "type": "apiKey", "in": "header", "name": "X-API-Key"},
    "qkey": {"id": "qkey", "type": "apiKey", "in": "query", "name": "api_key"},
    "ckey": {"id": "ckey", "type": "apiKey", "in": "cookie", "name": "token"},
}


def _catalog(security: list[list[dict[str, Any]]]) -> dict[str, Any]:
    tool = {"name": "t", "description": "d",
            "inputSchema": {"type": "object", "additionalProperties": False}}
    binding = {"method": "GET", "path": "/x", "arguments": {}, "requestContentType": None,
               "responseContentType": "application/json", "outputWrapper": None,
               "servers": [{"url": "https://api.test/v1"}], "security": security}
    return {"name": "demo", "tools": [{"tool": tool, "binding": binding}]}


def _call(security: list[list[dict[str, Any]]], environ: dict[str, str],
          credentials: dict[str, str] | None = None, status: int = 200
          ) -> tuple[httpx2.Request, Any]:
    seen: list[httpx2.Request] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        seen.append(request)
        return httpx2.Response(status, json={"echo": dict(request.headers)})

    handler = ApiHandler(_catalog(security), ApiOptions(credentials=credentials or {}),
                         environ=environ, transport=httpx2.MockTransport(answer))
    outcome = anyio.run(handler, "t", {})
    return seen[0], outcome


def test_each_scheme_puts_the_credential_where_it_belongs() -> None:
    request, _ = _call([[SCHEMES["bearer"]]], {"TOOLCAT_DEMO_BEARER": SECRET})
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    request, _ = _call([[SCHEMES["basic"]]], {"TOOLCAT_DEMO_BASIC": "ann:pw"})
    assert request.headers["authorization"] == "Basic " + base64.b64encode(b"ann:pw").decode()
    request, _ = _call([[SCHEMES["hkey"], SCHEMES["qkey"], SCHEMES["ckey"]]],
                       {"K": SECRET}, credentials={"hkey": "K", "qkey": "K", "ckey": "K"})
    assert request.headers["x-api-key"] == SECRET
    assert request.url.params["api_key"] == SECRET
    assert request.headers["cookie"] == f"token={SECRET}"


def test_first_alternative_with_every_credential_set_wins() -> None:
    request, _ = _call([[SCHEMES["bearer"]], [SCHEMES["hkey"]]], {"TOOLCAT_DEMO_HKEY": SECRET})
    assert "authorization" not in request.headers
    assert request.headers["x-api-key"] == SECRET


def test_missing_credential_sends_nothing_secret() -> None:
    request, _ = _call([[SCHEMES["bearer"]]], {})
    assert "authorization" not in request.headers


def test_the_secret_never_reaches_the_agent() -> None:
    # The mock echoes the request headers in its error body, as some error pages do.
    _, outcome = _call([[SCHEMES["bearer"]]], {"TOOLCAT_DEMO_BEARER": SECRET}, status=401)
    assert outcome.is_error
    assert "HTTP 401" in outcome.text
    assert "Bearer ***" in outcome.text
    assert SECRET not in " ".join([outcome.text, *outcome.notes])
