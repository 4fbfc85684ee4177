"""Progress on stderr: only on a terminal, only after the delay, never with --quiet."""

from __future__ import annotations

import io
import time

from toolcat.progress import progress


class _Tty(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def _run(*, tty: bool, quiet: bool = False, seconds: float = 0.3) -> str:
    stream = _Tty(tty)
    with progress("demo: generating", quiet=quiet, stream=stream, delay=0.1):
        time.sleep(seconds)
    return stream.getvalue()


def test_slow_run_on_a_terminal_shows_and_clears_the_line() -> None:
    text = _run(tty=True)
    assert "\rdemo: generating (0 s)" in text
    assert text.endswith("\r\x1b[K"), "the progress line is not cleared"


def test_fast_run_prints_nothing() -> None:
    assert _run(tty=True, seconds=0.0) == ""


def test_not_a_terminal_prints_nothing() -> None:
    assert _run(tty=False) == ""


def test_quiet_prints_nothing() -> None:
    assert _run(tty=True, quiet=True) == ""
