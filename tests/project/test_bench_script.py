"""`make bench` keeps working: scripts/bench.py measures the OAI petstore end to end.

The benchmark itself is not a test (it takes minutes); this runs it on one tiny
document, once, so a change to the CLI or to the corpus index cannot break it
unnoticed.
"""

from __future__ import annotations

import subprocess
import sys

from helpers.paths import REPO, shared

PETSTORE = "oai-examples/v3.0/petstore.yaml"


def test_bench_measures_the_petstore() -> None:
    shared("corpus", PETSTORE)
    shared("corpus", "INDEX.md")
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "bench.py"), "--only",
                             PETSTORE, "--runs", "1"], capture_output=True, text=True,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith(f"| {PETSTORE} ")]
    assert len(rows) == 1, result.stdout
    cells = [cell.strip() for cell in rows[0].strip("|").split("|")]
    assert cells[1:3] == ["3", "3"], f"operations/tools of the petstore: {cells}"
    assert cells[-1] == "0/0/0", f"exit codes of generate/check/regenerating: {cells}"
    for seconds in (cells[5], cells[8], cells[10]):
        assert float(seconds) > 0, f"a measured time is missing: {cells}"
