"""Import a script of scripts/ as a module (they are importable only from that folder)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from .paths import REPO

SCRIPTS = REPO / "scripts"


@contextmanager
def script(name: str) -> Iterator[ModuleType]:
    """`scripts/<name>.py` as a module, with scripts/ on sys.path while it is in use."""
    sys.path.insert(0, str(SCRIPTS))
    try:
        yield importlib.import_module(name)
    finally:
        sys.path.remove(str(SCRIPTS))
