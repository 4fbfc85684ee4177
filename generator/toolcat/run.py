"""One run of one catalog, fixed where the command line meets the config, then passed down.

The CLI builds a ``Run`` for each target it resolves (``config.load_config``, or the ad hoc
options): the target with its paths resolved and the command that regenerates it
(``Target.regenerate``, run from ``Target.regenerate_from``: ``config.regenerate_command``
builds it once), the config file it came from, and the run's ``Inputs``. The flows, the
pipeline, the folder's record and this machine's caches read every input file (the spec
and each file a ``$ref`` reaches, the override file, the overlays) through ``read``, so
each is read once per run and every stage sees the same bytes
(tests/check/test_inputs_read_once.py counts the reads).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .config import Target
from .parse.inputs import Inputs


@dataclass(frozen=True)
class Run:
    target: Target
    config: Path | None = None      # the config file that names the target; None: ad hoc
    inputs: Inputs = field(default_factory=Inputs, compare=False, repr=False)

    @property
    def read(self) -> Inputs:
        """The run's reader (``run.read(path)``: an input file's bytes, read within
        ``parse.limits`` the first time only); handed down, it is the run's ``Inputs``."""
        return self.inputs

    def named_inputs(self) -> list[Path]:
        """The input files the target and the command name (the files a ``$ref``
        reaches are known once the spec is read): a folder toolcat replaces holds none."""
        target = self.target
        return [target.spec, *([target.overrides] if target.overrides else []),
                *target.overlays, *([self.config] if self.config else [])]


# What a run leaves to the program's exit (``hold_until_exit``); None: nothing is held.
_held: list[Any] | None = None


def holding_until_exit() -> None:
    """From now on, ``hold_until_exit`` keeps what it is given: for a command that ends
    the program, which leaves without the interpreter's teardown (cli.py, ``_leave``)."""
    global _held  # noqa: PLW0603 - one per process, as the exit is
    if _held is None:
        _held = []


def hold_until_exit(*objects: Any) -> None:
    """Keep ``objects`` alive until the process leaves, when it leaves without freeing
    them (``holding_until_exit``): freeing GitHub's parsed 13 MB one object at a time
    costs about 12 ms of CPU that nothing needs. Otherwise (a test, ``serve``, which goes
    on after its check) nothing is kept."""
    if _held is not None:
        _held.extend(objects)


def fix_command(target: Target) -> str:
    """The command that regenerates ``target``, quoted, and where to run it: the one its
    module names, in every message that says how to bring a folder up to date (check,
    serve, diff)."""
    where = f" from {target.output.resolve().parent}" if target.regenerate_from else ""
    return f"`{target.regenerate}`{where}"
