"""models.py is written with Python's cyclic garbage collector paused, and the same bytes.

datamodel-code-generator and black run with the collector off (on Stripe black's CPU
seconds fell from 37 to 23): it is off inside both steps and as it was before after
them, and the bytes are those of a render with the collector running throughout.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from toolcat.model.types import Catalog
from toolcat.models import render
from toolcat.text.python_format import black_format


def _recording(seen: list[bool]) -> Callable[[str], str]:
    def formatter(text: str) -> str:
        seen.append(gc.isenabled())
        return black_format(text)
    return formatter


def test_collector_off_in_both_steps_and_on_again(example_catalog: Catalog,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    generate = render._generate

    def recording_generate(canonical: str) -> object:
        seen.append(gc.isenabled())
        return generate(canonical)

    monkeypatch.setattr(render, "_generate", recording_generate)
    assert gc.isenabled()
    render.render_models(example_catalog, formatter=_recording(seen))
    assert seen == [False, False], "collector enabled during (datamodel-code-generator, black)"
    assert gc.isenabled(), "the collector stays off after models.py is written"


def test_a_collector_off_before_stays_off(example_catalog: Catalog) -> None:
    gc.disable()
    try:
        render.render_models(example_catalog)
        assert not gc.isenabled(), "the render turned on a collector its caller had off"
    finally:
        gc.enable()


def _collections_during(step: Callable[..., object], counts: list[int]
                       ) -> Callable[..., object]:
    """``step``, appending how many collector passes ran while it ran."""
    def counted(*args: object) -> object:
        passes: list[int] = []

        def callback(phase: str, _info: dict[str, int]) -> None:
            if phase == "start":
                passes.append(1)

        gc.callbacks.append(callback)
        try:
            return step(*args)
        finally:
            gc.callbacks.remove(callback)
            counts.append(len(passes))
    return counted


def test_same_bytes_as_with_the_collector_running(example_catalog: Catalog,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison is real: with ``collector_paused`` replaced, the collector runs
    inside both steps (a render that paused it some other way fails here)."""
    paused = render.render_models(example_catalog)

    @contextmanager
    def collecting() -> Iterator[None]:
        gc.collect()   # and keep it running, collecting after every 10 allocations
        threshold = gc.get_threshold()
        gc.set_threshold(10, 1, 1)
        try:
            yield
        finally:
            gc.set_threshold(*threshold)

    counts: list[int] = []
    monkeypatch.setattr(render, "collector_paused", collecting)
    monkeypatch.setattr(render, "_generate", _collections_during(render._generate, counts))
    running = render.render_models(
        example_catalog, formatter=_collections_during(black_format, counts))  # type: ignore[arg-type]
    assert len(counts) == 2, counts
    assert all(counts), f"collector passes during (datamodel-code-generator, black): {counts}"
    assert running == paused


def test_collector_on_again_when_a_step_fails(example_catalog: Catalog) -> None:
    """An error inside a paused step (black refusing its input) leaves the collector
    as it was: a long-lived process (serve, a test run) keeps collecting."""
    def refusing(_text: str) -> str:
        raise ValueError("black refused")

    with pytest.raises(ValueError, match="black refused"):
        render.render_models(example_catalog, formatter=refusing)
    assert gc.isenabled(), "the collector stayed off after a failed render"
