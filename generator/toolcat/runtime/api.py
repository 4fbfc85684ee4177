"""The HTTP side of `toolcat serve`: send the request a call describes, turn the answer into
a `ToolOutcome`.

Guards, each because an agent (or a hostile API) would otherwise get something wrong:
`--timeout` bounds the whole call (connect, send, every read, redirects included), so an API
that drips one byte at a time is cut at the deadline; a response size cap; credentials only
go to the origin of the tool's server URL, and redirects are followed only within it; every
form of every configured credential is redacted from whatever goes back (`secrets.py`), even
when the API echoes it; a failure says whether the request was not sent, sent without an
answer, or answered brokenly, and for a write that the API may have applied it; a 2xx is
said first, whatever follows; a 401/403 names the credential that was (not) sent; a 412 on a
call with `ifMatch` says to re-read the resource; a response `ETag` is surfaced where some
tool of the catalog takes it back as `ifMatch`.
"""

from __future__ import annotations

import base64
import json
import os
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urljoin, urlsplit

import anyio
import httpx2

from ..vocab.credentials import default_env_var
from ..vocab.mcp import IF_MATCH
from . import longrun
from .content import Blob, is_text
from .credentials import scheme_variables
from .mcp_server import ToolOutcome
from .request import HttpRequest, RequestError, build_request, resolve_server
from .request_log import RequestLog
from .secrets import Redactor

REDIRECTS = frozenset({301, 302, 303, 307, 308})
NO_CONTENT = frozenset({204, 205, 304})     # no body, whatever the document says (RFC 9110)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
MAX_REDIRECTS = 5


@dataclass(frozen=True)
class ApiOptions:
    base_url: str | None = None
    timeout: float = 30.0                  # seconds for the whole call
    max_response_bytes: int = 10_000_000
    excerpt_chars: int = 2000
    # How long a 202 Accepted's Location is polled before the agent gets a handle instead.
    poll_seconds: float = 30.0
    # scheme id -> environment variable; unnamed schemes use default_env_var()
    credentials: Mapping[str, str] = field(default_factory=dict)
    log: RequestLog | None = None


def origin(url: str) -> tuple[str, str, int | None]:
    """Scheme, host and port of a URL as the HTTP client will read it (RFC 6454 origin,
    default ports filled)."""
    parts = httpx2.URL(url)
    scheme = parts.scheme.lower()
    return scheme, parts.host.lower(), parts.port or {"http": 80, "https": 443}.get(scheme)


def _normal_path(template: str) -> str:
    return re.sub(r"\{[^}]*\}", "{}", template).rstrip("/")


def if_match_tools(catalog: dict[str, Any]) -> dict[str, list[str]]:
    """Path template (parameter names blanked) -> the tools that take an If-Match for it."""
    found: dict[str, list[str]] = {}
    for entry in catalog["tools"]:
        arguments = entry["binding"].get("arguments", {}).values()
        if any(a.get("in") == "header" and str(a.get("name", "")).lower() == "if-match"
               for a in arguments):
            found.setdefault(_normal_path(entry["binding"]["path"]), []).append(
                entry["tool"]["name"])
    return {k: sorted(v) for k, v in found.items()}


class _Progress:
    """How far one HTTP exchange got, from the HTTP client's trace events."""

    def __init__(self, method: str, url: str) -> None:
        self.hop(method, url)
        self.traced = False

    def hop(self, method: str, url: str) -> None:
        self.method, self.url, self.started = method, url, time.monotonic()
        self.phase = "not sent"
        self.status: int | None = None
        self.received = 0

    async def trace(self, name: str, info: dict[str, Any]) -> None:
        self.traced = True
        if name.endswith("send_request_headers.started"):
            self.phase = "sending"
        elif name.endswith("send_request_body.complete"):
            self.phase = "sent"

    def failed(self, exc: BaseException) -> str:
        """The phase a failure happened in (trace events, else the exception's kind)."""
        if self.status is not None:
            return "answered"
        if self.traced:
            return self.phase
        if isinstance(exc, httpx2.ConnectError | httpx2.ConnectTimeout):
            return "not sent"
        return "sent"


class ApiHandler:
    """`handler(tool_name, arguments)` for `make_server`, calling the API over HTTP."""

    def __init__(self, catalog: dict[str, Any], options: ApiOptions,
                 environ: Mapping[str, str] | None = None,
                 transport: httpx2.AsyncBaseTransport | None = None) -> None:
        self.catalog_name = str(catalog.get("name", "catalog"))
        self.entries = {e["tool"]["name"]: e for e in catalog["tools"]}
        self.options = options
        self.environ = os.environ if environ is None else environ
        self.transport = transport
        self._client: httpx2.AsyncClient | None = None
        self.variables = scheme_variables(catalog, options.credentials)
        self.redactor = Redactor(self.environ.get(v) or "" for v in self.variables.values())
        self.if_match = if_match_tools(catalog)

    def _http(self) -> httpx2.AsyncClient:
        # One client per server: building one (TLS context, pool) costs more than a call.
        if self._client is None:
            self._client = httpx2.AsyncClient(timeout=self.options.timeout,
                                              follow_redirects=False, transport=self.transport)
        return self._client

    async def aclose(self) -> None:
        """Close the HTTP connection pool (for code that embeds the handler)."""
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    def request_for(self, tool_name: str, arguments: dict[str, Any]) -> HttpRequest:
        """The request a call becomes, credentials not included (safe to show or record)."""
        entry = self.entries[tool_name]
        server = resolve_server(entry["binding"]["servers"], self.options.base_url)
        return build_request(entry, arguments, server)

    async def __call__(self, tool_name: str, arguments: dict[str, Any]) -> ToolOutcome:
        try:
            outcome = await self._call(self.entries[tool_name], arguments)
        except Exception as exc:  # one call never ends the server; the agent reads why
            outcome = ToolOutcome(text=f"The tool failed: {type(exc).__name__}: {exc}",
                                  is_error=True)
        return self._redact(outcome)

    def _redact(self, outcome: ToolOutcome) -> ToolOutcome:
        """Nothing that leaves carries a credential, structured content included."""
        clean = self.redactor.text
        if not self.redactor:
            return outcome
        return replace(outcome, structured=self.redactor.value(outcome.structured),
                       text=None if outcome.text is None else clean(outcome.text),
                       notes=tuple(map(clean, outcome.notes)),
                       answer=None if outcome.answer is None else clean(outcome.answer))

    async def _call(self, entry: dict[str, Any], arguments: dict[str, Any]) -> ToolOutcome:
        try:
            request = self.request_for(entry["tool"]["name"], arguments)
        except RequestError as exc:
            return ToolOutcome(text=f"Invalid arguments; nothing was sent to the API: {exc}",
                               is_error=True)
        label = f"{request.method} {request.path}"
        if not urlsplit(request.url).scheme:
            return ToolOutcome(text=f"No server to call for {label}: the catalog's server URL "
                               "is relative; start toolcat serve with --base-url", is_error=True)
        used, headers, params, cookies = self._credentials(entry["binding"].get("security", []))
        url = request.url + (("&" if request.query else "?") + "&".join(params) if params
                             else "")
        server = resolve_server(entry["binding"]["servers"], self.options.base_url)
        if used and origin(url) != origin(server):
            return ToolOutcome(text=f"Not sent: {label} would leave the origin of the tool's "
                               f"server ({urlsplit(server).netloc}) and carries a credential",
                               is_error=True)
        all_headers = [*request.headers, *headers]
        cookie_pairs = [*request.cookies, *cookies]
        if cookie_pairs:
            all_headers.append(("Cookie", "; ".join(f"{k}={v}" for k, v in cookie_pairs)))
        if request.content_type is not None:
            all_headers.append(("Content-Type", request.content_type))
        all_headers.append(("Accept", entry["binding"].get("responseContentType")
                            or "application/json"))
        progress = _Progress(request.method, url)
        outcome = await self._bounded(entry, arguments, progress, all_headers, request.body,
                                      label)
        if outcome.status in (401, 403):
            return _with_note(outcome, self._auth_note(entry, used))
        return outcome

    async def _bounded(self, entry: dict[str, Any], arguments: dict[str, Any],
                       progress: _Progress, headers: list[tuple[str, str]],
                       body: bytes | None, label: str) -> ToolOutcome:
        """`_send` under one deadline for the whole call; failures told by how far it got."""
        try:
            with anyio.fail_after(self.options.timeout):
                return await self._send(entry, arguments, progress, headers, body, label)
        except (TimeoutError, httpx2.TimeoutException) as exc:
            self._log(progress, "timeout")
            return _failure(progress, progress.failed(exc), label,
                            f"timed out: --timeout {self.options.timeout:g} s bounds the "
                            "whole call")
        except httpx2.HTTPError as exc:
            self._log(progress, type(exc).__name__)
            parts = urlsplit(progress.url)
            where = f"{parts.hostname}:{parts.port}" if parts.port else parts.hostname
            return _failure(progress, progress.failed(exc), label,
                            f"{type(exc).__name__} talking to {where}")

    def _log(self, progress: _Progress, result: str) -> None:
        if self.options.log is not None:
            self.options.log.record(progress.method, self.redactor.text(progress.url), result,
                                    progress.started)

    def _credentials(self, security: list[list[dict[str, Any]]]) -> tuple[
            list[str], list[tuple[str, str]], list[str], list[tuple[str, str]]]:
        """The first security alternative whose every credential is set in the environment."""
        for alternative in security:
            if any(s["type"] == "undeclared" for s in alternative):
                continue   # the document never says where that credential goes
            values = [self._secret(s) for s in alternative]
            if all(v is not None for v in values):
                return ([s["id"] for s in alternative],
                        *self._apply(alternative, [v for v in values if v is not None]))
        return [], [], [], []

    def _secret(self, scheme: dict[str, Any]) -> str | None:
        """The value of the variable the config names for the scheme, else the one the
        binding records (a credential the document does not declare), else
        ``TOOLCAT_<CATALOG>_<SCHEME>`` (scheme_variables decides, once)."""
        name = scheme["id"]
        var = self.variables.get(name) or default_env_var(self.catalog_name, name)
        value = self.environ.get(var)
        return value if value else None

    def _auth_note(self, entry: dict[str, Any], used: list[str]) -> str:
        """Which credential went with a call the API refused (names only, never values)."""
        if used:
            sent = ", ".join(f"'{s}' (from {self.variables.get(s)})" for s in used)
            return (f"Credential sent: {sent}. The API refused it: check the value of that "
                    "variable and the permissions it grants.")
        wanted = sorted({s["id"] for alt in entry["binding"].get("security", []) for s in alt
                         if s.get("type") != "undeclared"})
        if not wanted:
            return ("No credential was sent: the document declares no security for this "
                    "operation.")
        unset = ", ".join(f"'{s}' (set {self.variables.get(s)})" for s in wanted)
        return f"No credential was sent: none of this tool's schemes is configured: {unset}."

    @staticmethod
    def _apply(schemes: list[dict[str, Any]], values: list[str]
               ) -> tuple[list[tuple[str, str]], list[str], list[tuple[str, str]]]:
        headers: list[tuple[str, str]] = []
        params: list[str] = []
        cookies: list[tuple[str, str]] = []
        for scheme, value in zip(schemes, values, strict=True):
            if scheme["type"] == "apiKey":
                if scheme.get("in") == "query":
                    params.append(f"{httpx2.QueryParams({scheme['name']: value})}")
                elif scheme.get("in") == "cookie":
                    cookies.append((scheme["name"], value))
                else:
                    headers.append((scheme["name"], value))
            elif scheme["type"] == "http" and scheme.get("scheme") == "basic":
                token = base64.b64encode(value.encode()).decode()
                headers.append(("Authorization", f"Basic {token}"))
            else:   # http bearer, oauth2, openIdConnect: a bearer token
                headers.append(("Authorization", f"Bearer {value}"))
        return headers, params, cookies

    async def _send(self, entry: dict[str, Any], arguments: dict[str, Any],
                    progress: _Progress, headers: list[tuple[str, str]], body: bytes | None,
                    label: str) -> ToolOutcome:
        method = progress.method
        got = await self._exchange(progress, headers, body, label)
        if isinstance(got, ToolOutcome):
            return got
        if got[0].status_code == 202 and got[0].headers.get("location"):
            return await self._follow(entry, arguments, method, progress, got, headers, label)
        return self._outcome(entry, arguments, method, *got, label)

    async def _exchange(self, progress: _Progress, headers: list[tuple[str, str]],
                        body: bytes | None, label: str
                        ) -> tuple[httpx2.Response, bytes] | ToolOutcome:
        """One request (``progress`` says which), same-origin redirects followed: the final
        response and its body, or why there is none."""
        url, method = progress.url, progress.method
        client = self._http()
        # Field values are octets (RFC 9110 5.5): non-ASCII text goes as UTF-8, not refused.
        wire_headers = [(k.encode(), v.encode()) for k, v in headers]
        for _ in range(MAX_REDIRECTS + 1):
            progress.hop(method, url)
            request = client.build_request(method, url, headers=wire_headers, content=body,
                                           extensions={"trace": progress.trace})
            response = await client.send(request, stream=True)
            progress.status = response.status_code
            try:
                data = await self._read(response, progress)
            finally:
                await response.aclose()
            self._log(progress, str(response.status_code))
            if data is None:
                return ToolOutcome(text=f"The response to {label} (HTTP {response.status_code})"
                                   f" is larger than {self.options.max_response_bytes} bytes; "
                                   "not read", is_error=True, status=response.status_code)
            if response.status_code not in REDIRECTS:
                return response, data
            target = urljoin(url, response.headers.get("location", ""))
            if origin(target) != origin(url):
                return ToolOutcome(text=f"{label} was redirected to another origin "
                                   f"({urlsplit(target).netloc}); not followed",
                                   is_error=True)
            url = target
            if response.status_code == 303:
                method, body = "GET", None
        return ToolOutcome(text=f"{label}: more than {MAX_REDIRECTS} redirects", is_error=True)

    async def _follow(self, entry: dict[str, Any], arguments: dict[str, Any], method: str,
                      progress: _Progress, accepted: tuple[httpx2.Response, bytes],
                      headers: list[tuple[str, str]], label: str) -> ToolOutcome:
        """Poll a 202's Location until it is no longer 202 or the deadline passes."""
        first = str(accepted[0].url)
        location = urljoin(first, accepted[0].headers["location"])
        polls, started = 0, time.monotonic()
        poll_headers = [(k, v) for k, v in headers if k.lower() != "content-type"]
        same_host = urlsplit(location)[:2] == urlsplit(first)[:2]
        while same_host:
            wait = longrun.wait_for(accepted[0].headers)
            if time.monotonic() + wait - started > self.options.poll_seconds:
                break
            await anyio.sleep(wait)
            polls += 1
            await longrun.report(polls, f"{label}: still running (status check {polls})")
            progress.hop("GET", location)
            got = await self._exchange(progress, poll_headers, None, label)
            if isinstance(got, ToolOutcome):
                return got
            if got[0].status_code != 202:
                return self._outcome(entry, arguments, method, *got, label)
            accepted = got
        tool = longrun.status_tool(self.entries, self.options.base_url, location)
        note = longrun.handle(label, polls, round(time.monotonic() - started), location, tool)
        outcome = self._outcome(entry, arguments, method, *accepted, label)
        return replace(outcome, notes=(*outcome.notes, note))

    async def _read(self, response: httpx2.Response, progress: _Progress) -> bytes | None:
        chunks = []
        async for chunk in response.aiter_bytes():
            progress.received += len(chunk)
            if progress.received > self.options.max_response_bytes:
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    def _etag_note(self, entry: dict[str, Any], etag: str | None) -> tuple[str, ...]:
        tools = self.if_match.get(_normal_path(entry["binding"]["path"]))
        if not etag or not tools:
            return ()
        return (f"ETag: {etag} (pass it as ifMatch to {', '.join(tools)} to update this "
                "resource)",)

    def _outcome(self, entry: dict[str, Any], arguments: dict[str, Any], method: str,
                 response: httpx2.Response, data: bytes, label: str) -> ToolOutcome:
        status = response.status_code
        notes = self._etag_note(entry, response.headers.get("etag"))
        if not 200 <= status < 300:
            excerpt = data[: self.options.excerpt_chars].decode("utf-8", "replace")
            text = f"The API answered {label} with HTTP {status} {response.reason_phrase}"
            if status == 412 and IF_MATCH in arguments:
                text += (". The resource changed since you read it (your ifMatch ETag is "
                         "stale): read it again, apply your change to the fresh copy, and "
                         "pass its new ETag as ifMatch")
            return ToolOutcome(text=f"{text}\n{excerpt}" if excerpt else text, is_error=True,
                               notes=notes, status=status)
        answer = _answered(label, method, status, response.reason_phrase)
        if status in NO_CONTENT or method == "HEAD" or not data:
            return ToolOutcome(notes=notes, answer=answer,
                               status=status, empty=status in NO_CONTENT or method == "HEAD")
        kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "application/json" or kind.endswith("+json"):
            try:
                value = json.loads(data)
            except ValueError:
                excerpt = data[:self.options.excerpt_chars].decode("utf-8", "replace")
                return ToolOutcome(text=f"{answer} But its body is not valid JSON: {excerpt}",
                                   is_error=True, notes=notes, answer=answer, status=status)
            wrapper = entry["binding"].get("outputWrapper")
            return ToolOutcome(structured={wrapper: value} if wrapper else value, notes=notes,
                               answer=answer, status=status)
        if is_text(kind):
            return ToolOutcome(text=data.decode("utf-8", "replace"), notes=notes,
                               answer=answer, status=status)
        blob = Blob(kind or "application/octet-stream", data, str(response.url))
        return ToolOutcome(text=blob.describe(status), notes=notes, blobs=(blob,),
                           answer=answer, status=status)

def _is_write(method: str) -> bool:
    return method.upper() not in SAFE_METHODS


def _answered(label: str, method: str, status: int, reason: str) -> str:
    """The first thing a 2xx result says, whatever follows it."""
    done = ("the call succeeded and was applied; do not repeat it." if _is_write(method)
            else "the call succeeded.")
    return f"The API answered {label} with HTTP {status} {reason}: {done}"


def _failure(progress: _Progress, phase: str, label: str, why: str) -> ToolOutcome:
    """A call that got no usable answer, told by how far it got (never "not delivered" of a
    request that was sent)."""
    write = _is_write(progress.method)
    maybe = (" The API may have applied it: read the resource before you retry."
             if write else "")
    if phase == "not sent":
        text = f"Not sent: {label} never reached the API ({why}). It is safe to retry."
    elif phase == "sending":
        text = f"Partly sent: {label} failed while being sent ({why}).{maybe}"
    elif phase == "sent":
        text = f"Sent, no answer: {label} reached the API, which did not answer ({why}).{maybe}"
    else:
        text = (f"Sent, answer broken: the API answered {label} with HTTP {progress.status}, "
                f"but the answer broke off after {progress.received} bytes ({why}).")
        if progress.status is not None and 200 <= progress.status < 300 and write:
            text += " The API reported success: the call was applied; do not repeat it."
        else:
            text += maybe
    return ToolOutcome(text=text, is_error=True, status=progress.status)


def _with_note(outcome: ToolOutcome, note: str) -> ToolOutcome:
    return replace(outcome, notes=(*outcome.notes, note))
