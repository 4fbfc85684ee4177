"""The command a generated module names, run from the folder it says, makes the same bytes.

Every generated module (and models.py) says "Do not edit: run `COMMAND` instead", with
" from the folder holding this one" when the command is not run from the root of the repository that
holds the project. The paths in it are spelled relative to that one folder, so the
command works wherever the project sits: under the system temporary folder (where a
fresh clone may be, and where a deepest-common-folder rule used to name the folders in
between) and outside it. Each case here generates, reads the command back out of the
module, deletes the output, runs the command from the folder it names, and compares.
"""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.generate import run_cli
from helpers.paths import REPO
from helpers.project import SPEC, make_project

NAMED = re.compile(r"Do not edit: run `(?P<command>[^`]+)`(?: from (?P<where>the folder "
                   r"holding this one))? instead\.")


def _outside_temp() -> Path:
    """A folder that is not under the system temporary folder: the user's cache, else this
    checkout's ignored build/."""
    temp = Path(tempfile.gettempdir()).resolve()
    for base in (Path.home() / ".cache" / "toolcat-tests", REPO / "build"):
        if not base.resolve().is_relative_to(temp):
            return base
    pytest.skip(f"no folder outside {temp} to place a project in")


@pytest.fixture(params=["under-temp", "outside-temp"])
def place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Path]:
    if request.param == "under-temp":
        yield tmp_path
        return
    folder = _outside_temp() / f"regenerate-{uuid.uuid4().hex[:8]}"
    folder.mkdir(parents=True)
    try:
        yield folder
    finally:
        shutil.rmtree(folder)


def _named(module: Path) -> tuple[list[str], str | None]:
    match = NAMED.search(module.read_text())
    assert match, f"no regenerate command in {module}"
    words = shlex.split(match["command"])
    assert words[:2] == ["toolcat", "generate"], words
    return words[1:], match["where"]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _rerun(output: Path, repository: Path | None) -> None:
    """Delete ``output``, then run the command its module names where it says."""
    before = _snapshot(output)
    args, where = _named(output / "__init__.py")
    assert (where is None) == (repository is not None), (args, where)
    cwd = output.parent if where else repository
    assert cwd is not None
    shutil.rmtree(output)
    result = run_cli(*args, cwd=cwd)
    assert result.returncode == 0, f"`{' '.join(args)}` from {cwd}: {result.stderr}"
    assert _snapshot(output) == before, f"`{' '.join(args)}` from {cwd} wrote other bytes"


def test_config_project_in_a_repository(place: Path) -> None:
    root = place / "project"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    specs = root / "specs"
    specs.mkdir()
    make_project(specs)     # specs/toolcat.yaml: the default config, not named
    result = run_cli("generate", cwd=root)
    assert result.returncode == 0, result.stderr
    output = specs / "out" / "widgets"
    args, where = _named(output / "__init__.py")
    assert (args, where) == (["generate", "widgets"], None)
    assert _named(output / "models.py") == (args, where)
    _rerun(output, root)


def test_config_elsewhere_in_a_repository(place: Path) -> None:
    root = place / "project"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    config = make_project(root / "api-docs")
    result = run_cli("generate", "--config", config, cwd=place)   # run from anywhere
    assert result.returncode == 0, result.stderr
    output = root / "api-docs" / "out" / "widgets"
    assert _named(output / "__init__.py") == (
        ["generate", "widgets", "--config", "api-docs/toolcat.yaml"], None)
    _rerun(output, root)


def test_ad_hoc_outside_a_repository(place: Path) -> None:
    if (place / ".git").exists() or any((p / ".git").exists() for p in place.parents):
        pytest.skip(f"{place} is inside a repository")
    (place / "api").mkdir()
    spec = place / "api" / "openapi.json"
    spec.write_text(json.dumps(SPEC))
    output = place / "generated" / "widgets"
    result = run_cli("generate", "--spec", spec, "--out", output, "--prefix", "w_",
                     "--ref-root", place, cwd=REPO)
    assert result.returncode == 0, result.stderr
    assert _named(output / "__init__.py") == (
        ["generate", "--spec", "../api/openapi.json", "--out", "widgets", "--name", "widgets",
         "--prefix", "w_", "--ref-root", ".."], "the folder holding this one")
    _rerun(output, None)
