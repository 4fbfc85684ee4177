"""Requests built by toolcat's runtime (no network), judged by C's independent oracle.

Arguments are drawn by `tests/oracle/sample.py` (fixed seed, plus a variant with every
optional field); each becomes a request through `ApiHandler.request_for`, exactly what
`toolcat serve` would send, and `tests/oracle/client.judge` checks it against the ORIGINAL
document in its own venv. Relative server URLs are resolved against a placeholder host.
A call that carries a value no rule writes (an object among a form body's fields outside
deepObject, a nested list in a query) is marked as the contract oracle marks it
(`oracle.wire.build`, test code): the judge counts it "unserialisable", apart. deepObject
values, nested ones included, are judged (tests/oracle/deep_object.py).
"""

from __future__ import annotations

import base64
import signal
from collections.abc import Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from oracle.client import judge
from oracle.sample import Tally, arguments_for
from oracle.wire import build
from toolcat.runtime.api import ApiHandler, ApiOptions
from toolcat.runtime.request import HttpRequest, RequestError

PLACEHOLDER = "http://oracle.test"


def unserialisable(entry: dict[str, Any], arguments: dict[str, Any]) -> str | None:
    """Why no OpenAPI rule writes this call, as the contract oracle's request says."""
    why: str | None = build(entry, arguments, "").get("unserialisable")
    return why


def as_judged(request: HttpRequest, entry: dict[str, Any],
              arguments: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = {"body": None, "bodyBase64": None}
    if request.body is not None:
        try:
            body["body"] = request.body.decode("utf-8")
        except UnicodeDecodeError:
            body["bodyBase64"] = base64.b64encode(request.body).decode()
    binding = entry["binding"]
    why = unserialisable(entry, arguments)
    return {"method": request.method, "path": request.path, "query": request.query,
            "headers": dict(request.headers), "cookies": dict(request.cookies),
            "contentType": request.content_type, **body,
            "operation": f"{binding['method']} {binding['path']}",
            **({"unserialisable": why} if why else {})}


@contextmanager
def _time_limit(seconds: float | None) -> Iterator[None]:
    """Raise TimeoutError in this (main) thread after ``seconds``, then every second
    until the block ends: hypothesis swallows one error per variant drawn."""
    if seconds is None:
        yield
        return

    def expire(signum: int, frame: Any) -> None:
        raise TimeoutError(f"drawing took over {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def judge_runtime(spec: Path, catalog: dict[str, Any], count: int = 2, seed_value: int = 11,
                  *, base_url: str = PLACEHOLDER, tools: Collection[str] | None = None,
                  draw_seconds: float | None = None) -> Tally:
    """Tally of oracle verdicts for `count` draws per schema variant of every tool
    (or of the tools named). With `draw_seconds`, a tool whose arguments take longer
    to draw is counted undrawable (hypothesis-jsonschema on a huge schema)."""
    tally = Tally()
    handler = ApiHandler(catalog, ApiOptions(base_url=base_url))
    batch: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    for entry in catalog["tools"]:
        name = entry["tool"]["name"]
        if tools is not None and name not in tools:
            continue
        try:
            with _time_limit(draw_seconds):
                drawn = arguments_for(entry, count, seed_value, tally)
        except Exception:  # hypothesis-jsonschema cannot draw it (recursion, time)
            tally.undrawable.append(name)
            continue
        for args in drawn:
            try:
                request = handler.request_for(name, args)
            except RequestError as exc:
                # Refused before sending (CR/LF in a header): a verdict of its own.
                tally.classes["refused"] += 1
                tally.failures.append((name, args, {"errors": [str(exc)], "class": "refused"}))
                continue
            batch.append((name, args, as_judged(request, entry, args)))
    tally.count(batch, judge(spec, [r for _, _, r in batch]))
    return tally
