"""`toolcat serve --log-requests [FILE]`: one line per HTTP exchange with the API.

    2026-12-01T23:59:01.204Z POST https://api.test/v1/items?api_key=*** -> 201 (12 ms)
    2026-12-01T23:59:03.311Z GET https://api.test/v1/items/7 -> not sent: ConnectError (3 ms)

The URL is redacted by the caller (every form of every configured secret is `***`); headers
and bodies are never logged. Lines go to stderr (`-`) or are appended to a file, flushed each
time, so a user can watch what the server did without a stub API.
"""

from __future__ import annotations

import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO


class RequestLog:
    """Write one line per request; `stream` stays open until `close`."""

    def __init__(self, stream: TextIO, owned: bool = False) -> None:
        self.stream = stream
        self.owned = owned

    def record(self, method: str, url: str, result: str, started: float) -> None:
        """`result`: a status (`201`) or what went wrong; `started`: `time.monotonic()`."""
        elapsed = (time.monotonic() - started) * 1000
        stamp = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        line = f"{stamp} {method} {url} -> {result} ({elapsed:.0f} ms)\n"
        self.stream.write(line.encode("utf-8", "backslashreplace").decode("utf-8"))
        self.stream.flush()

    def close(self) -> None:
        if self.owned:
            self.stream.close()


def open_request_log(target: str) -> RequestLog:
    """`-` is stderr; anything else is a file, appended to (created if missing)."""
    if target == "-":
        return RequestLog(sys.stderr)
    return RequestLog(Path(target).open("a", encoding="utf-8"), owned=True)
