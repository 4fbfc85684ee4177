"""Progress on stderr: only on a terminal, only after the delay, never with --quiet.

Event-driven, so load on the machine cannot flip a verdict: a slow block waits until the
line is drawn (or a generous deadline passes), and a fast block is given a delay no
scheduler could reach.
"""

from __future__ import annotations

import io
import threading

from toolcat.progress import progress

NEVER = 3600.0      # a delay no test block lasts
DEADLINE = 30.0     # how long a slow block waits for the first draw


class _Tty(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty
        self.drawn = threading.Event()

    def isatty(self) -> bool:
        return self.tty

    def write(self, text: str) -> int:
        written = super().write(text)
        self.drawn.set()
        return written


def test_slow_run_on_a_terminal_shows_and_clears_the_line() -> None:
    stream = _Tty(True)
    with progress("demo: generating", stream=stream, delay=0.01):
        assert stream.drawn.wait(DEADLINE), "no progress line within the deadline"
    text = stream.getvalue()
    assert text.startswith("\rdemo: generating (0 s)\x1b[K"), text
    assert text.endswith("\r\x1b[K"), "the progress line is not cleared"


def test_fast_run_prints_nothing() -> None:
    stream = _Tty(True)
    with progress("demo: generating", stream=stream, delay=NEVER):
        pass
    assert stream.getvalue() == ""


def test_not_a_terminal_prints_nothing() -> None:
    stream = _Tty(False)
    with progress("demo: generating", stream=stream, delay=0.0):
        assert not stream.drawn.wait(0.2)
    assert stream.getvalue() == ""


def test_quiet_prints_nothing() -> None:
    stream = _Tty(True)
    with progress("demo: generating", quiet=True, stream=stream, delay=0.0):
        assert not stream.drawn.wait(0.2)
    assert stream.getvalue() == ""
