"""This machine's memo of validated configs (cache/configs.py) never vouches for bytes it
did not validate: an edited config is validated again, and a now-invalid one is refused
with its located problem although an earlier valid version was remembered; a valid edit
takes effect (issue 25)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SPEC = """{"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
 "paths": {"/pets": {"get": {"operationId": "listPets",
   "responses": {"200": {"description": "ok"}}}}}}
"""

CONFIG = """# line 1
catalogs:
  pets:
    spec: openapi.json
    output: out
{extra}"""


def _toolcat(folder: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TOOLCAT_CACHE_DIR": str(folder / "cache")}
    env.pop("TOOLCAT_CACHE", None)
    return subprocess.run([sys.executable, "-m", "toolcat", *args, "--config", "toolcat.yaml"],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=120,
                          check=False)


def _project(tmp_path: Path) -> Path:
    (tmp_path / "openapi.json").write_text(SPEC)
    (tmp_path / "toolcat.yaml").write_text(CONFIG.format(extra="    prefix: pets_\n"))
    done = _toolcat(tmp_path, "generate")
    assert done.returncode == 0, done.stderr
    remembered = list((tmp_path / "cache").glob("*.config"))
    assert len(remembered) == 1, "the valid config was not remembered"
    return tmp_path


def test_an_edited_config_is_validated_again(tmp_path: Path) -> None:
    project = _project(tmp_path)
    (project / "toolcat.yaml").write_text(CONFIG.format(extra="    prefx: pets_\n"))
    done = _toolcat(project, "check")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "toolcat.yaml" in done.stderr, done.stderr
    assert "line 6" in done.stderr, done.stderr
    assert "unknown key 'catalogs.pets.prefx'" in done.stderr, done.stderr
    assert "did you mean 'prefix'" in done.stderr
    assert len(list((project / "cache").glob("*.config"))) == 1, "a refused config was kept"


def test_a_valid_edit_takes_effect(tmp_path: Path) -> None:
    project = _project(tmp_path)
    again = _toolcat(project, "check")
    assert again.returncode == 0, again.stdout + again.stderr
    (project / "toolcat.yaml").write_text(CONFIG.format(extra="    prefix: animals_\n"))
    done = _toolcat(project, "check")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "STALE" in done.stdout, done.stdout
    assert "animals_list_pets" in done.stdout, done.stdout
