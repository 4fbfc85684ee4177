"""Running ``toolcat verify`` in tests: the console script in process, or the checks
against the test server over the SDK's in-memory transport (no subprocess)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from toolcat.catalog.reader import read_catalog as read_side
from toolcat.verify.command import _entries, check
from toolcat.verify.connect import memory_server
from toolcat.verify.findings import Report
from toolcat.verify.names import NameMap
from toolcat.verify.session import Options

from helpers.inprocess import run_main
from helpers.mcp_test_server import build
from helpers.paths import EXAMPLE_OUTPUT, REPO

CATALOG = EXAMPLE_OUTPUT / "catalog.json"
SERVER = REPO / "tests" / "helpers" / "mcp_test_server.py"


def server_command(*drifts: str, catalog: Path = CATALOG) -> str:
    flags = "".join(f" --drift {d}" for d in drifts)
    return f"{sys.executable} {SERVER} {catalog}{flags}"


def run_verify(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            *args: str | Path) -> tuple[int, str, str]:
    """``toolcat verify ARGS`` in process: its exit code, stdout and stderr."""
    run = run_main(monkeypatch, capsys, "verify", *args)
    return run.returncode, run.stdout, run.stderr


def memory_report(*drifts: str, options: Options | None = None,
                  names: NameMap | None = None) -> Report:
    """The checks against the test server in this process."""
    from mcp.client._memory import InMemoryTransport  # the SDK's own test transport

    server = build(CATALOG, list(drifts))

    def connect() -> Any:
        return InMemoryTransport(server)

    view = read_side(CATALOG)
    return check("broadcast", _entries(view), memory_server("in-memory", connect),
                 names or NameMap(), options or Options(probe=True, call_readonly=True))
