"""Benchmark models.py generation (``models: true``) on every real document we have.

Run by `make bench` after scripts/bench.py, on the same documents. For each, the
catalog is built once in process (validation skipped: it is measured by
bench.py), then models.py is rendered --runs times and the median CPU seconds
(user+sys of this process: on a shared machine wall time is mostly the
neighbours, and of the ruff process it starts) of its four steps are printed: the
schema document (naming, shared definitions), datamodel-code-generator (with
toolcat's speedups of it), ruff (formats the module in black's mode) and black (reading
each repeated class-body statement once, ``format_repeats_once``; each as
render_models runs it: the last three with the garbage collector paused); then the
whole render's median wall and CPU seconds. A document whose models fail
to render says why in the last column.

Prints a Markdown table on stdout, progress on stderr. Not part of the test
suite (tests/project/test_bench_models_script.py only checks that it still runs).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import available, documents
from doc_tables import write_block
from toolcat.config import Target
from toolcat.errors import ToolcatError
from toolcat.models.document import models_document
from toolcat.models.render import collector_paused, model_classes, render_models
from toolcat.pipeline import build_catalog, spec_verdict
from toolcat.text.python_format import black_format, format_repeats_once, ruff_prepared

HEADER = ("| document | tools | models.py bytes | classes | document cpu s | "
          "datamodel-code-generator cpu s | ruff cpu s | black cpu s | total wall s (cpu) "
          "| note |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")


def _cpu() -> float:
    """user+sys seconds of this process and of the children it waited for (ruff)."""
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(step: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), _cpu()
    value = step()
    return value, time.perf_counter() - wall, _cpu() - cpu


def row(label: str, spec: Path, runs: int) -> str:
    try:
        verdict = spec_verdict(spec)
        catalog = build_catalog(Target(name="bench", spec=spec, spec_label=spec.name,
                                       output=spec.parent / "unused"), verdict)
    except ToolcatError as exc:
        reason = exc.problems[0].message[:60]
        return f"| {label} | - | - | - | - | - | - | - | - | catalog fails: {reason} |"
    steps: list[list[float]] = [[], [], [], [], [], []]   # document, dcg, ruff, black, total, cpu
    size = classes = 0
    note = ""
    try:
        for _ in range(runs):
            document, _wall, doc_s = _timed(lambda: models_document(catalog))
            code, _wall, dcg_s = _timed(lambda d=document: model_classes(d.schema))
            with collector_paused():   # as render_models runs ruff and black
                styled, _wall, ruff_s = _timed(lambda c=code: ruff_prepared(c))
                _body, _wall, black_s = _timed(
                    lambda c=styled: format_repeats_once(c, black_format))
            # The whole render once more, as generate runs it (template included).
            data, total_s, total_cpu = _timed(lambda: render_models(catalog))
            for values, seconds in zip(
                    steps, (doc_s, dcg_s, ruff_s, black_s, total_s, total_cpu), strict=True):
                values.append(seconds)
            size, classes = len(data), data.count(b"\nclass ")
    except Exception as exc:
        note = f"{type(exc).__name__}: {str(exc)[:80]}"
    doc, dcg, ruff, black, total, cpu = (f"{statistics.median(v):.2f}" if v else "-"
                                         for v in steps)
    return (f"| {label} | {len(catalog.tools)} | {size:,} | {classes} | {doc} | {dcg} | "
            f"{ruff} | {black} | {total} ({cpu}) | {note} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="measure only documents whose label contains NAME")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (3)")
    parser.add_argument("--write", type=Path, default=None, metavar="PAGE",
                        help="also write the table into PAGE's bench-models block")
    args = parser.parse_args(argv)
    chosen = [(label, path) for label, path in documents()
              if not args.only or any(o in label for o in args.only)]
    if not chosen:
        print("no document matches --only", file=sys.stderr)
        return 2
    print(HEADER)
    lines = [HEADER]
    for label, path in available(chosen):
        lines.append(row(label, path, args.runs))
        print(lines[-1], flush=True)
    legend = (f"\n`models: true`: models.py rendered in process, median of {args.runs} "
              "run(s) per step, wall seconds (the total's CPU in brackets).")
    write_block(args.write, "bench-models", "\n".join(lines) + "\n" + legend)
    return 0


if __name__ == "__main__":
    sys.exit(main())
