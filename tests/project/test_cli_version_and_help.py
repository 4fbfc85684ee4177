"""``toolcat --version`` names the installed distribution; ``-h`` is ``--help`` everywhere."""

from __future__ import annotations

from importlib.metadata import version

import pytest
from helpers.generate import run_cli


def test_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"toolcat {version('toolcat')}\n"


@pytest.mark.parametrize("args", [["-h"], ["generate", "-h"], ["check", "-h"], ["diff", "-h"],
                                  ["init", "-h"]])
def test_short_help(args: list[str]) -> None:
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("Usage: ")
    assert "-h, --help" in result.stdout
