"""A catalog's own templates folder replaces built-in templates by file name.

The override changes the output; ``check`` sees an edit to the template (the
record and the local cache both key on the folder's bytes); a file that
replaces nothing is an error naming it and the nearest built-in name.
"""

from __future__ import annotations

from pathlib import Path

from helpers.generate import run_cli
from helpers.project import make_project
from toolcat.identity import DEFAULT_TEMPLATES

MARK = "# house style: reviewed by the platform team"


def _models_template(extra: str) -> str:
    text = (DEFAULT_TEMPLATES / "models.py.jinja").read_text()
    return text.replace("import typing as _typing\n", f"import typing as _typing\n\n{extra}\n")


def test_override_changes_output_and_check_sees_template_edits(tmp_path: Path) -> None:
    config = make_project(tmp_path, templates={"models.py.jinja": _models_template(MARK)})
    result = run_cli("generate", "--config", config)
    assert result.returncode == 0, result.stderr
    folder = tmp_path / "out" / "widgets"
    assert MARK in (folder / "models.py").read_text()
    # Only the named template is replaced; the others stay built in.
    assert "def list_tools()" in (folder / "__init__.py").read_text()
    assert run_cli("check", "--config", config).returncode == 0
    (tmp_path / "templates" / "models.py.jinja").write_text(_models_template("# edited"))
    stale = run_cli("check", "--config", config)
    assert stale.returncode == 1, stale.stdout + stale.stderr
    assert "changed: models.py" in stale.stdout
    assert "+# edited" in stale.stdout


def test_a_file_that_replaces_nothing_is_an_error(tmp_path: Path) -> None:
    config = make_project(tmp_path, templates={"model.py.jinja": "x"})
    result = run_cli("generate", "--config", config)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "replaces no built-in template (did you mean 'models.py.jinja'?)" in result.stderr
    assert "catalogs.widgets.templates" in result.stderr


def test_a_missing_folder_is_an_error(tmp_path: Path) -> None:
    config = make_project(tmp_path)
    config.write_text(config.read_text() + "    templates: nowhere\n")
    result = run_cli("generate", "--config", config)
    assert result.returncode == 2
    assert "templates folder 'nowhere' not found" in result.stderr
