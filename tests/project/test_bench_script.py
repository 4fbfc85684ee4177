"""`make bench` keeps working: scripts/bench.py measures the OAI petstore end to end.

The benchmark itself is not a test (it takes minutes); this runs it on one tiny
document, once, so a change to the CLI or to the corpus index cannot break it
unnoticed.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from helpers.paths import REPO, shared
from helpers.scripts import script

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


EXPANDED = "oai-examples/v3.0/petstore-expanded.json"


def test_scaling_slices_by_operations_and_measures_each_slice() -> None:
    """--scaling-only on the expanded petstore (4 operations): one row per slice, the
    sizes past the document's count folded into its whole, each generate exiting 0."""
    spec = shared("corpus", EXPANDED)
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "bench.py"),
                             "--scaling-only", "--scaling-spec", str(spec), "--sizes",
                             "1,3,10", "--runs", "1"], capture_output=True, text=True,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    rows = [[cell.strip() for cell in line.strip("|").split("|")]
            for line in result.stdout.splitlines() if re.match(r"\| \d", line)]
    assert [row[0] for row in rows] == ["1", "3", "4"], result.stdout
    assert [row[-1] for row in rows] == ["0", "0", "0"], f"exit codes: {rows}"
    assert rows[0][4] == "-", rows
    for row in rows:
        assert float(row[2]) > 0, f"CPU seconds: {row}"
        assert float(row[3]) == pytest.approx(float(row[2]) * 1000 / int(row[0]), rel=0.02)


def test_a_slice_keeps_the_first_operations_and_every_component() -> None:
    with script("bench") as bench:
        document = {"openapi": "3.0.3", "components": {"schemas": {"A": {}}},
                    "paths": {"/a": {"parameters": [], "get": {}, "post": {}},
                              "/b": {"get": {}, "delete": {}}, "/c": {"put": {}}}}
        part = bench.operations_slice(document, 3)
    assert part["paths"] == {"/a": {"parameters": [], "get": {}, "post": {}},
                             "/b": {"get": {}}}, part["paths"]
    assert part["components"] == document["components"]
    assert document["paths"]["/b"] == {"get": {}, "delete": {}}, "the document was changed"
