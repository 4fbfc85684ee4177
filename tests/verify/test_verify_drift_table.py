"""The mutation table: each of the incident's drifts alone fails verify naming it; none passes.

The server is the SDK test server (tests/helpers/mcp_test_server.py), reached over
the SDK's in-memory transport so the table costs no subprocesses. Each row pins
the complete set of findings, so a drift that is found twice, or a check that
fires on a faithful tool, fails too.
"""

from __future__ import annotations

import pytest
from helpers.mcp_test_server import DRIFTS
from helpers.verify_run import memory_report
from toolcat.verify.session import Options

# drift -> every (severity, tool, kind, argument) it must produce, and nothing else.
EXPECTED = {
    "update-lacks-body-field": {
        ("critical", "broadcast_update_channel", "missing-argument", "graphicsElementIds")},
    "list-lacks-query-parameter": {
        ("error", "broadcast_list_playouts", "missing-argument", "query")},
    "string-for-integer": {
        ("error", "broadcast_update_schedule", "type", "padToNearestMinute")},
    "missing-tool": {("error", "broadcast_delete_schedule", "missing-tool", "")},
    "extra-tool": {("error", "broadcast_legacy_refresh_guide", "extra-tool", "")},
    "invalid-input-succeeds": {
        ("error", "broadcast_get_schedule", "missing-required", ""),
        ("error", "broadcast_get_schedule", "wrong-type", ""),
        ("error", "broadcast_get_schedule", "unknown-property", "")},
    "null-for-optional": {
        ("warning", "broadcast_list_channels", "null-for-optional", "pageSize")},
    "error-on-success": {("error", "broadcast_get_channel", "error-on-success", "")},
    "api-refuses": {("warning", "broadcast_get_channel", "api-refused", "")},
}


def test_the_table_covers_every_drift_the_server_knows() -> None:
    assert set(EXPECTED) == set(DRIFTS)


@pytest.mark.parametrize("drift", sorted(EXPECTED))
def test_each_drift_alone_is_found_and_named(drift: str) -> None:
    report = memory_report(drift)
    found = {(f.severity, f.tool, f.kind, f.argument) for f in report.findings}
    assert found == EXPECTED[drift]
    assert not report.clean
    # the command exits 1 exactly when a report failed: an error always, a warning
    # only with --fail-on warning.
    warnings_only = all(severity == "warning" for severity, *_ in EXPECTED[drift])
    assert report.failed is not warnings_only


def test_no_drift_is_clean_with_every_check() -> None:
    report = memory_report(options=Options(probe=True, allow_writes=True, call_readonly=True))
    assert report.findings == ()
    assert report.clean
    assert report.checks == ("parity", "probe", "output")
    assert report.protocol == "2025-11-25"
    assert (report.catalog_tools, report.server_tools) == (21, 21)
    # --allow-writes probed every tool: no "not probed" note is left.
    assert not [n for n in report.notes if "not probed" in n.message]


def test_write_tools_are_not_probed_without_allow_writes() -> None:
    report = memory_report("invalid-input-succeeds", options=Options(probe=True))
    skipped = {n.tool for n in report.notes if "not probed" in n.message}
    assert "broadcast_update_channel" in skipped
    assert "broadcast_get_schedule" not in skipped
