"""What generate and check leave to the program's exit (run.py, ``hold_until_exit``).

The program leaves without the interpreter's teardown (tests/project/test_program_exit.py),
so the trees a run built are never freed one object at a time: the pipeline hands the
spec's document and the shared definitions to ``hold_until_exit``. Only generate and check
run as a program hold them (they end the program); a caller in the same process, or
``serve``, which goes on, holds nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.paths import EXAMPLE_SPEC
from toolcat import cli, run
from toolcat.normalise.defs import Definitions
from toolcat.pipeline import LoadedSpec


def _check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCAT_CACHE", "off")   # check builds, as on a fresh runner
    out = tmp_path / "catalog"
    where = ["--spec", str(EXAMPLE_SPEC), "--out", str(out), "--name", "api"]
    done = CliRunner().invoke(cli.cli, ["generate", *where])
    assert done.exit_code == 0, done.output
    checked = CliRunner().invoke(cli.cli, ["check", *where])
    assert checked.exit_code == 0, checked.output


def test_run_as_a_program_the_document_and_definitions_are_held(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "_held", None)
    monkeypatch.setattr(cli, "_program", True)
    _check(tmp_path, monkeypatch)
    held = run._held
    assert held is not None, "generate run as a program did not start holding"
    specs = [h for h in held if isinstance(h, LoadedSpec)]
    assert len(specs) == 2, ("one LoadedSpec per build (generate, check), held: "
                             f"{[type(h).__name__ for h in held]}")
    assert all(s.document.get("openapi") for s in specs), "the held spec has no document"
    assert sum(isinstance(h, Definitions) for h in held) == 2, "definitions not held"


def test_called_in_process_nothing_is_held(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run, "_held", None)
    monkeypatch.setattr(cli, "_program", False)
    _check(tmp_path, monkeypatch)
    assert run._held is None, "a caller that goes on keeps every run's document"
    run.hold_until_exit(object())
    assert run._held is None
