"""The two validation modes a catalog may choose (see generator/load/validation/findings.py)."""

from __future__ import annotations

from typing import Literal

Mode = Literal["strict", "warn"]
MODES: tuple[Mode, ...] = ("strict", "warn")
