"""Resumable SSE streams for the streamable HTTP transport: a priming event and a retry hint.

The transport (2025-11-25 and later) says a server SHOULD open the SSE stream of a POST with
an event that has an `id` and empty `data`, so that a client whose connection drops can
reconnect with `Last-Event-ID` and get what it missed, and MAY send `retry` to say how long
to wait before it reconnects. The SDK sends both when it is given an event store; this is a
bounded one in memory: one process, the last `capacity` events, nothing written to disk.
A tool call is one request and one answer, so a stream replays at most a few events.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from mcp.server.streamable_http import EventCallback, EventMessage, EventStore

# How long a client waits before it reconnects to a dropped stream (the SSE `retry` field).
RETRY_MS = 1000
# Events kept for replay, across all streams of the process; the oldest go first.
CAPACITY = 1024


class BoundedEventStore(EventStore):
    """The last `capacity` events in memory, with ids that are a per-process counter."""

    def __init__(self, capacity: int = CAPACITY) -> None:
        self._events: deque[tuple[int, str, Any]] = deque(maxlen=capacity)
        self._next = 0

    async def store_event(self, stream_id: str, message: Any) -> str:
        self._next += 1
        self._events.append((self._next, stream_id, message))
        return str(self._next)

    async def replay_events_after(self, last_event_id: str,
                                  send_callback: EventCallback) -> str | None:
        if not last_event_id.isdigit():
            return None
        after = int(last_event_id)
        stream = next((s for n, s, _ in self._events if n == after), None)
        if stream is None:
            return None
        for number, stream_id, message in list(self._events):
            if number > after and stream_id == stream and message is not None:
                await send_callback(EventMessage(message, str(number)))
        return stream


def stream_options() -> dict[str, Any]:
    """Keyword arguments for `Server.streamable_http_app`: priming events and `retry`."""
    return {"event_store": BoundedEventStore(), "retry_interval": RETRY_MS}
