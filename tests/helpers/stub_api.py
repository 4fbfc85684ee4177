"""The stub API of the tests and of the fuzz and soak scripts: HTTP/1.1 on 127.0.0.1, at a free
port, recording what really arrived and answering as the test says.

    with StubApi(replying(200, {"ok": True})) as api:     # api.url = "http://127.0.0.1:PORT"
        ...
    api.seen[0].method, .target, .headers["authorization"], .body

Requests are parsed from the raw bytes, so nothing is normalised on the way: `target` is the
request target as the request line carried it, `fields` the header lines as sent (name case,
order, repeats), `headers` the same by lower-case name. An answer is a function
`answer(arrived, conn)` that writes whatever it likes to the connection: a whole reply
(`conn.respond`, `conn.json`), bytes that break off (`conn.send`), a TCP reset
(`conn.reset`), a body one byte at a time (`conn.drip`). The connection closes after the
answer unless it was `respond(..., keep_alive=True)`. `shape(name)` gives the hostile answers
of `SHAPES` (lone surrogates, wrong types, a flood...) that scripts/fuzz_serve.py picks from.
"""

from __future__ import annotations

import contextlib
import json
import socket
import socketserver
import struct
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from http.client import responses
from types import TracebackType
from typing import Any, BinaryIO


@dataclass(frozen=True)
class Arrived:
    method: str
    target: str                          # raw, e.g. `/api/users/a/repos/b?x=1`
    fields: tuple[tuple[str, str], ...]  # header lines as sent
    body: bytes

    @property
    def headers(self) -> dict[str, str]:
        """By lower-case name (a repeated header: its last value)."""
        return {name.lower(): value for name, value in self.fields}


class Conn:
    """One accepted connection, for an answer to write to."""

    def __init__(self, sock: socket.socket, stopping: threading.Event) -> None:
        self.sock, self.stopping, self.keep_alive = sock, stopping, False

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def respond(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None,
                reason: str | None = None, keep_alive: bool = False,
                media: str | None = "application/json") -> None:
        """A complete answer in one write: `media` is its Content-Type unless `headers` names
        one (None: none at all); `reason` the status's usual phrase unless given."""
        fields = {**({"Content-Type": media} if media else {}), **(headers or {}),
                  "Content-Length": str(len(body))}
        if not keep_alive:
            fields["Connection"] = "close"
        head = f"HTTP/1.1 {status} {reason or responses.get(status, 'X')}\r\n" + "".join(
            f"{k}: {v}\r\n" for k, v in fields.items())
        self.sock.sendall(head.encode("latin-1") + b"\r\n" + body)
        self.keep_alive = keep_alive

    def json(self, status: int, value: Any, **kwargs: Any) -> None:
        self.respond(status, json.dumps(value).encode(), **kwargs)

    def reset(self) -> None:
        """Close with a TCP RST (SO_LINGER 0): the client sees a connection reset."""
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.sock.close()

    def drip(self, body: bytes, every: float) -> None:
        """A 200 whose body comes one byte every `every` seconds (until the client gives up
        or the stub stops)."""
        self.send(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                  + f"Content-Length: {len(body)}\r\n\r\n".encode())
        for byte in body:
            if self.stopping.wait(every):
                return
            self.send(bytes([byte]))


Answer = Callable[[Arrived, Conn], None]


def replying(status: int = 200, value: Any = None, headers: dict[str, str] | None = None
             ) -> Answer:
    """Every request answered `status` with `value` as JSON (`{}` when None)."""
    body = json.dumps({} if value is None else value).encode()
    return lambda arrived, conn: conn.respond(status, body, headers, keep_alive=True)


def read_request(stream: BinaryIO) -> Arrived | None:
    """One request from the raw bytes (its body by Content-Length); None at the end."""
    parts = stream.readline().decode("latin-1").rstrip("\r\n").split(" ", 2)
    if len(parts) != 3:
        return None
    fields = []
    while (line := stream.readline()) not in (b"\r\n", b"\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        fields.append((name.strip(), value.strip()))
    head = Arrived(parts[0], parts[1], tuple(fields), b"")
    length = int(head.headers.get("content-length") or 0)
    return replace(head, body=stream.read(length)) if length else head


@dataclass
class StubApi:
    answer: Answer = field(default_factory=replying)
    seen: list[Arrived] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def __enter__(self) -> StubApi:
        stub = self

        class Handler(socketserver.StreamRequestHandler):
            def handle(self) -> None:
                self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                conn = Conn(self.request, stub.stopping)
                with contextlib.suppress(OSError):
                    while (arrived := read_request(self.rfile)) is not None:
                        stub.seen.append(arrived)
                        conn.keep_alive = False
                        stub.answer(arrived, conn)
                        if not conn.keep_alive:
                            break

        self.server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, args=(0.05,), daemon=True).start()
        return self

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()


def free_port() -> int:
    """A port on 127.0.0.1 that was free a moment ago (nobody listens there)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


# -- hostile shapes: scripts/fuzz_serve.py picks one per case -----------------------------

BODIES: dict[str, tuple[int, bytes]] = {
    "ok": (200, b'{"id": 1, "name": "x"}'),
    "surrogate": (200, b'{"id": 1, "s": "\\udc00", "name": "\\ud800"}'),
    "wrong-type": (200, b'[1, "two", null, {"id": "1"}]'),
    "not-json": (200, b"<html>\x1b]0;pwned\x07\xff\xfe</html>"),
    "empty": (204, b""),
    "error": (500, b'{"error": "boom \\ud800"}'),
}
SHAPES = (*BODIES, "echo", "drip", "reset", "flood")


def shape(name: str, drip_seconds: float = 0.5, flood_bytes: int = 50_000_000) -> Answer:
    """The answer of one of SHAPES: a body of BODIES; `echo` (the request's target and
    headers as JSON); `drip` (40 bytes, one per `drip_seconds`); `reset` (after reading the
    request in full); `flood` (`flood_bytes` of blanks)."""
    if name == "echo":
        return lambda a, conn: conn.json(200, {"target": a.target, "headers": dict(a.fields)},
                                         keep_alive=True)
    if name == "drip":
        return lambda a, conn: conn.drip(b'{"id": 1, "name": "' + b"x" * 19 + b'"}',
                                         drip_seconds)
    if name == "reset":
        return lambda a, conn: conn.reset()
    if name == "flood":
        return lambda a, conn: _flood(conn, flood_bytes)
    status, body = BODIES[name]
    return lambda a, conn: conn.respond(status, body, keep_alive=True)


def _flood(conn: Conn, size: int) -> None:
    conn.send(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
              + f"Content-Length: {size}\r\n\r\n".encode())
    chunk = b" " * 65536
    for _ in range(size // len(chunk)):
        conn.send(chunk)
