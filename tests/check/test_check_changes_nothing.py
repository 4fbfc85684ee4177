"""`check` never changes the tree, and a missing folder is stale (issue 28, item 2).

check used to rename ``.<name>.previous`` into place before comparing, so a commit
holding a planted backup and no catalog folder passed. Now check only reads: the
folder is missing, so it is stale (exit 1), whatever sits beside it. The next
``generate`` puts back a backup toolcat itself made (a run killed between the
swap's two renames) and writes the catalog.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.fixtures import write_spec
from helpers.generate import run_cli
from helpers.generated_copy import generate_adhoc
from toolcat.output.files import MARKER

SPEC = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {"operationId": "getX",
                                 "responses": {"200": {"description": "ok"}}}}}}

# generate, killed (os._exit) right after it moved the old folder aside.
KILLED = """
import os, sys
from pathlib import Path
from toolcat.cli import main
real = Path.rename
def rename(self, target):
    if Path(target).name.startswith(".out.previous"):
        real(self, target)
        os._exit(9)
    return real(self, target)
Path.rename = rename
sys.argv = ["toolcat", "generate", "--spec", sys.argv[1], "--out", sys.argv[2]]
main()
"""


def _tree(folder: Path) -> dict[str, bytes | str]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else "folder"
            for p in sorted(folder.rglob("*"))}


@pytest.fixture
def made(tmp_path: Path) -> tuple[Path, Path]:
    return generate_adhoc(tmp_path, SPEC)


@pytest.mark.parametrize("marked", [False, True])
def test_a_planted_backup_and_no_folder_is_stale(made: tuple[Path, Path],
                                                 marked: bool) -> None:
    spec, out = made
    backup = out.with_name(".out.previous")
    out.rename(backup)
    if marked:   # even one carrying toolcat's marker: check does not restore
        (backup / MARKER).write_bytes(b"toolcat backup folder of out; removed by toolcat\n")
    before = _tree(out.parent)
    result = run_cli("check", "--spec", spec, "--out", out)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "missing: catalog.json" in result.stdout
    assert _tree(out.parent) == before, "check changed the tree"


def test_a_generate_killed_mid_swap_is_stale_then_restored_by_generate(
        made: tuple[Path, Path]) -> None:
    spec, out = made
    files = _tree(out)
    killed = subprocess.run([sys.executable, "-c", KILLED, str(spec), str(out)],
                            capture_output=True, text=True, check=False, timeout=120)
    assert killed.returncode == 9, killed.stderr
    assert not out.exists()
    assert out.with_name(".out.previous").is_dir()
    before = _tree(out.parent)
    result = run_cli("check", "--spec", spec, "--out", out)
    assert result.returncode == 1, result.stdout + result.stderr
    assert _tree(out.parent) == before, "check changed the tree"
    again = run_cli("generate", "--spec", spec, "--out", out)
    assert again.returncode == 0, again.stderr
    assert _tree(out) == files
    assert sorted(p.name for p in out.parent.iterdir()) == ["out"], "backup or staging left"


def test_check_of_a_missing_folder_creates_nothing(tmp_path: Path) -> None:
    spec = write_spec(tmp_path / "api", SPEC, "openapi.yaml")
    out = tmp_path / "gen" / "out"
    (tmp_path / "gen").mkdir()
    result = run_cli("check", "--spec", spec, "--out", out)
    assert result.returncode == 1, result.stdout + result.stderr
    assert list((tmp_path / "gen").iterdir()) == []
    shutil.rmtree(tmp_path / "gen")
