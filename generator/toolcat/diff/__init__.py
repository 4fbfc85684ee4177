"""Compare two catalogs and say, per tool, what changed and whether it breaks callers.

load.py reads a side (a catalog.json, a catalog folder, or a path at a git
revision); schemas.py compares two JSON Schemas structurally; classify.py turns
tool, binding and annotation differences into classified changes; report.py
renders them for a terminal or a pull-request comment; command.py is
``toolcat diff``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..config import Target


@dataclass(frozen=True)
class StaleCheck:
    """Handed down by the CLI (diff ranks below the flows that answer it): is this
    catalog stale against its spec? Kept here, not in command.py, so the CLI can
    name it without importing the diff command at start-up."""

    stale: Callable[[Target], bool]
