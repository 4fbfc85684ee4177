"""A fixed-seed slice of `make fuzz`: 60 mutated real specs through `generate`, each
in both validation modes.

Each run must exit 0 with a meta-valid catalog, or exit 2 with every problem
located (file and JSON pointer or line): no traceback, signal or hang
(scripts/fuzz.py says how cases are made and judged). `make fuzz` runs 1,000.
Warn mode matters most: there the validator's verdict does not stop a broken
shape, and toolcat's own readers must (issue 28 items 5-7; case 55 of seed 1, a
`content` that is a list, was an internal error in warn mode before).
"""

from __future__ import annotations

import json
import subprocess
import sys

from helpers.paths import REPO, shared


def test_fifty_mutated_specs_end_well() -> None:
    shared("corpus", "INDEX.md")
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "fuzz.py"), "--cases",
                             "60", "--seed", "1", "--timeout", "60", "--json"],
                            capture_output=True, text=True, timeout=600, check=False)
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["cases"] == 60
    assert summary["failures"] == 0, result.stdout
    assert result.returncode == 0, result.stderr[-2000:]
    assert sorted(summary["modes"]) == ["strict", "warn"], summary
    for mode, counts in summary["modes"].items():
        assert sum(counts["ends"].values()) == 60, (mode, counts)
        # Both outcomes are exercised in each mode, so neither judge is idle.
        assert counts["ends"].get("exit 0", 0) > 0, (mode, summary)
        assert counts["ends"].get("exit 2", 0) > 0, (mode, summary)
