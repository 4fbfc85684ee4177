"""The HTTP side of `toolcat serve`: send the request a call describes, turn the answer into
a `ToolOutcome`.

Guards, each because an agent (or a hostile API) would otherwise get something wrong: a
timeout on every request; a response size cap; redirects followed only to the same scheme
and host (a credential must not travel to another host); an unreachable API, a non-2xx status
and a refused redirect are `isError` results with a bounded excerpt, never a crash; a 412 on a
call with `ifMatch` says to re-read the resource; a response `ETag` is surfaced so the agent
can pass it back as `ifMatch`. Credentials come from environment variables named per security
scheme; their values are never put into a result, a message or a log.
"""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx2

from ..vocab.credentials import scheme_variable
from .mcp_server import ToolOutcome
from .request import HttpRequest, RequestError, build_request, resolve_server

REDIRECTS = frozenset({301, 302, 303, 307, 308})
MAX_REDIRECTS = 5
IF_MATCH = "ifMatch"


@dataclass(frozen=True)
class ApiOptions:
    base_url: str | None = None
    timeout: float = 30.0
    max_response_bytes: int = 10_000_000
    excerpt_chars: int = 2000
    # scheme id -> environment variable; unnamed schemes use default_env_var()
    credentials: Mapping[str, str] = field(default_factory=dict)


def _redacted(outcome: ToolOutcome, secrets: list[str]) -> ToolOutcome:
    """Text shown to the agent never carries a credential, even if the API echoes it."""
    def clean(text: str) -> str:
        for secret in secrets:
            for form in dict.fromkeys([secret.split(" ", 1)[-1], secret]):
                if len(form) >= 4:
                    text = text.replace(form, "***")
        return text

    if not secrets:
        return outcome
    return ToolOutcome(structured=outcome.structured,
                       text=None if outcome.text is None else clean(outcome.text),
                       is_error=outcome.is_error, notes=tuple(map(clean, outcome.notes)),
                       status=outcome.status)


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
        entry = self.entries[tool_name]
        try:
            request = self.request_for(tool_name, arguments)
        except RequestError as exc:
            return ToolOutcome(text=f"Invalid arguments; nothing was sent to the API: {exc}",
                               is_error=True)
        headers, params, cookies = self._credentials(entry["binding"].get("security", []))
        url = request.url + (("&" if request.query else "?") + "&".join(params) if params
                             else "")
        all_headers = [*request.headers, *headers]
        cookie_pairs = [*request.cookies, *cookies]
        if cookie_pairs:
            all_headers.append(("Cookie", "; ".join(f"{k}={v}" for k, v in cookie_pairs)))
        if request.content_type is not None:
            all_headers.append(("Content-Type", request.content_type))
        all_headers.append(("Accept", entry["binding"].get("responseContentType")
                            or "application/json"))
        label = f"{request.method} {request.path}"
        if not urlsplit(url).scheme:
            return ToolOutcome(text=f"No server to call for {label}: the catalog's server URL "
                               "is relative; start toolcat serve with --base-url", is_error=True)
        secrets = [v for _, v in headers] + [v for _, v in cookies] + [
            p.split("=", 1)[1] for p in params]
        try:
            outcome = await self._send(entry, arguments, request.method, url, all_headers,
                                       request.body, label)
            return _redacted(outcome, secrets)
        except httpx2.TimeoutException:
            return ToolOutcome(text=f"The API did not answer {label} within "
                               f"{self.options.timeout:g} s", is_error=True)
        except httpx2.TransportError as exc:
            where = urlsplit(url).netloc
            return ToolOutcome(text=f"The API at {where} is unreachable ({type(exc).__name__}"
                               f"): {label} was not delivered", is_error=True)

    def _credentials(self, security: list[list[dict[str, Any]]]
                     ) -> tuple[list[tuple[str, str]], list[str], list[tuple[str, str]]]:
        """The first security alternative whose every credential is set in the environment."""
        for alternative in security:
            if any(s["type"] == "undeclared" for s in alternative):
                continue   # the document never says where that credential goes
            values = [self._secret(s) for s in alternative]
            if all(v is not None for v in values):
                return self._apply(alternative, [v for v in values if v is not None])
        return [], [], []

    def _secret(self, scheme: dict[str, Any]) -> str | None:
        """The value of the variable the config names for the scheme, else the one the
        binding records (a credential the document does not declare), else
        ``TOOLCAT_<CATALOG>_<SCHEME>``."""
        var = scheme_variable(self.catalog_name, scheme, self.options.credentials)
        value = self.environ.get(var)
        return value if value else None

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

    async def _send(self, entry: dict[str, Any], arguments: dict[str, Any], method: str,
                    url: str, headers: list[tuple[str, str]], body: bytes | None,
                    label: str) -> ToolOutcome:
        origin = urlsplit(url)[:2]
        client = self._http()
        # Field values are octets (RFC 9110 5.5): non-ASCII text goes as UTF-8, not refused.
        wire_headers = [(k.encode(), v.encode()) for k, v in headers]
        for _ in range(MAX_REDIRECTS + 1):
            request = client.build_request(method, url, headers=wire_headers, content=body)
            response = await client.send(request, stream=True)
            try:
                data = await self._read(response)
            finally:
                await response.aclose()
            if data is None:
                return ToolOutcome(text=f"The response to {label} is larger than "
                                   f"{self.options.max_response_bytes} bytes; not read",
                                   is_error=True)
            if response.status_code not in REDIRECTS:
                return self._outcome(entry, arguments, response, data, label)
            target = urljoin(url, response.headers.get("location", ""))
            if urlsplit(target)[:2] != origin:
                return ToolOutcome(text=f"{label} was redirected to another host "
                                   f"({urlsplit(target).netloc}); not followed",
                                   is_error=True)
            url = target
            if response.status_code == 303:
                method, body = "GET", None
        return ToolOutcome(text=f"{label}: more than {MAX_REDIRECTS} redirects", is_error=True)

    async def _read(self, response: httpx2.Response) -> bytes | None:
        chunks = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > self.options.max_response_bytes:
                return None
            chunks.append(chunk)
        return b"".join(chunks)

    def _outcome(self, entry: dict[str, Any], arguments: dict[str, Any],
                 response: httpx2.Response, data: bytes, label: str) -> ToolOutcome:
        status = response.status_code
        etag = response.headers.get("etag")
        notes = (f"ETag: {etag} (pass it as ifMatch to update this resource)",) if etag else ()
        if not 200 <= status < 300:
            excerpt = data[: self.options.excerpt_chars].decode("utf-8", "replace")
            text = f"The API answered {label} with HTTP {status} {response.reason_phrase}"
            if status == 412 and IF_MATCH in arguments:
                text += (". The resource changed since you read it (your ifMatch ETag is "
                         "stale): read it again, apply your change to the fresh copy, and "
                         "pass its new ETag as ifMatch")
            return ToolOutcome(text=f"{text}\n{excerpt}" if excerpt else text, is_error=True,
                               notes=notes)
        if not data:
            return ToolOutcome(text=f"HTTP {status}: done (no content)", notes=notes)
        kind = response.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind == "application/json" or kind.endswith("+json"):
            try:
                value = json.loads(data)
            except ValueError:
                return ToolOutcome(text=f"{label} answered HTTP {status} with invalid JSON: "
                                   f"{data[:self.options.excerpt_chars]!r}", is_error=True)
            wrapper = entry["binding"].get("outputWrapper")
            return ToolOutcome(structured={wrapper: value} if wrapper else value, notes=notes,
                               status=status)
        if kind.startswith("text/") or "xml" in kind:
            return ToolOutcome(text=data.decode("utf-8", "replace"), notes=notes, status=status)
        return ToolOutcome(text=f"HTTP {status}: {len(data)} bytes of {kind or 'data'} "
                           f"(base64): {base64.b64encode(data).decode()}", notes=notes)
