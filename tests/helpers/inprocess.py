"""The CLI's ``main`` run inside the test process, as a fixture.

A subprocess pays about a second of imports per run; tests that run the CLI many
times (hostile names, validation modes) take the ``toolcat`` fixture instead
(registered in ``conftest.py``). ``main`` exits through
``SystemExit`` and turns the garbage collector off for its own run: both undone here.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from toolcat.cli import main


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


RunCli = Callable[..., Run]


def run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
             *args: str | Path) -> Run:
    """``toolcat ARGS`` in this process: exit code, stdout, stderr; never a traceback."""
    monkeypatch.setattr(sys, "argv", ["toolcat", *map(str, args)])
    code: Any = 0
    try:
        main()
    except SystemExit as exc:
        code = exc.code
    finally:
        gc.enable()
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return Run(int(code or 0), captured.out, captured.err)


@pytest.fixture
def toolcat(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> RunCli:
    def run(*args: str | Path) -> Run:
        return run_main(monkeypatch, capsys, *args)

    return run
