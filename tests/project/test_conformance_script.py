"""scripts/conformance.py judges the suite's checks against the expected-failures file.

`make conformance` needs Node 22 and the suite from npm, so the suite itself runs in CI
(`.ci/run`), not here; these tests feed the judge made-up results in the suite's own layout.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from helpers.scripts import script


@pytest.fixture(scope="module")
def conformance() -> Iterator[ModuleType]:
    with script("conformance") as module:
        yield module


def _check(check_id: str, status: str) -> dict[str, str]:
    return {"id": check_id, "status": status, "errorMessage": f"{check_id} said so"}


EXPECTED = {("prompts-list", "prompts-list"): "undeclared-capability",
            ("server-sse-polling", "resume"): "fixture-tools"}


def test_listed_failures_pass_and_anything_else_is_unexpected(conformance: ModuleType) -> None:
    runs = {"2025-11-25": {
        "prompts-list": [_check("prompts-list", "FAILURE")],
        "server-sse-polling": [_check("priming", "SUCCESS"), _check("resume", "WARNING")],
        "tools-list": [_check("tools-list", "SUCCESS"), _check("names", "FAILURE"),
                       _check("order", "WARNING"), _check("note", "INFO")],
    }}
    rows, stale = conformance.judge(runs, EXPECTED)
    verdicts = {r.scenario: r.verdict for r in rows}
    assert verdicts == {"prompts-list": "expected (undeclared-capability)",
                        "server-sse-polling": "expected (fixture-tools)",
                        "tools-list": "UNEXPECTED"}
    (tools_list,) = [r for r in rows if r.scenario == "tools-list"]
    assert tools_list.unexpected == ["names: FAILURE names said so",
                                     "order: WARNING order said so"]
    assert stale == []
    table = conformance.table(rows)
    assert "| 2025-11-25 | `tools-list` | 1 | 1 | 1 | 1 | UNEXPECTED |" in table


def test_a_listed_check_that_passes_or_never_ran_is_stale(conformance: ModuleType) -> None:
    runs = {"2026-07-28": {"prompts-list": [_check("prompts-list", "SUCCESS")]}}
    rows, stale = conformance.judge(runs, EXPECTED)
    assert [r.verdict for r in rows] == ["pass"]
    assert stale == ["prompts-list/prompts-list (undeclared-capability): passes",
                     "server-sse-polling/resume (fixture-tools): no scenario ran this check"]


def test_results_are_read_from_the_suites_folders(conformance: ModuleType,
                                                  tmp_path: Path) -> None:
    for name, checks in {"server-tools-list-2026-12-02T00-02-51-725Z": [_check("a", "SUCCESS")],
                         "server-server-sse-polling-2026-12-02T00-02-47-036Z": []}.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "checks.json").write_text(json.dumps(checks))
    (tmp_path / "stray").mkdir()
    assert conformance.read_results(tmp_path) == {"tools-list": [_check("a", "SUCCESS")],
                                                  "server-sse-polling": []}


def test_the_committed_file_gives_every_reason_and_the_specs_words(
        conformance: ModuleType, tmp_path: Path) -> None:
    listed = conformance.load_expected(conformance.EXPECTED)
    assert len(listed) > 50
    assert set(listed.values()) == {"undeclared-capability", "fixture-tools",
                                    "tasks-extension", "no-custom-headers"}
    bad = tmp_path / "bad.yaml"
    bad.write_text("r:\n  why: w\n  checks: {s: [c]}\n")
    with pytest.raises(ValueError, match="needs both `why` and `spec`"):
        conformance.load_expected(bad)
    bad.write_text("r:\n  why: w\n  spec: s\n  checks: {s: [c, c]}\n")
    with pytest.raises(ValueError, match="s/c is listed twice"):
        conformance.load_expected(bad)
