"""`generate` replaces a folder only when everything in it is a file toolcat writes.

Each case of issue 9.1 that used to lose data: an output folder holding other
files, the spec's own folder, a folder holding the config, the working folder or
its parent, a regular file, a symlink. Each must exit 2 naming the problem and
leave every byte where it was.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from helpers.fixtures import write_spec
from helpers.generate import run_cli
from helpers.inprocess import RunCli
from toolcat.config import Target
from toolcat.output import files
from toolcat.output.guard import emitted_names
from toolcat.vocab.files import CATALOG_FILE, MODULE_FILE, RECORD_FILE, SUMMARY_FILE

SPEC = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {"operationId": "getX",
                                 "responses": {"200": {"description": "ok"}}}}}}


def _snapshot(root: Path) -> dict[str, bytes | str]:
    """Every entry under ``root`` (symlinks by target, files by bytes)."""
    found: dict[str, bytes | str] = {}
    for folder, dirs, names in os.walk(root):
        for name in sorted(dirs + names):
            path = Path(folder) / name
            rel = path.relative_to(root).as_posix()
            if path.is_symlink():
                found[rel] = f"-> {os.readlink(path)}"
            elif path.is_file():
                found[rel] = path.read_bytes()
            else:
                found[rel] = "dir"
    return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write_spec(tmp_path / "api", SPEC, "openapi.yaml")
    return tmp_path


def _refused(project: Path, out: Path | str, *words: str, cwd: Path | None = None) -> None:
    before = _snapshot(project)
    result = run_cli("generate", "--spec", project / "api" / "openapi.yaml", "--out", out,
                     "--name", "api", cwd=cwd or project)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "internal error" not in result.stderr
    for word in words:
        assert word in result.stderr, result.stderr
    assert _snapshot(project) == before, "generate touched files although it refused"


def test_folder_with_other_files(project: Path) -> None:
    out = project / "out"
    (out / "sub").mkdir(parents=True)
    (out / "app.py").write_text("print('mine')\n")
    (out / "sub" / "y.txt").write_text("y\n")
    _refused(project, out, "did not write", "app.py", "sub/")


def test_the_specs_own_folder(project: Path) -> None:
    _refused(project, project / "api", "openapi.yaml")


def test_a_folder_holding_the_config(project: Path) -> None:
    (project / "conf").mkdir()
    (project / "conf" / "toolcat.yaml").write_text(
        "catalogs:\n  api:\n    spec: ../api/openapi.yaml\n    output: .\n")
    before = _snapshot(project)
    result = run_cli("generate", "--config", project / "conf" / "toolcat.yaml",
                     cwd=project / "api")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "toolcat.yaml" in result.stderr
    assert _snapshot(project) == before


@pytest.mark.parametrize("where", [".", "..", "$PWD"])
def test_the_working_folder_and_its_parent(project: Path, where: str) -> None:
    work = project / "work"
    work.mkdir()
    (work / "keep.txt").write_text("keep\n")
    out = str(work) if where == "$PWD" else where
    _refused(project, out, "working folder", cwd=work)


def test_a_regular_file(project: Path) -> None:
    (project / "notes.txt").write_text("notes\n")
    _refused(project, project / "notes.txt", "not a folder")


def test_a_symlink(project: Path) -> None:
    real = project / "real"
    real.mkdir()
    (project / "link").symlink_to(real)
    _refused(project, project / "link", "symlink")


def test_a_folder_toolcat_wrote_is_replaced(project: Path) -> None:
    out = project / "out"
    first = run_cli("generate", "--spec", project / "api" / "openapi.yaml", "--out", out)
    assert first.returncode == 0, first.stderr
    (out / "__pycache__").mkdir()
    (out / "__pycache__" / "__init__.cpython-311.pyc").write_bytes(b"\0")
    again = run_cli("generate", "--spec", project / "api" / "openapi.yaml", "--out", out)
    assert again.returncode == 0, again.stderr
    assert sorted(p.name for p in out.iterdir()) == sorted(
        [CATALOG_FILE, MODULE_FILE, SUMMARY_FILE, RECORD_FILE])


def test_emitted_names_are_the_four_files(tmp_path: Path) -> None:
    target = Target(name="api", spec=tmp_path / "s.yaml", spec_label="s.yaml",
                    output=tmp_path / "out")
    assert emitted_names(target) == {CATALOG_FILE, MODULE_FILE, SUMMARY_FILE, RECORD_FILE}


def test_a_folder_under_an_emitted_name(project: Path) -> None:
    out = project / "out"
    (out / CATALOG_FILE).mkdir(parents=True)
    (out / CATALOG_FILE / "precious.txt").write_text("mine\n")
    _refused(project, out, "catalog.json/")


def test_a_file_written_into_the_folder_while_waiting_for_the_lock(
        project: Path, toolcat: RunCli, monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder is judged again under the lock, right before the swap: a file that
    another run (or program) wrote while this one waited for the lock survives."""
    out = project / "out"
    spec = project / "api" / "openapi.yaml"
    assert toolcat("generate", "--spec", spec, "--out", out).returncode == 0
    real_lock = files.parent_locked

    @contextmanager
    def someone_writes_first(folder: Path) -> Iterator[None]:
        (out / "notes.txt").write_text("written while toolcat waited\n")
        with real_lock(folder):
            yield

    monkeypatch.setattr(files, "parent_locked", someone_writes_first)
    before = _snapshot(project)
    result = toolcat("generate", "--spec", spec, "--out", out)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "notes.txt" in result.stderr, result.stderr
    assert _snapshot(project) == {**before, "out/notes.txt": b"written while toolcat waited\n"}
