"""The catalog config is strict: a mistake names the file, the line and the fix.

A misspelled key that were ignored would silently drop a setting (a prefix, an
override file); every such mistake must stop the run with exit code 2.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers.generate import run_cli

CONFIG = """\
# a comment line, so line numbers are not all 1
catalogs:
  broadcast:
    spec: broadcast/v1.json
    output: ../generated/broadcast
{extra}"""


def _config(tmp_path: Path, extra: str = "") -> Path:
    path = tmp_path / "toolcat.yaml"
    path.write_text(CONFIG.format(extra=extra))
    return path


def _error(*args: str | Path) -> str:
    result = run_cli(*args)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


@pytest.mark.parametrize("command", ["generate", "check"])
def test_misspelled_key(tmp_path: Path, command: str) -> None:
    config = _config(tmp_path, "    prefx: broadcast_\n")
    message = _error(command, "--config", config)
    assert str(config) in message
    assert "line 6" in message, message
    assert "prefx" in message
    assert "did you mean 'prefix'" in message


def test_misspelled_top_level_key(tmp_path: Path) -> None:
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalog:\n  broadcast: {spec: a.json, output: out}\n")
    message = _error("check", "--config", config)
    assert "line 1" in message
    assert "did you mean 'catalogs'" in message


def test_wrong_value_type(tmp_path: Path) -> None:
    config = _config(tmp_path, "    name_budget: lots\n")
    message = _error("check", "--config", config)
    assert str(config) in message
    assert "line 6" in message
    assert "name_budget" in message


def test_unknown_catalog_name(tmp_path: Path) -> None:
    config = _config(tmp_path)
    message = _error("check", "broadcst", "--config", config)
    assert "no catalog named 'broadcst'" in message
    assert "did you mean 'broadcast'" in message


def test_missing_config(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "toolcat.yaml"
    message = _error("generate", "--config", missing)
    assert str(missing) in message
    assert "not found" in message


def test_missing_default_config_names_the_way_out(tmp_path: Path) -> None:
    """Run outside a project: the default specs/toolcat.yaml is not there."""
    result = run_cli("check", cwd=tmp_path)
    assert result.returncode == 2
    assert "specs/toolcat.yaml" in result.stderr
    assert "--spec" in result.stderr, "the message should say how to run ad hoc"


def test_invalid_yaml(tmp_path: Path) -> None:
    config = _config(tmp_path, "    prefix: [unclosed\n")
    message = _error("check", "--config", config)
    assert str(config) in message
    assert re.search(r"line \d+", message), message


def test_spec_without_out(tmp_path: Path) -> None:
    message = _error("generate", "--spec", tmp_path / "v1.json")
    assert "--out" in message
