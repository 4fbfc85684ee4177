"""``toolcat --version`` names the installed distribution; ``-h`` is ``--help`` everywhere."""

from __future__ import annotations

from importlib.metadata import version

import pytest
from helpers.generate import run_cli


def test_version() -> None:
    result = run_cli("--version")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"toolcat {version('toolcat')}\n"


def _commands() -> list[str]:
    """What ``toolcat -h`` lists (diff and verify are imported only when they run)."""
    import click
    from toolcat.cli import cli

    return sorted(cli.list_commands(click.Context(cli)))


def test_every_command_is_covered() -> None:
    """The list below is every command of the CLI, so a new one cannot go untested."""
    assert _commands() == sorted(COMMANDS), f"commands: {_commands()}"


COMMANDS = ["check", "diff", "generate", "init", "mcp-config", "schema", "serve", "verify"]


@pytest.mark.parametrize("args", [["-h"], *([name, "-h"] for name in COMMANDS)])
def test_short_help(args: list[str]) -> None:
    result = run_cli(*args)
    assert result.returncode == 0, result.stderr
    usage = result.stdout.splitlines()[0]
    assert usage.startswith("Usage: "), usage
    assert all(f" {word} " in usage for word in args[:-1]), usage   # this command's help
    assert "-h, --help" in result.stdout
