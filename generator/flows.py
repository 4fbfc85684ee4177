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
    compare,
    on_disk,
    parent_locked,
    recover,
    write_catalog,
)
from .output.fresh import remember_outputs, unchanged
from .output.guard import check_replaceable, emitted_names, replaceable_names
from .output.record import make_record
from .output.unwritable import refused_when_unwritable
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


def generate(target: Target, config: Path | None = None) -> Generated:
    """Build, then replace the folder, if it is one toolcat may replace (see
    output/guard.py; ``config``: the config file, an input the folder must not hold)."""
    from .pipeline import build  # noqa: PLC0415 - see the module's docstring

    names = emitted_names(target)
    replaceable = replaceable_names(target)
    inputs = [target.spec, *([target.overrides] if target.overrides else []),
              *([config] if config else [])]
    check_replaceable(target.output, replaceable, inputs)
    built = build(target, render=True)
    catalog, files = built.catalog, built.files or {}
    _budgets(target, files.get(CATALOG_FILE))
    record = make_record(target, built.read, files, len(catalog.tools))
    written = {**files, RECORD_FILE: record}
    if not set(written) <= names:
        raise AssertionError(f"rendered {sorted(set(written) - names)}, not in emitted_names")
    every_input = [*inputs, *built.spec_files]
    with refused_when_unwritable(target.output):
        # Judged again under the lock, now with every file the spec was read from: the
        # folder may have changed while building.
        write_catalog(target.output, written,
                      guard=lambda: check_replaceable(target.output, replaceable, every_input))
    remember_outputs(target, built.spec_files, files, len(catalog.tools))
    return Generated(target, len(catalog.tools), sum(len(v) for v in files.values()),
                     built.findings)


def check(target: Target) -> Checked:
    if target.output.parent.is_dir():
        with parent_locked(target.output):
            recover(target.output)   # a generate killed between its two renames
    current = on_disk(target.output)
    tools = unchanged(target, current)
    if tools is not None:
        _budgets(target, current.get(CATALOG_FILE))
        return Checked(target, tools, ())
    from .pipeline import build  # noqa: PLC0415 - not needed when fresh

    built = build(target, render=True)
    catalog, files = built.catalog, built.files or {}
    differences = compare(target.output, files, current)
    _budgets(target, files.get(CATALOG_FILE))
    if not differences:
        remember_outputs(target, built.spec_files, files, len(catalog.tools))
        return Checked(target, len(catalog.tools), (), findings=built.findings)
    from .diff.report import stale_summary  # noqa: PLC0415 - only when stale

    summary = stale_summary(current.get(CATALOG_FILE), files[CATALOG_FILE])
    return Checked(target, len(catalog.tools), tuple(differences), summary, built.findings)


def _budgets(target: Target, catalog_json: bytes | None) -> None:
    """A budget (max_tools, max_tokens) the catalog or a toolset exceeds is an error."""
    if catalog_json is None or (target.budget is None
                                and all(t.budget is None for t in target.toolsets)):
        return
    import orjson  # noqa: PLC0415

    from .render.budget import check_budgets  # noqa: PLC0415

    check_budgets(target, orjson.loads(catalog_json))
