"""Issue 21 item 3: an API that echoes what it received never hands a credential to the agent.

A stub API on 127.0.0.1 records what arrived and echoes it back: every header and the raw
target, plus the decoded forms a server would show (the Basic `user:pass`, the password
alone, the URL-decoded query key). Whatever shape the answer takes (structured content that
matches, a body that breaks the outputSchema, a 401 page, invalid JSON, a member name), no
form of any configured secret is in anything the MCP client receives. And a credential goes
only to its own origin: a redirect elsewhere, or a URL that would leave it, sends nothing.
"""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from typing import Any
from urllib.parse import quote, unquote

import pytest
from helpers.serve_catalog import call, catalog, entry, strings
from helpers.stub_api import Arrived, StubApi, free_port
from toolcat.runtime.api import ApiHandler
from toolcat.runtime.request import HttpRequest

BEARER = "tok-Abc/123+xyz="
BASIC = "alice:s3cret!pw"
QUERY_KEY = "key+Q/s3cr3t="
HEADER_KEY = "hdr-k3y-0987"
COOKIE_KEY = "c00kie-val-55"
SCHEMES = {
    "bearer": ({"id": "bearer", "type": "http", "scheme": "bearer"}, BEARER),
    "basic": ({"id": "basic", "type": "http", "scheme": "basic"}, BASIC),
    "qkey": ({"id": "qkey", "type": "apiKey", "in": "query", "name": "api_key"}, QUERY_KEY),
    "hkey": ({"id": "hkey", "type": "apiKey", "in": "header", "name": "X-Key"}, HEADER_KEY),
    "ckey": ({"id": "ckey", "type": "apiKey", "in": "cookie", "name": "sid"}, COOKIE_KEY),
}
ENVIRON = {f"TOOLCAT_DEMO_{k.upper()}": v for k, (_, v) in SCHEMES.items()}
ECHO_SCHEMA = {"type": "object", "properties": {"echo": {"type": "object"}},
               "required": ["echo"]}


def forms(secret: str) -> list[str]:
    """What must never show: the secret raw, encoded, decoded, base64, the password alone."""
    found = [secret, quote(secret, safe=""), unquote(secret),
             base64.b64encode(secret.encode()).decode()]
    if ":" in secret:
        found.append(secret.split(":", 1)[1])
    return found


def _echo(arrived: Arrived) -> dict[str, Any]:
    """Everything that arrived, plus the decoded forms an API would print."""
    seen: dict[str, Any] = {"target": arrived.target, "decoded": unquote(arrived.target),
                            "headers": arrived.headers}
    auth = arrived.headers.get("authorization", "")
    if auth.startswith("Basic "):
        seen["user:pass"] = base64.b64decode(auth[6:]).decode()
        seen["password"] = seen["user:pass"].split(":", 1)[1]
    seen[arrived.headers.get("x-key", "none")] = "the key as a member name"
    return seen


SHAPES = {
    "structured": lambda a, c: c.json(200, {"echo": _echo(a)}),
    "mismatch": lambda a, c: c.json(200, {"echo": "not an object", "all": _echo(a)}),
    "401 page": lambda a, c: c.respond(401, json.dumps(_echo(a)).encode(),
                                       {"Content-Type": "text/html"}),
    "invalid JSON": lambda a, c: c.respond(200, b"{oops " + json.dumps(_echo(a)).encode()),
    "text": lambda a, c: c.respond(200, json.dumps(_echo(a)).encode(),
                                   {"Content-Type": "text/plain"}),
}


def _leaks(result: Any) -> list[str]:
    text = "\n".join(strings(result.model_dump())).lower()
    return [f for _, secret in SCHEMES.values() for f in forms(secret) if f.lower() in text]


@pytest.mark.parametrize("shape", sorted(SHAPES))
@pytest.mark.parametrize("alternative", [["bearer", "qkey", "ckey"], ["basic", "hkey"]])
def test_no_form_of_any_secret_reaches_the_agent(shape: str, alternative: list[str]) -> None:
    security = [[SCHEMES[k][0] for k in alternative]]
    output = ECHO_SCHEMA if shape in ("structured", "mismatch") else None
    with StubApi(SHAPES[shape]) as api:
        result = call(catalog(entry("t", server=api.url, security=security, output=output)),
                      "t", environ=ENVIRON)
    arrived = api.seen[0]
    # The credentials really went (so the echo carried them) ...
    sent = json.dumps(_echo(arrived))
    assert any(f in sent for k in alternative for f in forms(SCHEMES[k][1])), sent
    # ... and no form of any came back.
    assert _leaks(result) == [], result.model_dump()
    assert "***" in "\n".join(strings(result.model_dump()))
    if shape == "structured":
        assert not result.is_error
        assert result.structured_content["echo"]["headers"]["host"].startswith("127.0.0.1")


def test_redirect_to_another_origin_sends_no_credential() -> None:
    security = [[SCHEMES["bearer"][0]]]
    with StubApi(lambda a, c: c.json(200, {"stolen": a.headers})) as other, \
            StubApi(lambda a, c: c.respond(307, headers={"Location": f"{other.url}/steal"})
                    ) as api:
        result = call(catalog(entry("t", server=api.url, security=security)), "t",
                      environ=ENVIRON)
    assert result.is_error
    assert "redirected to another origin" in result.content[0].text
    assert api.seen[0].headers["authorization"] == f"Bearer {BEARER}"
    assert other.seen == []


def test_a_url_that_would_leave_the_servers_origin_is_not_sent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Defence in depth: should a request URL ever leave the tool's server (a future path
    # rule, a hostile binding), the credential stays home. The request builder is swapped
    # for one that returns such a URL.
    real = ApiHandler.request_for
    cat = catalog(entry("t", server=f"http://127.0.0.1:{free_port()}",
                        security=[[SCHEMES["hkey"][0]]]))
    with StubApi(lambda a, c: c.json(200, {"stolen": a.headers})) as other:
        def off_origin(self: ApiHandler, tool: str, arguments: dict[str, Any]) -> HttpRequest:
            return replace(real(self, tool, arguments), url=f"{other.url}/x")

        monkeypatch.setattr(ApiHandler, "request_for", off_origin)
        result = call(cat, "t", environ=ENVIRON)
    assert other.seen == []
    assert result.is_error
    assert "would leave the origin of the tool's server" in result.content[0].text


def test_a_form_encoded_query_key_with_space_and_non_ascii_is_redacted() -> None:
    secret = "pass word/é+1"
    scheme = {"id": "qkey", "type": "apiKey", "in": "query", "name": "k"}
    with StubApi(lambda a, c: c.respond(401, f"bad key in {a.target} ({unquote(a.target)})"
                                        .encode(), {"Content-Type": "text/plain"})) as api:
        result = call(catalog(entry("t", server=api.url, security=[[scheme]])), "t",
                      environ={"TOOLCAT_DEMO_QKEY": secret})
    target = api.seen[0].target
    assert target == "/x?k=pass+word%2F%C3%A9%2B1"
    shown = "\n".join(strings(result.model_dump()))
    assert "bad key in /x?k=*** (/x?k=***)" in shown
    for form in (secret, "pass+word%2F%C3%A9%2B1", "pass+word/é+1"):
        assert form.lower() not in shown.lower(), shown
