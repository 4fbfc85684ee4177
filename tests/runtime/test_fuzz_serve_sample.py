"""A fixed-seed slice of `make fuzz-serve` (scripts/fuzz_serve.py says how cases are made and
judged): whatever the arguments and whatever the API answers, the server never dies, never
hangs past its deadline, never sends outside the declared template and never shows a
configured secret. `make fuzz-serve` runs the full set and reports every class.
"""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from helpers.paths import REPO, shared


@pytest.fixture(scope="module")
def summary() -> dict[str, Any]:
    shared("corpus", "INDEX.md")
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "fuzz_serve.py"),
                             "--cases", "40", "--seed", "3", "--documents",
                             "broadcast,museum,links", "--json"],
                            capture_output=True, text=True, timeout=600, check=False)
    got: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    got["report"] = result.stdout
    assert got["cases"] == 40, result.stderr[-2000:]
    return got


def test_never_dies_nor_hangs(summary: dict[str, Any]) -> None:
    assert summary["by_class"].get("died", 0) == 0, summary["report"]
    assert summary["by_class"].get("hang", 0) == 0, summary["report"]
    # The slice is not idle: calls reached the API, in more than one answer shape.
    assert summary["api_requests"] > 5, summary
    assert len(summary["shapes"]) > 5, summary


def test_never_leaves_the_template_nor_shows_a_secret(summary: dict[str, Any]) -> None:
    assert summary["by_class"].get("outside-template", 0) == 0, summary["report"]
    assert summary["by_class"].get("secret-shown", 0) == 0, summary["report"]
