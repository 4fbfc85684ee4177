"""A fixed-seed slice of `make fuzz`: 50 mutated real specs through `generate`.

Each case must exit 0 with a meta-valid catalog, or exit 2 with every problem
located (file and JSON pointer or line): no traceback, signal or hang
(scripts/fuzz.py says how cases are made and judged). `make fuzz` runs 1,000.
"""

from __future__ import annotations

import json
import subprocess
import sys

from helpers.paths import REPO, shared


def test_fifty_mutated_specs_end_well() -> None:
    shared("corpus", "INDEX.md")
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "fuzz.py"), "--cases",
                             "50", "--seed", "1", "--timeout", "60", "--json"],
                            capture_output=True, text=True, timeout=600, check=False)
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["cases"] == 50
    assert summary["failures"] == 0, result.stdout
    assert result.returncode == 0, result.stderr[-2000:]
    # Both outcomes are exercised, so neither judge is idle.
    assert summary["ends"].get("exit 0", 0) > 0, summary
    assert summary["ends"].get("exit 2", 0) > 0, summary
