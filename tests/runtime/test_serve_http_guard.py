"""The HTTP transport checks Host, Origin and (when configured) a bearer token on every request,
on any address; a bind beyond loopback without an allow-list and a token is refused, saying why.

At the wire: `toolcat serve --transport http` as a user starts it, raw HTTP requests, the
status that comes back (421 Host, 403 Origin, 401 token, 200 served).
"""

from __future__ import annotations

import os

import httpx2 as httpx
import pytest
from helpers.fixtures import run_cli
from helpers.serve_session import http_process
from toolcat.runtime.transport_guard import GuardError, TransportGuard, make_guard

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                   "clientInfo": {"name": "t", "version": "1"}}}
TOKEN = "s3cr3t-token-0123456789abcdef"
ACCEPT = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _post(port: int, **headers: str) -> int:
    response = httpx.post(f"http://127.0.0.1:{port}/mcp", json=INIT, timeout=10,
                          headers={**ACCEPT, **headers})
    return response.status_code


def test_loopback_refuses_a_foreign_origin_and_host() -> None:
    with http_process("broadcast", "-q") as port:
        assert _post(port) == 200
        assert _post(port, Origin=f"http://127.0.0.1:{port}") == 200
        assert _post(port, Origin="http://evil.example") == 403
        assert _post(port, Origin="null") == 403
        assert _post(port, Host="evil.example") == 421
        assert _post(port, Host=f"evil.example:{port}") == 421


def test_beyond_loopback_needs_allow_list_and_token() -> None:
    for host in ("0.0.0.0", "::", "192.0.2.7"):
        result = run_cli("serve", "broadcast", "-q", "--transport", "http", "--host", host)
        assert result.returncode == 2, result.stderr
        assert f"--host {host} is reachable beyond this machine" in result.stderr
        assert "--allow-host" in result.stderr
        assert "--auth-token-env" in result.stderr
    only_host = run_cli("serve", "broadcast", "-q", "--transport", "http", "--host", "0.0.0.0",
                        "--allow-host", "mcp.example.com")
    assert only_host.returncode == 2
    assert "--auth-token-env VAR" in only_host.stderr
    assert "--allow-host NAME" not in only_host.stderr


def test_token_checked_on_every_request_beyond_loopback() -> None:
    env = {**os.environ, "MCP_TOKEN": TOKEN}
    with http_process("broadcast", "-q", "--allow-host", "mcp.example.com",
                      "--allow-origin", "https://app.example.com",
                      "--auth-token-env", "MCP_TOKEN", env=env, host="0.0.0.0") as port:
        good = f"Bearer {TOKEN}"
        assert _post(port) == 401
        assert _post(port, Authorization="Bearer wrong-token-0123456789") == 401
        assert _post(port, Authorization=f"Basic {TOKEN}") == 401
        assert _post(port, Authorization=good) == 200
        assert _post(port, Authorization=good, Host="mcp.example.com") == 200
        assert _post(port, Authorization=good, Host="other.example.com") == 421
        assert _post(port, Authorization=good, Origin="https://app.example.com") == 200
        assert _post(port, Authorization=good, Origin="http://app.example.com") == 403
        assert _post(port, Authorization=good, Origin="https://evil.example") == 403


def test_unset_or_short_token_variable_is_refused() -> None:
    with pytest.raises(GuardError, match="MCP_TOKEN: the variable is not set"):
        make_guard("0.0.0.0", ["h"], [], "MCP_TOKEN", {})
    with pytest.raises(GuardError, match="fewer than 16 characters"):
        make_guard("127.0.0.1", [], [], "MCP_TOKEN", {"MCP_TOKEN": "short"})


@pytest.mark.parametrize(("header", "allowed"), [
    ("127.0.0.1:8000", True), ("localhost", True), ("[::1]:8000", True),
    ("LOCALHOST:1", True), ("localhost.evil.example", False), ("127.0.0.1:80@evil", False),
    ("evil.example:8000", False), ("", False), (None, False)])
def test_host_header_rule(header: str | None, allowed: bool) -> None:
    assert TransportGuard().host_allowed(header) is allowed


@pytest.mark.parametrize(("header", "allowed"), [
    (None, True), ("http://localhost:3000", True), ("https://127.0.0.1", True),
    ("http://localhost.evil.example", False), ("http://127.0.0.1:x", False),
    ("file://", False), ("null", False), ("http://127.0.0.1/path", False)])
def test_origin_header_rule(header: str | None, allowed: bool) -> None:
    assert TransportGuard().origin_allowed(header) is allowed


def test_allow_list_entries_are_checked() -> None:
    with pytest.raises(GuardError, match="is not an origin"):
        make_guard("127.0.0.1", [], ["app.example.com"], None, {})
    with pytest.raises(GuardError, match="is not a host name"):
        make_guard("127.0.0.1", ["https://mcp.example.com/"], [], None, {})
    guard = make_guard("127.0.0.1", ["mcp.example.com:8443"], [], None, {})
    assert guard.host_allowed("mcp.example.com:8443")
    assert not guard.host_allowed("mcp.example.com:8444")
