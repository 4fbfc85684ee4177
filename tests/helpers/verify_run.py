"""Running ``toolcat verify`` in tests: the console script in process, or the checks
against the test server over the SDK's in-memory transport (no subprocess)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from toolcat.cli import main
from toolcat.diff.catalogs import read_side
from toolcat.verify.command import _entries, check
from toolcat.verify.connect import memory_server
from toolcat.verify.findings import Report
from toolcat.verify.names import NameMap
from toolcat.verify.session import Options

from helpers.mcp_test_server import build
from helpers.paths import EXAMPLE_OUTPUT, REPO

CATALOG = EXAMPLE_OUTPUT / "catalog.json"
SERVER = REPO / "tests" / "helpers" / "mcp_test_server.py"


def server_command(*drifts: str, catalog: Path = CATALOG) -> str:
    flags = "".join(f" --drift {d}" for d in drifts)
    return f"{sys.executable} {SERVER} {catalog}{flags}"


def run_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            *args: str | Path) -> tuple[int, str, str]:
    """The console script in process: its exit code, stdout and stderr."""
    monkeypatch.setattr(sys, "argv", ["toolcat", "verify", *map(str, args)])
    with pytest.raises(SystemExit) as exc:
        main()
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return int(exc.value.code or 0), out, err


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
