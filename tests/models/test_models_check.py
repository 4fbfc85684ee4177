"""``check`` covers models.py like every other output file, and the setting is honoured.

An edited models.py is stale (exit 1, naming the file); with ``models: false``
no models.py is written, and one left in the folder is reported as extra.
"""

from __future__ import annotations

from pathlib import Path

from helpers.generate import run_cli
from helpers.project import make_project


def _run(command: str, config: Path) -> tuple[int, str]:
    result = run_cli(command, "--config", config)
    return result.returncode, result.stdout + result.stderr


def test_edited_models_is_stale(tmp_path: Path) -> None:
    config = make_project(tmp_path)
    assert _run("generate", config)[0] == 0
    models = tmp_path / "out" / "widgets" / "models.py"
    assert "class CreateWidgetInput(BaseModel)" in models.read_text()
    assert _run("check", config)[0] == 0
    models.write_text(models.read_text().replace("name: StrictStr", "name: StrictStr | None"))
    code, out = _run("check", config)
    assert code == 1, out
    assert "changed: models.py" in out, out
    assert "+    name: StrictStr\n" in out, out


def test_models_off_writes_none_and_check_sees_a_leftover(tmp_path: Path) -> None:
    config = make_project(tmp_path, models=False)
    assert _run("generate", config)[0] == 0
    folder = tmp_path / "out" / "widgets"
    assert not (folder / "models.py").exists()
    (folder / "models.py").write_text("# left behind\n")
    code, out = _run("check", config)
    assert code == 1, out
    assert "models.py" in out, out


def test_turning_models_on_is_stale_until_generated(tmp_path: Path) -> None:
    config = make_project(tmp_path, models=False)
    assert _run("generate", config)[0] == 0
    make_project(tmp_path, models=True)
    code, out = _run("check", config)
    assert code == 1, out
    assert "models.py" in out, out
