"""Talk to a stdio MCP transport over real pipes, as a client that waits for its answers."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

Serve = Callable[[BinaryIO, BinaryIO], None]


def exchange(serve: Serve, batches: list[list[bytes]],
             between: Callable[[int], None] | None = None) -> list[bytes]:
    """The answer lines to `batches` of request lines: each batch written at once, the next
    one after every request of it is answered (`between(number)` is called then); `serve`
    runs the server on the pipes' ends until the client closes its side."""
    in_read, in_write = os.pipe()
    out_read, out_write = os.pipe()
    answers: list[bytes] = []

    def client() -> None:
        pending = b""
        for number, batch in enumerate(batches):
            os.write(in_write, b"".join(batch))
            wanted = len(answers) + sum(b'"id"' in line for line in batch)
            while len(answers) < wanted:
                chunk = os.read(out_read, 1 << 16)
                assert chunk, "the server ended early"
                pending += chunk
                *lines, pending = pending.split(b"\n")
                answers.extend(line + b"\n" for line in lines)
            if between is not None:
                between(number)
        os.close(in_write)

    thread = threading.Thread(target=client)
    thread.start()
    with os.fdopen(in_read, "rb") as wire_in, os.fdopen(out_write, "wb") as wire_out:
        serve(wire_in, wire_out)
    thread.join()
    os.close(out_read)
    return answers


def lines(*messages: Any) -> list[bytes]:
    """Request lines: JSON messages (or bytes, as they are), each with its newline."""
    return [(m if isinstance(m, bytes) else json.dumps(m).encode()) + b"\n" for m in messages]


def initialize(request_id: Any, version: str = "2025-11-25") -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {},
                       "clientInfo": {"name": "t", "version": "1"}}}


INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def list_tools(request_id: Any, cursor: str | None = None, **extra: Any) -> dict[str, Any]:
    params = {} if cursor is None else {"cursor": cursor}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/list", "params": params,
            **extra}
