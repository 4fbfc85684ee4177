"""A server built from the catalog with the MCP SDK passes every check: exit 0.

Over stdio (a subprocess), with parity, probes and read-only calls checked against
the outputSchema (probes of write tools: test_verify_drift_table, in process).
"""

from __future__ import annotations

import json

import pytest
from helpers.verify_run import run_verify, server_command


def test_faithful_server_over_stdio_is_clean(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_verify(monkeypatch, capsys, "broadcast", "--command", server_command(),
                             "--probe", "--call-readonly",
                             "--format", "json", "--timeout", "30")
    assert code == 0, out + err
    report = json.loads(out)
    assert report["clean"] is True
    assert report["findings"] == []
    assert report["checks"] == ["parity", "probe", "output"]
    assert report["protocol"] == "2025-11-25"
    assert report["catalog_tools"] == report["server_tools"] == 21
