"""`make bench` keeps working: scripts/bench.py measures the OAI petstore end to end.

The benchmark itself is not a test (it takes minutes); this runs it on one tiny
document, once, so a change to the CLI or to the corpus index cannot break it
unnoticed.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

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


def test_a_slice_spreads_over_the_document_and_holds_the_smaller_slices() -> None:
    """A slice of N keeps exactly N operations, in the document's order, drawn from all
    over it (not its first paths), each slice inside the next; a path item's own keys
    stay with it, a path item without a kept operation goes, components stay whole."""
    paths = {f"/p{i:03}": {"parameters": [{"name": "x"}], "get": {}, "delete": {}}
             for i in range(200)}
    document = {"openapi": "3.0.3", "components": {"schemas": {"A": {}}}, "paths": paths}
    with script("bench") as bench:
        slices = {n: bench.operations_slice(document, n) for n in (0, 10, 100, 400, 999)}
    kept = {n: [(p, m) for p, item in part["paths"].items() for m in item if m != "parameters"]
            for n, part in slices.items()}
    assert [len(kept[n]) for n in (0, 10, 100, 400, 999)] == [0, 10, 100, 400, 400], kept[10]
    assert set(kept[10]) < set(kept[100]) < set(kept[400]), "a slice holds the smaller ones"
    assert kept[100] == sorted(kept[100], key=lambda pm: (pm[0], pm[1] == "delete"))
    assert kept[100][-1][0] > "/p150", "not spread"
    assert kept[100][0][0] < "/p050", "not spread"
    assert all(item["parameters"] == [{"name": "x"}] for item in slices[10]["paths"].values())
    assert len(slices[10]["paths"]) <= 10
    assert slices[10]["components"] == document["components"]
    assert document["paths"]["/p000"] == {"parameters": [{"name": "x"}], "get": {},
                                          "delete": {}}, "the document was changed"


def test_flatness_compares_the_upper_half_with_the_lower() -> None:
    """Linear CPU (1 ms per operation) reads about 1; CPU growing as the square reads the
    ratio the sentence gives for a square."""
    with script("bench") as bench:
        linear = bench.flatness([(n, 0.5 + n / 1000) for n in (100, 500, 1000, 1500)])
        square = bench.flatness([(n, 0.5 + n * n / 1e6) for n in (100, 500, 1000, 1500)])
    assert "from 100 to 1,000 operations: 1.00 ms; from 1,000 to 1,500: 1.00 ms; " \
           "upper / lower 1.00" in linear, linear
    assert "upper / lower 2.27" in square, square
    assert "the square of the operations 2.27" in square, square


def test_toolcat_is_measured_with_its_bytecode_written(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A module edited since its last compile is compiled before measuring, not in every
    measured run (PYTHONDONTWRITEBYTECODE would make each run compile it in memory)."""
    module = tmp_path / "edited.py"
    module.write_text("VALUE = 1\n")
    with script("bench") as bench:
        bench.compiled([str(tmp_path)])
        assert Path(importlib.util.cache_from_source(str(module))).is_file()
        asked: list[object] = []
        monkeypatch.setattr(bench, "compiled", lambda folders=None: asked.append(folders))
        assert bench.toolcat()
        assert asked == [None], "toolcat() measures without compiling"
