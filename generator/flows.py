"""The two runs of the pipeline for one target, as functions that return results.

``generate`` renders and writes the folder; ``check`` regenerates in memory and
compares with the folder. The CLI prints what they return; ``serve``, ``verify``
and the tests call them the same way. Building imports the whole pipeline, so
it is imported only when a run has to build.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.config import Target
from generator.load.validation.findings import Findings
from generator.output.files import Difference, compare, on_disk, write_catalog
from generator.output.fresh import previous_verdict, remember_outputs, unchanged
from generator.output.record import make_record
from generator.vocab.files import CATALOG_FILE, RECORD_FILE


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


def generate(target: Target) -> Generated:
    from generator.pipeline import build  # noqa: PLC0415 - see the module's docstring

    built = build(target, render=True)
    catalog, files = built.catalog, built.files or {}
    record = make_record(target, built.read, files, len(catalog.tools))
    write_catalog(target.output, {**files, RECORD_FILE: record})
    remember_outputs(target, built.spec_files, files, len(catalog.tools))
    return Generated(target, len(catalog.tools), sum(len(v) for v in files.values()),
                     built.findings)


def check(target: Target) -> Checked:
    current = on_disk(target.output)
    tools = unchanged(target, current)
    if tools is not None:
        return Checked(target, tools, ())
    from generator.pipeline import build  # noqa: PLC0415 - not needed when fresh

    built = build(target, previous_verdict(target.output), render=True)
    catalog, files = built.catalog, built.files or {}
    differences = compare(target.output, files, current)
    if not differences:
        remember_outputs(target, built.spec_files, files, len(catalog.tools))
        return Checked(target, len(catalog.tools), (), findings=built.findings)
    from generator.diff.report import stale_summary  # noqa: PLC0415 - only when stale

    summary = stale_summary(current.get(CATALOG_FILE), files[CATALOG_FILE])
    return Checked(target, len(catalog.tools), tuple(differences), summary, built.findings)
