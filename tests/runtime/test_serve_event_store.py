"""The bounded event store behind the SSE priming event: ids grow, a resumed stream gets only
its own later events, and the store forgets the oldest beyond its capacity."""

from __future__ import annotations

from typing import Any

import anyio
from toolcat.runtime.streams import BoundedEventStore


def _replay(store: BoundedEventStore, after: str) -> tuple[str | None, list[tuple[str, Any]]]:
    sent: list[tuple[str, Any]] = []

    async def send(event: Any) -> None:
        sent.append((event.event_id, event.message))

    async def run() -> str | None:
        return await store.replay_events_after(after, send)

    return anyio.run(run), sent


def _store(store: BoundedEventStore, *events: tuple[str, Any]) -> list[str]:
    async def run() -> list[str]:
        return [await store.store_event(stream, message) for stream, message in events]

    return anyio.run(run)


def test_a_resumed_stream_gets_its_own_later_events_only() -> None:
    store = BoundedEventStore()
    ids = _store(store, ("a", None), ("b", None), ("a", "one"), ("b", "other"), ("a", "two"))
    assert ids == ["1", "2", "3", "4", "5"]
    stream, sent = _replay(store, ids[0])  # resumed after a's priming event
    assert stream == "a"
    assert sent == [("3", "one"), ("5", "two")]


def test_unknown_or_forgotten_ids_replay_nothing() -> None:
    store = BoundedEventStore(capacity=2)
    _store(store, ("a", None), ("a", "one"), ("a", "two"))
    assert _replay(store, "1") == (None, [])  # the priming event was dropped
    assert _replay(store, "x") == (None, [])
    assert _replay(store, "2") == ("a", [("3", "two")])
