"""A stub HTTP API on 127.0.0.1 that records what really arrives: method, the raw request
target (as the request line carries it, before any normalisation), headers and body; it
answers every request ``200 {}``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler

from .http_stub import serving


@dataclass(frozen=True)
class Arrived:
    method: str
    target: str                      # the raw request target, e.g. `/api/users/a/repos/b?x=1`
    headers: dict[str, str]          # lower-case names
    body: bytes


@dataclass
class RecordingApi:
    base: str = ""
    seen: list[Arrived] = field(default_factory=list)


@contextmanager
def recording_api(answer: object | None = None) -> Iterator[RecordingApi]:
    """A running stub; ``base`` is its URL with the base path ``/api``."""
    api = RecordingApi()
    payload = json.dumps({} if answer is None else answer).encode()

    class Handler(BaseHTTPRequestHandler):
        def _any(self) -> None:
            size = int(self.headers.get("content-length") or 0)
            api.seen.append(Arrived(self.command, self.path,
                                    {k.lower(): v for k, v in self.headers.items()},
                                    self.rfile.read(size)))
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = _any

        def log_message(self, *args: object) -> None:
            pass

    with serving(Handler) as url:
        api.base = f"{url}/api"
        yield api
