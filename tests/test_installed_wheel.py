"""The built wheel, installed as a new user would, in a project that is not this one.

Build the wheel, install it (no dependencies: they come from this environment's
site-packages through a path entry, which keeps the test offline and fast; the
editable install there is not active, since a path entry runs no ``.pth``
files) into a fresh virtualenv, then in an empty project without a Makefile:
``toolcat --version``, ``toolcat init``, ``toolcat generate``, ``toolcat check``.

The second test adds what the issue saw: the project has its own package named
``generator`` on the path. It passes only once the import package is renamed.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import venv
from importlib.metadata import version
from pathlib import Path

import pytest
from helpers.paths import REPO

SPEC = {"openapi": "3.1.0", "info": {"title": "Media Library", "version": "1"},
        "paths": {"/items": {"get": {"operationId": "listItems",
                                     "responses": {"200": {"description": "ok"}}}}}}


@pytest.fixture(scope="module")
def toolcat(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``toolcat`` script of a fresh virtualenv holding only the built wheel."""
    root = tmp_path_factory.mktemp("wheel")
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(root / "dist"), str(REPO)],
                   check=True, capture_output=True, timeout=300)
    (wheel,) = (root / "dist").glob("toolcat-*.whl")
    env = root / "env"
    venv.EnvBuilder(with_pip=False).create(env)
    subprocess.run([*pip, "--python", str(env / "bin" / "python"), "install", "--no-deps",
                    "--no-index", str(wheel)], check=True, capture_output=True, timeout=300)
    (purelib,) = (env / "lib").glob("python3*/site-packages")
    (purelib / "_toolcat_test_dependencies.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n")
    return env / "bin" / "toolcat"


def _run(toolcat: Path, cwd: Path, *args: str,
         pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["TOOLCAT_CACHE"] = "off"
    if pythonpath is not None:
        env["PYTHONPATH"] = str(pythonpath)
    return subprocess.run([str(toolcat), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300, check=False)


def _scratch_project(tmp_path: Path, toolcat: Path, pythonpath: Path | None = None) -> None:
    project = tmp_path / "project"
    (project / "api").mkdir(parents=True)
    (project / "api" / "openapi.json").write_text(json.dumps(SPEC))
    steps = [("--version",), ("init",), ("generate",), ("check",)]
    results = {step[0]: _run(toolcat, project, *step, pythonpath=pythonpath) for step in steps}
    for step, result in results.items():
        assert result.returncode == 0, f"toolcat {step}: {result.stdout}{result.stderr}"
    assert results["--version"].stdout == f"toolcat {version('toolcat')}\n"
    assert "next: run `toolcat generate`" in results["init"].stdout
    assert results["check"].stdout == "media_library: up to date (1 tools)\n"
    assert not (project / "Makefile").exists()
    # The installed copy ran, not this checkout: its templates came from the wheel.
    module = (project / "generated" / "media_library" / "__init__.py").read_text()
    assert "run `toolcat generate media_library` instead" in module


def test_wheel_in_a_fresh_project(tmp_path: Path, toolcat: Path) -> None:
    _scratch_project(tmp_path, toolcat)


def test_wheel_beside_a_package_named_generator(tmp_path: Path, toolcat: Path) -> None:
    theirs = tmp_path / "src" / "generator"
    theirs.mkdir(parents=True)
    (theirs / "__init__.py").write_text('"""The project\'s own code generator."""\n')
    _scratch_project(tmp_path, toolcat, pythonpath=tmp_path / "src")
