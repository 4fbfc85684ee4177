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

import pytest
from helpers.fixtures import write_spec
from helpers.generate import CLI
from toolcat.output.files import parent_locked

LOCKS = Path("/proc/locks")
SPEC = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {"get": {
    "operationId": "a", "responses": {"200": {"description": "ok"}}}}}}


def _start(spec: Path, out: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([*CLI, "generate", "--spec", str(spec), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _waiting_for_a_lock(pid: int) -> bool:
    """Whether the kernel lists ``pid`` as blocked on a flock (``->`` rows of /proc/locks)."""
    for line in LOCKS.read_text().splitlines():
        fields = line.split()
        if len(fields) > 5 and fields[1] == "->" and fields[2] == "FLOCK" \
                and fields[5] == str(pid):
            return True
    return False


@pytest.mark.skipif(not LOCKS.exists(), reason="no /proc/locks to see a blocked writer")
def test_a_second_writer_waits_for_the_lock(tmp_path: Path) -> None:
    """Event-driven: the writer is seen blocked on the lock by the kernel, not assumed
    to be after a sleep (which passed whether or not the lock worked on a slow machine)."""
    spec = write_spec(tmp_path, SPEC)
    out = tmp_path / "gen" / "api"
    with parent_locked(out):
        run = _start(spec, out)
        deadline = time.monotonic() + 120
        while not _waiting_for_a_lock(run.pid):
            assert run.poll() is None, ("the second writer did not wait for the lock",
                                        run.communicate())
            assert time.monotonic() < deadline, "the second writer never reached the lock"
            time.sleep(0.05)
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
