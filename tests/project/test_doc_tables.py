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


# A measured figure in a table cell: a decimal number ("0.61", "(4.08)") or a number with
# a unit of time, memory or share ("9.8 s", "2.77 ms", "149 MB", "13.6 %").
_FIGURE = re.compile(r"^[~(≤<>]*\d[\d,]*\.\d+(?![.\d])|\d(?:[\d,]*\.?\d*) ?(?:s|ms|MB|GB|%)(?!\w)")
_BLOCK = re.compile(r"<!-- table:([\w-]+) -->.*?<!-- /table:\1 -->", re.S)


def figures_outside_blocks(text: str) -> list[str]:
    """Table rows of a Markdown page, outside its marked blocks, with a measured figure in
    a cell after the first (the first names the row)."""
    found = []
    for line in _BLOCK.sub("", text).splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and any(_FIGURE.search(cell) for cell in cells[1:]):
            found.append(line)
    return found


def test_every_measured_table_in_the_docs_is_in_a_marked_block() -> None:
    """No table in docs/ or README.md holds figures outside a block its target rewrites:
    a hand-pasted table goes stale the day something changes (figures of a change belong
    in its commit message; prose points at the blocks)."""
    pages = [*sorted((REPO / "docs").glob("*.md")), REPO / "README.md"]
    stray = {page.name: rows[:3] for page in pages
             if (rows := figures_outside_blocks(page.read_text(encoding="utf-8")))}
    assert not stray, f"table rows with figures outside a marked block: {stray}"


def test_stray_figures_are_found_in_any_section_and_any_shape() -> None:
    """The check itself, on the shapes that once escaped it: a per-step table of bare
    seconds after the page's first section, a before/after table with units, a share;
    and it leaves alone a block's table, a limits table and counts."""
    page = ("# P\n\n<!-- table:t -->\n| document | s |\n|---|---|\n| a | 1.25 |\n"
            "<!-- /table:t -->\n\n## Later\n\n| step | GitHub before | after |\n|---|---|---|\n"
            "| imports | 0.61 | (0.71) |\n| case | before | after |\n| chain | 9.8 s | 94 ms |\n"
            "| doc | 13.6 % (was 12.7 %) |\n| limit | 64 MiB | 128 levels, 4x the nodes |\n"
            "| stripe | 468 | 3,372,164 | 23.0.2 |\n")
    assert figures_outside_blocks(page) == [
        "| imports | 0.61 | (0.71) |", "| chain | 9.8 s | 94 ms |",
        "| doc | 13.6 % (was 12.7 %) |"]
