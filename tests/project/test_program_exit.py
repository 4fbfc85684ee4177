"""How the ``toolcat`` program leaves (cli.py, ``_leave``).

Run as a program, a finished command skips the interpreter's teardown (freeing a large
run's objects one by one) but keeps what exit does that anyone can see: the exit code
(0 ok, 1 stale, 2 error), everything written to stdout and stderr (a pipe holds it in
a buffer until flushed), the atexit handlers. With another thread still running it
leaves as Python does, which waits for it. Each case is a subprocess, as users run it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from helpers.paths import EXAMPLE_SPEC

# What a program may have set up before calling main: an atexit handler, an object its
# module holds (finalized only by the teardown), optionally a thread still at work.
PRELUDE = """
import atexit, os, sys, threading, time
atexit.register(lambda: sys.stdout.write("atexit handler ran\\n"))   # buffered: a pipe
class Held:
    def __del__(self):
        sys.stderr.write("torn down\\n")
held = Held()
"""
THREAD = """
def work():   # still at work when the catalog is written, as main returns
    catalog = sys.argv[sys.argv.index("--out") + 1] + "/catalog.json"
    while not os.path.exists(catalog):
        time.sleep(0.01)
    time.sleep(0.3)
    sys.stderr.write("thread finished\\n")
threading.Thread(target=work).start()
"""


def _program(*args: str | Path, thread: bool = False) -> subprocess.CompletedProcess[str]:
    code = PRELUDE + (THREAD if thread else "") + "from toolcat.cli import main\nmain()\n"
    # Buffered as by default (this machine's environment may set PYTHONUNBUFFERED).
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    return subprocess.run([sys.executable, "-c", code, *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_a_finished_command_skips_teardown_and_keeps_its_output(tmp_path: Path) -> None:
    out = tmp_path / "catalog"
    done = _program("generate", "--spec", EXAMPLE_SPEC, "--out", out, "--name", "api")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("api: "), done.stdout
    assert " tools, " in done.stdout, done.stdout
    # stdout is a pipe here: what the handler wrote stays in its buffer until flushed.
    assert done.stdout.endswith("atexit handler ran\n"), "a handler skipped, or unflushed"
    assert "torn down" not in done.stderr, "the interpreter's teardown still ran"

    (out / "stray.txt").write_text("not toolcat's\n", encoding="utf-8")
    stale = _program("check", "--spec", EXAMPLE_SPEC, "--out", out, "--name", "api")
    assert stale.returncode == 1, stale.stderr
    assert "STALE" in stale.stdout, stale.stdout
    assert "fix: run" in stale.stdout, stale.stdout
    assert "torn down" not in stale.stderr

    missing = _program("generate", "--spec", tmp_path / "missing.json", "--out", out)
    assert missing.returncode == 2
    assert "cannot read file" in missing.stderr, missing.stderr
    assert missing.stdout == "atexit handler ran\n"
    assert "torn down" not in missing.stderr


def test_a_running_thread_is_waited_for(tmp_path: Path) -> None:
    done = _program("generate", "--spec", EXAMPLE_SPEC, "--out", tmp_path / "catalog",
                    "--name", "api", thread=True)
    assert done.returncode == 0, done.stderr
    assert "thread finished" in done.stderr, "exit did not wait for a running thread"
    assert done.stdout.endswith("atexit handler ran\n")
