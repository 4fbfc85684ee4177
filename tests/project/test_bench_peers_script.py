"""`make bench-peers` keeps working, without FastMCP: the toolcat half and the table.

scripts/bench_peers.py installs FastMCP in its own venv under .bench/ and takes many
minutes; the suite never does that. It runs the script's toolcat half on the OAI
petstore (--toolcat-only: no venv, no network), and feeds the table and the failure
reader made-up runs, FastMCP's kind of failure and a timeout included.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from helpers.paths import REPO, shared
from helpers.scripts import script

PETSTORE = "oai-examples/v3.0/petstore.yaml"
SCRIPT = REPO / "scripts" / "bench_peers.py"


@pytest.fixture(scope="module")
def peers() -> Iterator[ModuleType]:
    with script("bench_peers") as module:
        yield module


def _cells(stdout: str, label: str) -> list[str]:
    """The cells of label's row in the main table (the one before the legend)."""
    main = stdout.split("\n\n", maxsplit=1)[0]
    rows = [line for line in main.splitlines() if line.startswith(f"| {label} ")]
    assert len(rows) == 1, stdout
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", rows[0].strip("|"))]


def test_toolcat_half_measures_the_petstore() -> None:
    shared("corpus", PETSTORE)
    shared("corpus", "INDEX.md")
    result = subprocess.run([sys.executable, str(SCRIPT), "--toolcat-only", "--only",
                             PETSTORE, "--runs", "1"], capture_output=True, text=True,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "fastmcp" not in result.stderr.lower(), f"FastMCP was set up: {result.stderr}"
    cells = _cells(result.stdout, PETSTORE)
    assert cells[1:4] == ["-", "-", "-"], f"FastMCP's cells without FastMCP: {cells}"
    assert cells[4] == "3", f"toolcat's tools on the petstore: {cells}"
    assert float(cells[5]) > 0, f"toolcat seconds: {cells}"
    assert float(cells[6]) > 0, f"toolcat MB: {cells}"
    assert cells[7] == "-", f"a ratio without FastMCP: {cells}"
    assert cells[8] == "FastMCP: not measured (--toolcat-only)", cells


def test_table_gives_ratio_timeout_and_failures(peers: ModuleType, tmp_path: Path) -> None:
    run, side = peers.Run, peers.Side
    ok = peers.Row("fast", tmp_path / "a.json",
                   fastmcp=side([run(0, 9.0, 8.0, 2048), run(0, 12.0, 8.0, 4096),
                                 run(0, 30.0, 8.0, 1024)], tools="5",
                                phases=[{"import": 1.0, "load": 2.0, "build": 3.0,
                                         "list": 4.0}]),
                   toolcat=side([run(0, 3.0, 2.0, 1024), run(0, 2.0, 2.0, 1024),
                                 run(0, 4.0, 2.0, 3072)], tools="5"))
    slow = peers.Row("slow", tmp_path / "b.json",
                     fastmcp=side([run(-9, 600.2, 1.0, 10240)],
                                  note="timeout (killed after 600 s)"),
                     toolcat=side([run(2, 0.5, 0.4, 1024)], note="exit 2: a | b"))
    text = peers.table([ok, slow], 3, 600.0, {"fastmcp": "4.1.6", "mcp": "2.3.0"})
    assert _cells(text, "fast")[1:] == ["5", "12.00", "4", "5", "3.00", "3", "4.0", ""]
    assert _cells(text, "slow")[1:] == [
        "-", "timeout", "10", "-", "failed", "1", "-",
        "FastMCP: timeout (killed after 600 s); toolcat: exit 2: a \\| b"]
    assert "FastMCP 4.1.6 (mcp 2.3.0" in text, text
    assert "| fast | 1.00 | 2.00 | 3.00 | 4.00 |" in text, text


def test_failure_names_the_step_or_the_timeout(peers: ModuleType, tmp_path: Path) -> None:
    log, spec = tmp_path / "log.txt", tmp_path / "spec.yaml"
    log.write_text("some warning\nFAILED in from_openapi: ValueError: Invalid\n")
    assert (peers.failure(peers.Run(1, 1.0, 1.0, 1), log, 600.0, spec)
            == "exit 1 in from_openapi: ValueError: Invalid")
    log.write_text("Traceback (most recent call last):\n  File \"x\"\nMemoryError\n")
    assert peers.failure(peers.Run(1, 1.0, 1.0, 1), log, 600.0, spec) == "exit 1: MemoryError"
    log.write_text(f"{spec}: /paths: invalid OpenAPI: bad\n  fix: look\n")
    assert (peers.failure(peers.Run(2, 1.0, 1.0, 1), log, 600.0, spec)
            == "exit 2: /paths: invalid OpenAPI: bad")
    log.write_text("")
    assert (peers.failure(peers.Run(-9, 600.0, 1.0, 1), log, 600.0, spec)
            == "timeout (killed after 600 s)")
    assert peers.failure(peers.Run(-9, 3.0, 1.0, 1), log, 600.0, spec) == "exit -9 (no output)"
