"""Who may talk to `toolcat serve --transport http`: Host, Origin and a bearer token, always.

The MCP SDK turns its DNS-rebinding protection off for any address but loopback, so a web
page could drive a server bound to `0.0.0.0` that holds the API's credentials. Here every
request, on every path, is checked before the SDK sees it:

- `Host` must name an allowed host (loopback names by default; `--allow-host` adds more):
  otherwise 421;
- `Origin`, when a browser sends one, must be an allowed origin (`http(s)://` a loopback
  name by default; `--allow-origin` adds more): otherwise 403;
- with `--auth-token-env NAME`, `Authorization: Bearer <the value of $NAME>`, compared in
  constant time: otherwise 401.

Binding beyond loopback needs both an explicit `--allow-host` and `--auth-token-env`
(`check_binding`); the SDK's own protection stays on, with the same lists.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from mcp.server.transport_security import TransportSecuritySettings
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
MIN_TOKEN_CHARS = 16


class GuardError(ValueError):
    """A serve option that would leave the HTTP transport open; the message says why."""


def is_loopback(host: str) -> bool:
    name = host.strip("[]")
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _split_host(value: str) -> tuple[str, str]:
    """`name[:port]` of a Host header (or an allow-list entry), lower case."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value.partition("]")
        return name + "]", rest.removeprefix(":")
    name, _, port = value.partition(":")
    return name, port


def _origin(value: str) -> tuple[str, str, str] | None:
    parts = urlsplit(value.strip().lower())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.path not in ("",):
        return None
    name = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    try:
        port = "" if parts.port is None else str(parts.port)
    except ValueError:
        return None
    return parts.scheme, name, port


@dataclass(frozen=True)
class TransportGuard:
    """The allow-lists and the token every HTTP request is checked against."""

    hosts: tuple[str, ...] = LOOPBACK_NAMES
    origins: tuple[str, ...] = tuple(f"{s}://{n}" for s in ("http", "https")
                                     for n in LOOPBACK_NAMES)
    token: bytes | None = None

    def host_allowed(self, header: str | None) -> bool:
        if not header:
            return False
        name, port = _split_host(header)
        if port and not port.isdigit():
            return False
        for entry in self.hosts:
            allowed, allowed_port = _split_host(entry)
            if name == allowed and (not allowed_port or allowed_port == port):
                return True
        return False

    def origin_allowed(self, header: str | None) -> bool:
        if header is None:
            return True   # not a browser: Host and the token decide
        got = _origin(header)
        if got is None:
            return False
        for entry in self.origins:
            allowed = _origin(entry)
            if allowed is not None and allowed[:2] == got[:2] and allowed[2] in ("", got[2]):
                return True
        return False

    def token_accepted(self, header: str | None) -> bool:
        if self.token is None:
            return True
        scheme, _, value = (header or "").partition(" ")
        return scheme.lower() == "bearer" and hmac.compare_digest(
            value.strip().encode("utf-8", "surrogateescape"), self.token)

    def refusal(self, headers: Mapping[str, str]) -> tuple[int, str] | None:
        if not self.host_allowed(headers.get("host")):
            return 421, "Host header not allowed (see toolcat serve --allow-host)"
        if not self.origin_allowed(headers.get("origin")):
            return 403, "Origin not allowed (see toolcat serve --allow-origin)"
        if not self.token_accepted(headers.get("authorization")):
            return 401, "missing or wrong bearer token (Authorization: Bearer ...)"
        return None

    def sdk_settings(self) -> TransportSecuritySettings:
        """The SDK's own DNS-rebinding check, kept on with the same lists (any port where
        an entry names none)."""
        def widen(entries: Sequence[str], port_of: Any) -> list[str]:
            return [form for e in entries for form in ([e] if port_of(e) else [e, f"{e}:*"])]
        return TransportSecuritySettings(
            enable_dns_rebinding_protection=True,
            allowed_hosts=widen(self.hosts, lambda e: _split_host(e)[1]),
            allowed_origins=widen(self.origins, lambda e: (_origin(e) or ("", "", ""))[2]))

    def wrap(self, app: ASGIApp) -> ASGIApp:
        async def guarded(scope: Scope, receive: Receive, send: Send) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                       for k, v in scope.get("headers", [])}
            refused = self.refusal(headers)
            if refused is None:
                await app(scope, receive, send)
                return
            await _refuse(send, *refused)
        return guarded


async def _refuse(send: Send, status: int, message: str) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": None,
                       "error": {"code": -32600, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode())]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="toolcat"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def make_guard(bind: str, allow_hosts: Sequence[str], allow_origins: Sequence[str],
               token_env: str | None, environ: Mapping[str, str]) -> TransportGuard:
    """The guard for `--host bind`, or GuardError saying what is missing and why."""
    token = _token(token_env, environ)
    if not is_loopback(bind) and (not allow_hosts or token is None):
        missing = " and ".join(m for m, absent in (
            ("--allow-host NAME (the host name clients use)", not allow_hosts),
            ("--auth-token-env VAR (a bearer token every request must carry)", token is None))
            if absent)
        raise GuardError(
            f"--host {bind} is reachable beyond this machine, where any page or host could "
            "drive this server and the API credentials it holds; give " + missing + ", or put "
            "it behind an authenticating proxy bound to loopback (docs/serve.md)")
    for origin in allow_origins:
        if _origin(origin) is None:
            raise GuardError(f"--allow-origin {origin!r} is not an origin such as "
                             "https://app.example.com (scheme, host, optional port, no path)")
    for host in allow_hosts:
        name, port = _split_host(host)
        if not name or "/" in host or (port and not port.isdigit()):
            raise GuardError(f"--allow-host {host!r} is not a host name with an optional "
                             "port, such as mcp.example.com or mcp.example.com:8443")
    return TransportGuard(hosts=(*LOOPBACK_NAMES, *allow_hosts),
                          origins=(*TransportGuard().origins, *allow_origins), token=token)


def _token(token_env: str | None, environ: Mapping[str, str]) -> bytes | None:
    if token_env is None:
        return None
    value = environ.get(token_env, "")
    if len(value) < MIN_TOKEN_CHARS:
        state = "is not set" if not value else f"has fewer than {MIN_TOKEN_CHARS} characters"
        raise GuardError(f"--auth-token-env {token_env}: the variable {state}; set it to a "
                         f"random token (e.g. `openssl rand -hex 32`)")
    return value.encode("utf-8", "surrogateescape")
