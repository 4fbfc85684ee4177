"""`make bench` keeps reporting models.py cost: scripts/bench_models.py on the petstore."""

from __future__ import annotations

import subprocess
import sys

from helpers.paths import REPO, shared

PETSTORE = "oai-examples/v3.0/petstore.yaml"


def test_bench_models_measures_the_petstore() -> None:
    shared("corpus", PETSTORE)
    shared("corpus", "INDEX.md")
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "bench_models.py"),
                             "--only", PETSTORE, "--runs", "1"], capture_output=True,
                            text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith(f"| {PETSTORE} ")]
    assert len(rows) == 1, result.stdout
    cells = [cell.strip() for cell in rows[0].strip("|").split("|")]
    assert cells[1] == "3", f"tools of the petstore: {cells}"
    assert int(cells[3]) >= 4, f"classes: {cells}"
    assert cells[-1] == "", f"note: {cells}"
    for seconds in cells[4:7]:
        float(seconds)
