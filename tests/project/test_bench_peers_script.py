"""`make bench`'s side-by-side table keeps working, without the peers.

scripts/bench_peers.py installs openapi-mcp-generator (npm) and FastMCP (its own venv)
under .bench/ and takes many minutes; the suite never does that. It runs the script's
toolcat half on the OAI petstore (--toolcat-only --quick: no install, no network), and
feeds the table, the targets and the failure reader made-up runs, a peer's failure and
a timeout included.
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
    result = subprocess.run([sys.executable, str(SCRIPT), "--toolcat-only", "--quick"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    assert "fastmcp" not in result.stderr.lower(), f"FastMCP was set up: {result.stderr}"
    assert "npm" not in result.stderr.lower(), f"openapi-mcp-generator was set up: {result.stderr}"
    cells = _cells(result.stdout, PETSTORE)
    assert cells[1] == "3 / - / -", f"tools of the petstore, toolcat / omg / FastMCP: {cells}"
    wall, cpu, mb = (float(part) for part in cells[2].split(" / "))
    assert wall > 0, f"toolcat wall seconds: {cells}"
    assert cpu > 0, f"toolcat CPU seconds: {cells}"
    assert mb > 0, f"toolcat MB: {cells}"
    assert cells[3:7] == ["-", "-", "- / -", "- / -"], f"peer cells without peers: {cells}"
    assert cells[7] == "", f"note: {cells}"


def _side(peers: ModuleType, runs: list[tuple[int, float, float, int]], **kwargs: str) -> object:
    return peers.Side([peers.Run(*run) for run in runs], **kwargs)


def test_table_gives_ratios_timeout_and_failures(peers: ModuleType, tmp_path: Path) -> None:
    ok = peers.Row("fast", tmp_path / "a.json",
                   toolcat=_side(peers, [(0, 3.0, 2.0, 1024), (0, 2.0, 2.0, 1024),
                                         (0, 4.0, 2.0, 3072)], tools="5"),
                   omg=_side(peers, [(0, 1.0, 0.5, 2048), (0, 2.0, 1.0, 2048),
                                     (0, 9.0, 4.0, 1024)], tools="5"),
                   fastmcp=_side(peers, [(0, 9.0, 8.0, 2048), (0, 12.0, 8.0, 4096),
                                         (0, 30.0, 8.0, 1024)], tools="4",
                                 phases=[{"import": 1.0, "load": 2.0, "build": 3.0,
                                          "list": 4.0}]))
    slow = peers.Row("slow", tmp_path / "b.json",
                     toolcat=_side(peers, [(2, 0.5, 0.4, 1024)], note="exit 2: a | b"),
                     omg=_side(peers, [(0, 1.0, 70.0, 1024)], tools="7"),
                     fastmcp=_side(peers, [(-9, 600.2, 1.0, 10240)],
                                   note="timeout (killed after 600 s)"))
    versions = {"fastmcp": "4.1.6", "mcp": "2.3.0", "omg": "4.0.1", "node": "v20"}
    text = peers.table([ok, slow], 3, 600.0, peers.Peers(versions=versions), 60.0)
    assert _cells(text, "fast")[1:] == ["5 / 5 / 4", "3.00 / 2.00 / 3", "2.00 / 1.00 / 2",
                                        "12.00 / 8.00 / 4", "1.50 / 2.00", "0.25 / 0.25", ""]
    assert _cells(text, "slow")[1:] == [
        "- / 7 / -", "failed", "1.00 / 70.00 / 1 (1 run)", "timeout", "- / -", "- / -",
        "toolcat generate: exit 2: a \\| b; FastMCP 4.1.6: timeout (killed after 600 s)"]
    assert "openapi-mcp-generator 4.0.1 (node v20); FastMCP 4.1.6 (mcp 2.3.0" in text, text
    assert "| fast | 1.00 | 2.00 | 3.00 | 4.00 |" in text, text


def test_targets_are_judged_on_this_runs_figures(peers: ModuleType, tmp_path: Path) -> None:
    """GitHub's generate ratio, check cached and uncached, Stripe's generate: figure, limit,
    and whether it is met, by wall and by CPU."""
    github = peers.Row(peers.GITHUB_LABEL, tmp_path / "g.json",
                       toolcat=_side(peers, [(0, 3.0, 2.0, 1)]),
                       omg=_side(peers, [(0, 2.0, 4.0, 1)]))
    stripe = peers.Row("stripe/spec3.yaml", tmp_path / "s.yaml",
                       toolcat=_side(peers, [(0, 0.9, 1.2, 1)]))
    checks = peers.bench.Row(peers.GITHUB_LABEL, tmp_path / "g.json",
                             check=[peers.Run(0, 0.1, 0.2, 1)],
                             check_regen=[peers.Run(0, 1.5, 0.8, 1)])
    text = peers.targets_table(peers.targets([github, stripe], checks))
    rows = {cells[0]: cells[1:] for cells in
            ([c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()[2:])}
    assert rows["generate GitHub, toolcat / openapi-mcp-generator"] == [
        "≤ 1.00", "1.50", "0.50", "no / yes"], rows
    assert rows["check GitHub, no cache (validation included)"] == [
        "≤ 1.00 s", "1.50 s", "0.80 s", "no / yes"], rows
    assert rows["check GitHub, with this machine's cache"] == [
        "≤ 0.15 s", "0.10 s", "0.20 s", "yes / no"], rows
    assert rows["generate Stripe"] == ["≤ 1.00 s", "0.90 s", "1.20 s", "yes / no"], rows


def test_a_slow_side_runs_once(peers: ModuleType, tmp_path: Path) -> None:
    """A side past --slow CPU seconds is not run again: make bench stays short."""
    slow = _side(peers, [(0, 300.0, 61.0, 1)])
    quick = _side(peers, [(0, 3.0, 2.0, 1)])
    assert not peers._due(slow, 60.0)
    assert peers._due(quick, 60.0)
    assert not peers._due(_side(peers, [(1, 3.0, 2.0, 1)], note="exit 1"), 60.0)


def test_omg_tools_are_counted_from_its_project(peers: ModuleType, tmp_path: Path) -> None:
    source = tmp_path / "src" / "index.ts"
    source.parent.mkdir()
    source.write_text('const toolDefinitionMap = new Map([\n\n  ["a", {\n    name: "a",\n'
                      '  }],\n  ["b", {\n    name: "b",\n  }],\n]);\n')
    assert peers.omg_tools(tmp_path) == "2"
    assert peers.omg_tools(tmp_path / "missing") == "-"


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
