"""Progress on stderr for runs that take more than a second.

Only when stderr is a terminal (a CI log or a pipe gets nothing) and not
``--quiet``. A background thread redraws one line every second after the first,
so short runs print nothing at all; the line is cleared when the work ends.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

DELAY = 1.0


@contextmanager
def progress(label: str, *, quiet: bool = False, stream: TextIO | None = None,
             delay: float = DELAY) -> Iterator[None]:
    """Show ``label`` and the seconds elapsed while the block runs longer than ``delay``."""
    out = stream if stream is not None else sys.stderr
    if quiet or not out.isatty():
        yield
        return
    done = threading.Event()
    start = time.monotonic()
    shown = [False]

    def draw() -> None:
        while not done.wait(delay if not shown[0] else 1.0):
            out.write(f"\r{label} ({time.monotonic() - start:.0f} s)\x1b[K")
            out.flush()
            shown[0] = True

    thread = threading.Thread(target=draw, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()
        if shown[0]:
            out.write("\r\x1b[K")
            out.flush()
