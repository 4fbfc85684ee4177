"""Measurement tables in docs/ are written by the target that measures them.

``scripts/doc_tables.write_table`` puts a table between its page's markers with a line
naming date, machine, load and command; a second run replaces the block instead of adding
one, and text around it stays. The Makefile's measuring targets pass ``--write``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

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
    assert re.fullmatch(r"_Measured 2026-12-01 12:30 UTC on \S+ \S+, \d+ cores(, \d+ GiB)?, "
                        r"load average (\d+\.\d|unknown) at the start; command: "
                        r"`make bench`\._", line), line


def test_the_measuring_targets_write_their_pages() -> None:
    makefile = (REPO / "Makefile").read_text()
    for script_name, page in (("bench.py", "docs/performance.md"),
                              ("oracle_table.py", "docs/contract-fidelity.md"),
                              ("serve_oracle.py", "docs/serve.md")):
        assert re.search(rf"scripts/{script_name} [^\n]*--write {page}", makefile), script_name
        block = "table:" + {"bench.py": "bench", "oracle_table.py": "fidelity-oracle",
                            "serve_oracle.py": "serve-oracle"}[script_name]
        if script_name != "bench.py":   # bench's block is added by its first run
            assert f"<!-- {block} -->" in (REPO / page).read_text(), (page, block)
