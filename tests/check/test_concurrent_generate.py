"""Two generates for one folder take turns: the second waits, then writes whole.

Two runs at once raced between staging and the two renames. Writing holds an
exclusive lock on the catalog folder's parent directory (``files.parent_locked``, no
lock file is left behind): here the test holds it, a generate started meanwhile must wait, and
finishes once the lock is free; two generates started together both succeed and
leave exactly one whole catalog.
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

from helpers.fixtures import write_spec
from helpers.generate import CLI
from toolcat.output.files import parent_locked

SPEC = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {
    "operationId": "a", "responses": {"200": {"description": "ok"}}}}}}


def _start(spec: Path, out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([*CLI, "generate", "--spec", str(spec), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_second_writer_waits_for_the_lock(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    out = tmp_path / "gen" / "api"
    with parent_locked(out):
        run = _start(spec, out)
        time.sleep(6)  # long enough for start-up and generation on a busy machine
        assert run.poll() is None, run.communicate()
        assert not out.exists()
    _, err = run.communicate(timeout=120)
    assert run.returncode == 0, err
    assert (out / "catalog.json").is_file()


def test_two_generates_at_once_both_succeed(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, SPEC)
    out = tmp_path / "gen" / "api"
    runs = [_start(spec, out), _start(spec, out)]
    for run in runs:
        _, err = run.communicate(timeout=180)
        assert run.returncode == 0, err
    assert sorted(p.name for p in out.iterdir()) == [
        ".toolcat-inputs.json", "CATALOG.md", "__init__.py", "catalog.json"]
    assert sorted(p.name for p in out.parent.iterdir()) == ["api"]
