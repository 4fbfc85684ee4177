"""verify's three report formats render the same findings: text (pinned in
test_verify_incident_drift), Markdown for a PR comment, canonical JSON for machines."""

from __future__ import annotations

import json

from helpers.mcp_test_server import INCIDENT
from helpers.verify_run import memory_report
from toolcat.verify.findings import Report
from toolcat.verify.report import render


def _incident() -> Report:
    return memory_report(*sorted(INCIDENT))


def test_json_is_canonical_and_complete() -> None:
    report = _incident()
    text = render(report, "json")
    data = json.loads(text)
    assert text == json.dumps(data, indent=2, sort_keys=True, ensure_ascii=True) + "\n"
    assert data["clean"] is False
    assert data["counts"] == {"critical": 1, "error": 7, "warning": 0}
    assert data["findings"][0] == {
        "severity": "critical", "tool": "broadcast_update_channel", "check": "parity",
        "kind": "missing-argument", "argument": "graphicsElementIds",
        "message": "full-replace tool lacks a body field: omission is applied as a clear",
        "expected": "body field", "actual": "absent"}
    assert len(data["findings"]) == 8
    assert render(_incident(), "json") == text   # the same bytes on every run


def test_markdown_has_one_row_per_finding() -> None:
    report = _incident()
    text = render(report, "markdown")
    assert text.startswith("### toolcat verify: FAILED\n")
    assert "**1 critical**, 7 errors." in text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) == len(report.findings) == 8
    assert rows[0] == (
        "| **critical** | `broadcast_update_channel` | `graphicsElementIds` | "
        "parity: missing-argument | full-replace tool lacks a body field: omission is applied "
        "as a clear | body field | absent |")
    assert "<details><summary>" in text


def test_clean_reports() -> None:
    report = memory_report()
    assert "No drift and no contract failure." in render(report, "markdown")
    assert render(report, "text").splitlines()[2] == "OK: no drift, no contract failure"
