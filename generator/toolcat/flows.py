"""The two runs of the pipeline for one target, as functions that return results.

``generate`` renders and writes the folder; ``check`` regenerates in memory and
compares with the folder. The CLI prints what they return; ``serve``, ``verify``
and the tests call them the same way. Building imports the whole pipeline, so
it is imported only when a run has to build.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .config import Target
from .load.validation.findings import Findings
from .output.files import (
    Difference,
    Files,
    compare,
    on_disk,
    parent_locked,
    write_catalog,
)
from .output.fresh import remember_outputs, unchanged
from .output.guard import check_replaceable, emitted_names, replaceable_names
from .output.record import make_record
from .output.unwritable import refused_when_unwritable
from .run import Run
from .vocab.files import CATALOG_FILE, RECORD_FILE


@dataclass(frozen=True)
class Generated:
    target: Target
    tools: int
    size: int            # bytes written, the record aside
    findings: Findings   # the validator's problems, in warn mode


@dataclass(frozen=True)
class Checked:
    target: Target
    tools: int
    differences: tuple[Difference, ...]   # empty: up to date
    summary: str = ""                     # what changed in catalog.json, when stale
    findings: Findings | None = None      # the validator's problems, in warn mode

    @property
    def stale(self) -> bool:
        return bool(self.differences)


def generate(run: Run) -> Generated:
    """Build, then replace the folder, if it is one toolcat may replace (see
    output/guard.py; every named input, the config included, is a file the folder must
    not hold)."""
    from .pipeline import build  # noqa: PLC0415 - see the module's docstring

    target = run.target
    names = emitted_names(target)
    replaceable = replaceable_names(target)
    inputs = run.named_inputs()
    check_replaceable(target.output, replaceable, inputs)
    built = build(run, render=True)
    catalog, files = built.catalog, built.files or {}
    _budgets(target, files.get(CATALOG_FILE))
    record = make_record(target, built.spec_files, files, len(catalog.tools), run.read)
    written = {**files, RECORD_FILE: record}
    if not set(written) <= names:
        raise AssertionError(f"rendered {sorted(set(written) - names)}, not in emitted_names")
    every_input = [*inputs, *built.spec_files]
    with refused_when_unwritable(target.output):
        # Judged again under the lock, now with every file the spec was read from: the
        # folder may have changed while building.
        write_catalog(target.output, written,
                      guard=lambda: check_replaceable(target.output, replaceable, every_input))
    remember_outputs(target, built.spec_files, written, len(catalog.tools), run.read)
    return Generated(target, len(catalog.tools), sum(len(v) for v in files.values()),
                     built.findings)


def check(run: Run) -> Checked:
    """Compare every file and folder under the catalog folder, its record included,
    with what ``generate`` would write; change nothing (an interrupted swap's backup
    beside it is neither restored nor read: a missing folder is stale)."""
    target = run.target
    current = _read_folder(target.output)
    tools = unchanged(target, current, run.read)
    if tools is not None:
        _budgets(target, current.get(CATALOG_FILE))
        return Checked(target, tools, ())
    from .pipeline import build  # noqa: PLC0415 - not needed when fresh

    built = build(run, render=True)
    catalog, files = built.catalog, built.files or {}
    record = make_record(target, built.spec_files, files, len(catalog.tools), run.read)
    expected = {**files, RECORD_FILE: record}
    differences = compare(target.output, expected, current)
    _budgets(target, files.get(CATALOG_FILE))
    if not differences:
        remember_outputs(target, built.spec_files, expected, len(catalog.tools), run.read)
        return Checked(target, len(catalog.tools), (), findings=built.findings)
    from .diff.report import stale_summary  # noqa: PLC0415 - only when stale

    summary = stale_summary(current.get(CATALOG_FILE), files[CATALOG_FILE])
    return Checked(target, len(catalog.tools), tuple(differences), summary, built.findings)


def _read_folder(out: Path) -> Files:
    """The folder as ``compare`` sees it, read between two runs of ``generate`` (they
    take turns on the parent's lock; taking it changes nothing on disk)."""
    if not out.parent.is_dir():
        return {}
    with parent_locked(out):
        return on_disk(out)


def _budgets(target: Target, catalog_json: bytes | None) -> None:
    """A budget (max_tools, max_tokens) the catalog or a toolset exceeds is an error."""
    if catalog_json is None or (target.budget is None
                                and all(t.budget is None for t in target.toolsets)):
        return
    import orjson  # noqa: PLC0415

    from .render.budget import check_budgets  # noqa: PLC0415

    check_budgets(target, orjson.loads(catalog_json))
