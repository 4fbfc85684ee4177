"""`check` compares every file and folder under the catalog folder (issue 28, items 1, 18).

A forged ``__pycache__/__init__.<tag>.pyc`` compiled with an unchecked hash from other
code made ``import <catalog>`` run that code while `check` said "up to date": check
skipped ``__pycache__``. It skipped the folder's record too. Now nothing is skipped:
a folder of any kind (``__pycache__`` empty, full or nested) and a file toolcat did not
write are "extra"; a forged, deleted or unreadable record is stale (docs/check.md).
"""

from __future__ import annotations

import os
import py_compile
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner, Result
from helpers.generate import run_cli
from helpers.generated_copy import project_fixtures
from toolcat.cli import cli
from toolcat.jsonio import dumps
from toolcat.vocab.files import RECORD_FILE

SPEC = {"openapi": "3.1.0", "info": {"title": "widgets", "version": "1"},
        "paths": {"/widgets": {"get": {"operationId": "listWidgets",
                                       "responses": {"200": {"description": "ok"}}}}}}
CONFIG = "catalogs:\n  widgets:\n    spec: api/spec.yaml\n    output: out/widgets\n"
FORGED = "print('FORGED CODE RAN')\n"


generated, project = project_fixtures(SPEC, CONFIG)


def _check(project: Path) -> Result:
    return CliRunner().invoke(cli, ["check", "--config", str(project / "toolcat.yaml")])


def _stale(project: Path, *named: str) -> str:
    result = _check(project)
    assert result.exit_code == 1, result.output
    for line in named:
        assert line in result.output, f"{line!r} not reported:\n{result.output}"
    return result.output


def _forge_pyc(out: Path) -> Path:
    source = out.parent / "forged_source.py"
    source.write_text(FORGED)
    pyc = out / "__pycache__" / f"__init__.{sys.implementation.cache_tag}.pyc"
    py_compile.compile(str(source), cfile=str(pyc), doraise=True,
                       invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    source.unlink()
    return pyc


def test_the_forged_pyc_runs_on_import_and_check_reports_it(project: Path) -> None:
    out = project / "out" / "widgets"
    assert _check(project).exit_code == 0
    _forge_pyc(out)
    imported = subprocess.run([sys.executable, "-c", "import widgets"], cwd=out.parent,
                              capture_output=True, text=True, check=False, timeout=60)
    assert "FORGED CODE RAN" in imported.stdout, "the reproducer no longer reproduces"
    output = _stale(project, "extra: __pycache__/",
                    f"extra: __pycache__/__init__.{sys.implementation.cache_tag}.pyc")
    assert "PYTHONDONTWRITEBYTECODE" in output   # the note for local imports


@pytest.mark.parametrize("folder", ["__pycache__", "sub/__pycache__", "sub"])
def test_an_empty_or_nested_folder_is_extra(project: Path, folder: str) -> None:
    (project / "out" / "widgets" / folder).mkdir(parents=True)
    _stale(project, f"extra: {folder}/")


def test_a_local_import_is_reported_and_generate_clears_it(project: Path) -> None:
    """A user who imports the catalog module from the folder gets Python's own cache:
    check names it with the way out, and generate replaces the folder without it."""
    out = project / "out" / "widgets"
    imported = subprocess.run([sys.executable, "-c", "import widgets"], cwd=out.parent,
                              capture_output=True, text=True, check=False, timeout=60,
                              env={k: v for k, v in os.environ.items()
                                   if k not in ("PYTHONDONTWRITEBYTECODE",
                                                "PYTHONPYCACHEPREFIX")})
    assert imported.returncode == 0, imported.stderr
    assert (out / "__pycache__").is_dir()
    _stale(project, "extra: __pycache__/", "toolcat generate")
    regenerated = run_cli("generate", "--config", project / "toolcat.yaml")
    assert regenerated.returncode == 0, regenerated.stderr
    assert _check(project).exit_code == 0


def _record(project: Path) -> Path:
    return project / "out" / "widgets" / RECORD_FILE


def test_a_forged_record_is_stale(project: Path) -> None:
    data = orjson.loads(_record(project).read_bytes())
    data["tools"] = 7
    _record(project).write_bytes(dumps(data))
    _stale(project, f"changed: {RECORD_FILE}")


def test_a_deleted_record_is_stale(project: Path) -> None:
    _record(project).unlink()
    _stale(project, f"missing: {RECORD_FILE}")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_a_record_that_is_no_regular_file_is_stale_and_not_read(project: Path,
                                                                kind: str) -> None:
    _record(project).unlink()
    if kind == "fifo":
        os.mkfifo(_record(project))
    else:
        _record(project).symlink_to(kind)
    result = run_cli("check", "--config", project / "toolcat.yaml", timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"changed: {RECORD_FILE}" in result.stdout
