"""Measurement tables in docs/ are written by the target that measures them.

``scripts/doc_tables.write_table`` puts a table between its page's markers with a line
naming date, machine, load and command; a second run replaces the block instead of adding
one, and text around it stays. The Makefile's measuring targets pass ``--write``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from helpers.paths import REPO
from helpers.scripts import script

WHEN = datetime(2026, 12, 1, 12, 30, tzinfo=UTC)


def test_a_table_is_written_with_its_provenance_and_replaced_in_place(tmp_path: Path) -> None:
    page = tmp_path / "performance.md"
    page.write_text("# Speed\n\nBefore.\n")
    with script("doc_tables") as doc_tables:
        doc_tables.write_table(page, "bench", "| a |\n|---|\n| 1 |", "make bench", WHEN)
        doc_tables.write_table(page, "bench", "| a |\n|---|\n| 2 |", "make bench", WHEN)
    text = page.read_text()
    assert text.count("<!-- table:bench -->") == 1
    assert "| 2 |" in text
    assert "| 1 |" not in text
    assert text.startswith("# Speed\n\nBefore.\n\n<!-- table:bench -->\n")
    line = text.splitlines()[5]
    assert re.fullmatch(r"_Measured 2026-12-01 12:30 UTC on \S+ \S+, \d+ cores( \(.+?\))?"
                        r"(, \d+ GiB)?, load average (\d+\.\d|unknown) at the start"
                        r"( \(a busy, shared machine.+?\))?; figures are medians unless "
                        r"said otherwise; command: `make bench`\._", line), line


def test_a_busy_machine_is_said_to_be_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Load at half the cores or more: the line says wall times carry the neighbours."""
    with script("doc_tables") as doc_tables:
        monkeypatch.setattr(doc_tables.os, "cpu_count", lambda: 2)
        monkeypatch.setattr(doc_tables.os, "getloadavg", lambda: (4.5, 3.0, 2.0))
        busy = doc_tables.provenance("make bench", WHEN)
        monkeypatch.setattr(doc_tables.os, "getloadavg", lambda: (0.2, 0.1, 0.1))
        quiet = doc_tables.provenance("make bench", WHEN)
    assert "load average 4.5 at the start (a busy, shared machine" in busy, busy
    assert "2 cores" in busy, busy
    assert "busy" not in quiet, quiet
    assert "load average 0.2 at the start;" in quiet, quiet


def test_the_measuring_targets_write_their_pages() -> None:
    makefile = (REPO / "Makefile").read_text()
    for script_name, page, blocks in (
            ("bench.py", "docs/performance.md", ("bench", "bench-scaling")),
            ("bench_peers.py", "docs/performance.md", ("bench-peers",)),
            ("bench_serve.py", "docs/performance.md", ("bench-serve",)),
            ("bench_models.py", "docs/performance.md", ("bench-models",)),
            ("large_apis.py", "docs/large-apis.md", ("large-apis", "peer-sizes")),
            ("oracle_table.py", "docs/contract-fidelity.md", ("fidelity-oracle",)),
            ("serve_oracle.py", "docs/serve.md", ("serve-oracle",))):
        assert re.search(rf"scripts/{script_name} [^\n]*--write {page}", makefile), script_name
        for block in blocks:
            assert f"<!-- table:{block} -->" in (REPO / page).read_text(), (page, block)
    assert re.search(r"scripts/large_apis.py --peers [^\n]*--readme README.md", makefile)
    assert "<!-- table:peer-sizes-summary -->" in (REPO / "README.md").read_text()


def test_every_bench_table_of_the_performance_page_is_in_a_marked_block() -> None:
    """No figure of `make bench` in docs/performance.md (the page up to its first section)
    is left outside a block its target rewrites (the block table is the page's legend)."""
    text = (REPO / "docs" / "performance.md").read_text().split("\n## ", 1)[0]
    text = re.sub(r"\| block \| script \| what \|.*?\n\n", "", text, flags=re.S)
    outside = re.sub(r"<!-- table:([\w-]+) -->.*?<!-- /table:\1 -->", "", text, flags=re.S)
    rows = [line for line in outside.splitlines() if line.startswith("|")]
    assert not rows, f"table rows outside a marked block: {rows[:3]}"
