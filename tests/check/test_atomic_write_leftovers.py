"""What a killed run leaves behind is undone by the next run (issue 9.12).

A generate killed between its two renames leaves the folder moved aside: the next
generate puts it back (check changes nothing: tests/check/test_check_changes_nothing.py).
Staging folders of killed runs are removed by the next generate (those of live runs
are not, nor any toolcat cannot prove it made: tests/check/test_deletes_only_its_own.py).
The forked validator does not outlive its parent.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from toolcat.output.files import MARKER, remove_stale_staging, write_catalog

SPEC = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {"operationId": "getX",
                                 "responses": {"200": {"description": "ok"}}}}}}


def _dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_stale_staging_of_killed_runs_is_removed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    dead = tmp_path / f".out.staging-{_dead_pid()}-abc"
    live = tmp_path / f".out.staging-{os.getpid()}-def"
    other = tmp_path / ".other.staging-1-x"
    for folder in (dead, live, other):
        folder.mkdir()
        (folder / "catalog.json").write_text("{}\n")
        (folder / MARKER).write_bytes(b"toolcat staging folder of out; removed by toolcat\n")
    write_catalog(out, {"catalog.json": b"{}\n"})
    assert not dead.exists(), "a killed run's staging folder was left"
    assert live.exists(), "a live run's staging folder was removed"
    assert other.exists(), "another catalog's staging folder was touched"
    remove_stale_staging(out)
    assert live.exists()


def _gone(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return True
    return "\nState:\tZ" in status


PARENT = """
import sys, time
from toolcat.load.validation import validate
pid_file = sys.argv[1]

def slow(document, file, *args, **kwargs):
    import os
    with open(pid_file, "w") as out:
        out.write(str(os.getpid()))
    time.sleep(120)

assert hasattr(validate, "find_problems"), "the child no longer calls find_problems"
validate.find_problems = slow
validate.validate_in_background({"openapi": "3.1.0"}, "x.yaml")
time.sleep(120)
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_forked_validator_dies_with_a_killed_parent(tmp_path: Path) -> None:
    pid_file = tmp_path / "child.pid"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, str(pid_file)])
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the validator never started"
            time.sleep(0.05)
        child = int(pid_file.read_text())
        assert not _gone(child)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    deadline = time.monotonic() + 10
    while not _gone(child):
        if time.monotonic() > deadline:
            os.kill(child, signal.SIGKILL)
            pytest.fail("the forked validator outlived its killed parent")
        time.sleep(0.05)
