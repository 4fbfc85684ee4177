"""The built wheel, installed as a new user would, in a project that is not this one.

Build the wheel, install it (no dependencies: they come from this environment's
site-packages through a path entry, which keeps the test offline and fast; the
editable install there is not active, since a path entry runs no ``.pth``
files) into a fresh virtualenv, then in an empty project without a Makefile:
``toolcat --version``, ``toolcat init``, ``toolcat generate``, ``toolcat check``.

The second test adds what the issue saw: the project has its own package named
``generator`` on the path. It passes only once the import package is renamed. The
others install the same wheel the other ways a user does: run through a link in another
folder (how pipx and uv tool put a tool on PATH) and with ``pip install --user``; each
renders with the templates the wheel ships as package data, never this checkout's.
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import tarfile
import venv
from importlib.metadata import version
from pathlib import Path

import pytest
from helpers.paths import REPO

SPEC = {"openapi": "3.1.0", "info": {"title": "Media Library", "version": "1"},
        "paths": {"/items": {"get": {"operationId": "listItems",
                                     "responses": {"200": {"description": "ok"}}}}}}


PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The release's folder: ``make dist``'s (``$TOOLCAT_DIST``), else built here the
    same way (``python -m build``: the sdist, then the wheel built from the sdist)."""
    given = os.environ.get("TOOLCAT_DIST")
    if given:
        return Path(given).resolve()
    root = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(root), str(REPO)],
                   check=True, capture_output=True, timeout=600,
                   cwd=root)   # not REPO: a build/ folder there would shadow the package
    return root


@pytest.fixture(scope="module")
def wheel(dist: Path) -> Path:
    (built,) = dist.glob("toolcat-*.whl")
    return built


def _fresh_venv(root: Path, artifact: Path) -> Path:
    """The ``toolcat`` script of a fresh virtualenv holding only ``artifact``."""
    env = root / "env"
    venv.EnvBuilder(with_pip=False).create(env)
    # An sdist is built in pip's isolated build environment (setuptools from the index).
    subprocess.run([*PIP, "--python", str(env / "bin" / "python"), "install", "--no-deps",
                    *(["--no-index"] if artifact.suffix == ".whl" else []), str(artifact)],
                   check=True, capture_output=True, timeout=600)
    (purelib,) = (env / "lib").glob("python3*/site-packages")
    (purelib / "_toolcat_test_dependencies.pth").write_text(
        "\n".join(site.getsitepackages()) + "\n")
    return env / "bin" / "toolcat"


@pytest.fixture(scope="module")
def toolcat(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    """The ``toolcat`` script of a fresh virtualenv holding only the built wheel."""
    return _fresh_venv(tmp_path_factory.mktemp("wheel"), wheel)


def _templates_used(python: Path, env: dict[str, str]) -> Path:
    code = "from toolcat.identity import DEFAULT_TEMPLATES as t; print(t.resolve())"
    run = subprocess.run([str(python), "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    return Path(run.stdout.strip())


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
    subprocess.run(["git", "init", "-q", str(project)], check=True)   # a team's repository
    (project / "api" / "openapi.json").write_text(json.dumps(SPEC))
    steps = [("--version",), ("init",), ("generate",), ("check",), ("schema", "config")]
    results = {step[0]: _run(toolcat, project, *step, pythonpath=pythonpath) for step in steps}
    for step, result in results.items():
        assert result.returncode == 0, f"toolcat {step}: {result.stdout}{result.stderr}"
    assert results["--version"].stdout == f"toolcat {version('toolcat')}\n"
    assert "next: run `toolcat generate`" in results["init"].stdout
    assert results["check"].stdout == "media_library: up to date (1 tools)\n"
    assert '"title": "toolcat.yaml"' in results["schema"].stdout   # shipped as package data
    assert not (project / "Makefile").exists()
    # The installed copy ran, not this checkout: its templates came from the wheel.
    module = (project / "generated" / "media_library" / "__init__.py").read_text()
    assert "run `toolcat generate media_library` instead" in module


def test_wheel_in_a_fresh_project(tmp_path: Path, toolcat: Path) -> None:
    _scratch_project(tmp_path, toolcat)


def test_sdist_in_a_fresh_project(tmp_path: Path, dist: Path) -> None:
    """The sdist alone (not the checkout) builds and installs a working toolcat."""
    (sdist,) = dist.glob("toolcat-*.tar.gz")
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
    top = sdist.name.removesuffix(".tar.gz")
    for shipped in ("generator/toolcat/templates/models.py.jinja",
                    "generator/toolcat/schemas/config.schema.json",
                    "LICENSE", "pyproject.toml"):
        assert f"{top}/{shipped}" in names, shipped
    toolcat = _fresh_venv(tmp_path / "sdist", sdist)
    _scratch_project(tmp_path, toolcat)
    used = _templates_used(toolcat.parent / "python", dict(os.environ))
    assert not used.is_relative_to(REPO), f"the sdist rendered with the checkout's {used}"


def test_wheel_beside_a_package_named_generator(tmp_path: Path, toolcat: Path) -> None:
    theirs = tmp_path / "src" / "generator"
    theirs.mkdir(parents=True)
    (theirs / "__init__.py").write_text('"""The project\'s own code generator."""\n')
    _scratch_project(tmp_path, toolcat, pythonpath=tmp_path / "src")


def test_wheel_through_a_link_as_pipx_installs_it(tmp_path: Path, toolcat: Path) -> None:
    """pipx and uv tool link the venv's script into a bin folder on PATH."""
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    (bin_folder / "toolcat").symlink_to(toolcat)
    _scratch_project(tmp_path, bin_folder / "toolcat")
    used = _templates_used(toolcat.parent / "python", dict(os.environ))
    assert used.is_relative_to(toolcat.parent.parent.resolve()), used
    assert not used.is_relative_to(REPO), f"the wheel rendered with the checkout's {used}"


def test_wheel_installed_with_user(tmp_path: Path, wheel: Path) -> None:
    """``pip install --user``: the package and its templates under the user base."""
    base_python = Path(sys.base_prefix) / "bin" / "python3"
    if not base_python.exists():
        pytest.skip(f"no base interpreter at {base_python}")
    userbase = tmp_path / "userbase"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PYTHONUSERBASE"] = str(userbase)
    install = subprocess.run(
        [str(base_python), "-m", "pip", "--disable-pip-version-check", "-q", "install",
         "--user", "--no-deps", "--no-index", "--no-warn-script-location", str(wheel)],
        env=env, capture_output=True, text=True, timeout=300, check=False)
    if install.returncode != 0 and "pip" in install.stderr and "No module named" in install.stderr:
        pytest.skip(f"the base interpreter {base_python} has no pip")
    assert install.returncode == 0, install.stderr
    # Dependencies from this environment, through a path entry (no .pth of it runs).
    env["PYTHONPATH"] = os.pathsep.join(site.getsitepackages())
    used = _templates_used(base_python, env)
    assert used.is_relative_to(userbase.resolve()), used
    script = userbase / "bin" / "toolcat"
    project = tmp_path / "project"
    (project / "api").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)   # a team's repository
    (project / "api" / "openapi.json").write_text(json.dumps(SPEC))
    env["TOOLCAT_CACHE"] = "off"
    for step in (("init",), ("generate",), ("check",)):
        run = subprocess.run([str(script), *step], cwd=project, env=env, capture_output=True,
                             text=True, timeout=300, check=False)
        assert run.returncode == 0, f"toolcat {step[0]}: {run.stdout}{run.stderr}"
