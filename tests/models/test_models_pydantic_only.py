"""``models.py`` needs pydantic alone: imported and ``mypy --strict`` in a venv without toolcat.

A team installs toolcat isolated (pipx, uv tool) and imports its generated models in
its own environment: the committed example package (``generated/broadcast``) is
copied out, a fresh venv gets only the pinned pydantic, the module is imported
there (toolcat must not be importable, and must not be imported), and mypy
``--strict`` checks the package against that venv's site-packages.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pydantic
import pytest
from helpers.paths import REPO

EXAMPLE = REPO / "generated" / "broadcast"
PACKAGE = "broadcast"


@pytest.fixture(scope="module")
def pydantic_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a venv holding pydantic (the version toolcat is tested with) only."""
    root = tmp_path_factory.mktemp("pydantic-only")
    venv.create(root / "venv", with_pip=True)
    python = root / "venv" / "bin" / "python"
    install = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", f"pydantic=={pydantic.VERSION}"],
        capture_output=True, text=True, check=False)
    if install.returncode != 0:
        pytest.skip(f"pip cannot install pydantic=={pydantic.VERSION} here: "
                    f"{install.stderr.strip()[-300:]}")
    return python


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the generated package as a project would."""
    root = tmp_path_factory.mktemp("project")
    shutil.copytree(EXAMPLE, root / PACKAGE)
    return root


def test_toolcat_is_not_in_that_venv(pydantic_only: Path) -> None:
    probe = subprocess.run([pydantic_only, "-c", "import toolcat"], capture_output=True,
                           text=True, check=False)
    assert probe.returncode != 0
    assert "No module named 'toolcat'" in probe.stderr


def test_models_import_with_pydantic_alone(pydantic_only: Path, project: Path) -> None:
    script = (f"import sys; from {PACKAGE} import models; "
              "assert not [m for m in sys.modules if m.split('.')[0] == 'toolcat'], 'toolcat'; "
              "t = models.TYPED_TOOLS['broadcast_update_channel']; "
              "print(t.input.__name__, t.output.__name__, t.method)")
    run = subprocess.run([pydantic_only, "-c", script], cwd=project, capture_output=True,
                         text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["BroadcastUpdateChannelInput", "BroadcastUpdateChannelOutput",
                                  "broadcast_update_channel"]


def test_models_type_check_strict_with_pydantic_alone(pydantic_only: Path,
                                                      project: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--python-executable", str(pydantic_only), "-p", PACKAGE],
        cwd=project, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success: no issues found in 2 source files" in run.stdout
