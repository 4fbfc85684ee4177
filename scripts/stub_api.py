"""A stub HTTP API on 127.0.0.1 that records what really arrives and answers in hostile shapes.

    with StubApi() as api:            # api.url = "http://127.0.0.1:PORT"
        api.shape = "surrogate"       # how the next requests are answered (SHAPES)
        ...                           # api.seen: Recorded(method, target, headers, body)

Used by scripts/fuzz_serve.py, scripts/soak_serve.py and their tests. Shared by nothing in
`generator/`: it judges toolcat from outside.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType

# name -> (status, content type, body); "drip", "reset" and "flood" are written specially.
BODIES: dict[str, tuple[int, str, bytes]] = {
    "ok": (200, "application/json", b'{"id": 1, "name": "x"}'),
    "surrogate": (200, "application/json", b'{"id": 1, "s": "\\udc00", "name": "\\ud800"}'),
    "wrong-type": (200, "application/json", b'[1, "two", null, {"id": "1"}]'),
    "not-json": (200, "application/json", b"<html>\x1b]0;pwned\x07\xff\xfe</html>"),
    "empty": (204, "application/json", b""),
    "error": (500, "application/json", b'{"error": "boom \\ud800"}'),
    "echo": (200, "application/json", b""),   # the request's headers and target, as JSON
}
SHAPES = (*BODIES, "drip", "reset", "flood")


@dataclass(frozen=True)
class Recorded:
    method: str
    target: str
    headers: dict[str, str]
    body: bytes


@dataclass
class StubApi:
    shape: str = "ok"
    drip_seconds: float = 0.5
    flood_bytes: int = 50_000_000
    seen: list[Recorded] = field(default_factory=list)

    def __enter__(self) -> StubApi:
        stub = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True   # else 40 ms per answer (delayed ACK)

            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                stub.seen.append(Recorded(self.command, self.path, dict(self.headers.items()),
                                          body))
                stub.answer(self)

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = _any

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}"

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.server.shutdown()
        self.server.server_close()

    def answer(self, handler: BaseHTTPRequestHandler) -> None:
        shape = self.shape
        if shape == "reset":   # the request was read in full; the answer never comes
            handler.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                          struct.pack("ii", 1, 0))
            handler.close_connection = True
            handler.connection.close()
            return
        if shape == "drip":
            _head(handler, 200, "application/json", 40)
            for byte in b'{"id": 1, "name": "' + b"x" * 19 + b'"}':
                time.sleep(self.drip_seconds)
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
            return
        if shape == "flood":
            _head(handler, 200, "application/json", self.flood_bytes)
            chunk = b" " * 65536
            try:
                for _ in range(self.flood_bytes // len(chunk)):
                    handler.wfile.write(chunk)
            except OSError:
                pass
            return
        status, kind, body = BODIES[shape]
        if shape == "echo":
            body = json.dumps({"target": handler.path,
                               "headers": dict(handler.headers.items())}).encode()
        _head(handler, status, kind, len(body))
        handler.wfile.write(body)


def _head(handler: BaseHTTPRequestHandler, status: int, kind: str, length: int) -> None:
    handler.send_response(status)
    handler.send_header("Content-Type", kind)
    handler.send_header("Content-Length", str(length))
    handler.end_headers()
