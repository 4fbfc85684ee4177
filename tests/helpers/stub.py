"""The recording, hostile stub API of scripts/stub_api.py (the fuzz and soak scripts use it too),
importable from tests."""

from __future__ import annotations

import sys

from .paths import REPO

sys.path.insert(0, str(REPO / "scripts"))
from stub_api import SHAPES, Recorded, StubApi

__all__ = ["SHAPES", "Recorded", "StubApi"]
