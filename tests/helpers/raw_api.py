"""A socket-level HTTP/1.1 stub API on 127.0.0.1 that records what really arrived.

Unlike a framework server it can misbehave the way real networks do: drip an answer one byte
at a time, reset the connection after reading the request, close without answering, send a
body that breaks off. Each request is parsed from the raw bytes (method, raw target, headers
as sent, body by Content-Length) and handed to `script(arrived, conn)`, which writes whatever
it likes to the socket.

    api = RawApi(lambda arrived, conn: respond(conn, 200, b'{"ok": true}'))
    base = api.start()
    ...
    api.arrived[0].target, api.arrived[0].headers["authorization"]
    api.stop()
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Arrived:
    method: str
    target: str
    headers: dict[str, str]      # lower-case names
    body: bytes


Script = Callable[[Arrived, socket.socket], None]


def _read_request(conn: socket.socket) -> Arrived | None:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            return None
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    method, target, _ = lines[0].split(" ", 2)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        rest += chunk
    return Arrived(method, target, headers, rest[:length])


def respond(conn: socket.socket, status: int, body: bytes = b"",
            headers: dict[str, str] | None = None, reason: str = "X") -> None:
    """A complete answer; JSON unless `headers` says otherwise; the connection closes."""
    fields = {"Content-Type": "application/json", **(headers or {}),
              "Content-Length": str(len(body)), "Connection": "close"}
    head = f"HTTP/1.1 {status} {reason}\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items())
    conn.sendall(head.encode("latin-1") + b"\r\n" + body)


def respond_json(conn: socket.socket, status: int, value: Any, **kwargs: Any) -> None:
    respond(conn, status, json.dumps(value).encode(), **kwargs)


def reset(conn: socket.socket) -> None:
    """Close with a TCP RST (SO_LINGER 0): the client sees a connection reset."""
    conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    conn.close()


def drip(conn: socket.socket, body: bytes, every: float, stop: threading.Event) -> None:
    """A 200 whose body comes one byte every `every` seconds (until the client gives up)."""
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                 + f"Content-Length: {len(body)}\r\n\r\n".encode())
    for byte in body:
        if stop.wait(every):
            return
        try:
            conn.sendall(bytes([byte]))
        except OSError:
            return


@dataclass
class RawApi:
    script: Script
    arrived: list[Arrived] = field(default_factory=list)
    stopping: threading.Event = field(default_factory=threading.Event)

    def start(self) -> str:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.sock.settimeout(0.2)
        threading.Thread(target=self._serve, daemon=True).start()
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}"

    def _serve(self) -> None:
        while not self.stopping.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        try:
            arrived = _read_request(conn)
            if arrived is not None:
                self.arrived.append(arrived)
                self.script(arrived, conn)
        except OSError:
            pass
        finally:
            with contextlib.suppress(OSError):
                conn.close()

    def stop(self) -> None:
        self.stopping.set()
        self.sock.close()
        time.sleep(0.05)
