"""toolcat removes only staging and backup folders it can prove it made (issue 28, item 3).

`check` and `generate` deleted a user's ``.<out>.previous`` (its notes.txt gone) and a
user folder named ``.<out>.staging-<dead pid>-x``; a symlink named ``.<out>.previous``
ended in "internal error: Cannot call rmtree on a symbolic link". Now a staging or
backup folder is removed only when it is a real folder holding toolcat's marker file
with toolcat's bytes (read without following a symlink); anything else is left alone,
and a backup name toolcat needs but did not make is a located refusal (exit 2).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers.generate import run_cli
from helpers.generated_copy import generate_adhoc
from toolcat.output.files import MARKER

SPEC = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {"operationId": "getX",
                                 "responses": {"200": {"description": "ok"}}}}}}
STAGING_MARK = b"toolcat staging folder of out; removed by toolcat\n"
BACKUP_MARK = b"toolcat backup folder of out; removed by toolcat\n"


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


@pytest.fixture
def made(tmp_path: Path) -> tuple[Path, Path]:
    return generate_adhoc(tmp_path, SPEC)


def _run(command: str, made: tuple[Path, Path]) -> subprocess.CompletedProcess[str]:
    spec, out = made
    return run_cli(command, "--spec", spec, "--out", out)


@pytest.mark.parametrize("command", ["generate", "check"])
def test_a_users_previous_folder_is_kept(made: tuple[Path, Path], command: str) -> None:
    notes = made[1].with_name(".out.previous") / "notes.txt"
    notes.parent.mkdir()
    notes.write_text("mine\n")
    result = _run(command, made)
    assert notes.read_text() == "mine\n", f"{command} deleted a folder it did not make"
    assert "internal error" not in result.stderr
    if command == "generate":
        assert result.returncode == 2, result.stdout + result.stderr
        assert f"{notes.parent}: toolcat keeps the previous output" in result.stderr


@pytest.mark.parametrize("command", ["generate", "check"])
def test_a_symlink_named_previous_is_neither_followed_nor_removed(
        made: tuple[Path, Path], command: str, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / MARKER).write_bytes(BACKUP_MARK)   # even toolcat's marker behind it
    (elsewhere / "keep.txt").write_text("keep\n")
    link = made[1].with_name(".out.previous")
    link.symlink_to(elsewhere)
    result = _run(command, made)
    assert "internal error" not in result.stderr, result.stderr
    assert result.returncode == (2 if command == "generate" else 0), result.stderr
    assert link.is_symlink()
    assert (elsewhere / "keep.txt").read_text() == "keep\n"


def test_a_user_folder_named_like_dead_staging_is_kept(made: tuple[Path, Path]) -> None:
    out = made[1]
    user = out.with_name(f".out.staging-{_dead_pid()}-x")
    user.mkdir()
    (user / "notes.txt").write_text("mine\n")
    wrong = out.with_name(f".out.staging-{_dead_pid()}-y")   # a marker of another role
    wrong.mkdir()
    (wrong / MARKER).write_bytes(BACKUP_MARK)
    linked = out.with_name(f".out.staging-{_dead_pid()}-z")   # the marker is a symlink
    linked.mkdir()
    (out.parent / "mark").write_bytes(STAGING_MARK)
    (linked / MARKER).symlink_to(out.parent / "mark")
    ours = out.with_name(f".out.staging-{_dead_pid()}-w")   # what a killed run leaves
    ours.mkdir()
    (ours / MARKER).write_bytes(STAGING_MARK)
    result = _run("generate", made)
    assert result.returncode == 0, result.stderr
    assert (user / "notes.txt").read_text() == "mine\n"
    assert wrong.is_dir()
    assert linked.is_dir()
    assert not ours.exists(), "a killed run's own staging folder was left"


def test_a_backup_toolcat_made_is_removed_once_the_folder_exists(
        made: tuple[Path, Path]) -> None:
    backup = made[1].with_name(".out.previous")
    backup.mkdir()
    (backup / MARKER).write_bytes(BACKUP_MARK)
    result = _run("generate", made)
    assert result.returncode == 0, result.stderr
    assert not backup.exists()
