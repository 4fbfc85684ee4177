"""The acceptance table of issue 11: requests and responses per document, by the oracle.

For every document of the corpus and ErsatzTV (tests/corpus/docs.py), generate the
catalog, draw arguments for every tool, build the requests from the binding, judge
them against the original document (tests/oracle), and check spec-valid responses
against outputSchema. Prints a Markdown table; ``--details FILE`` writes every
rejection (tool, arguments, verdict) as JSON for classification.

    .venv/bin/python scripts/oracle_table.py                 # all documents, 2 draws
    .venv/bin/python scripts/oracle_table.py --only museum --count 6
    .venv/bin/python scripts/oracle_table.py --only stripe --tools 300   # a fixed sample
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shlex
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from corpus.docs import BROKEN, DOCUMENTS  # noqa: E402
from helpers.fixtures import real_catalog  # noqa: E402 - tests/ is put on the path above
from helpers.paths import SHARED  # noqa: E402
from oracle.exceptions import pinned  # noqa: E402
from oracle.responses import check  # noqa: E402
from oracle.sample import MAX_UNROLLED, run  # noqa: E402

HEADER = ("| document | tools | requests accepted | unserialisable | responses accepted "
          "| rejected by class |\n|---|---:|---:|---:|---:|---|")


def _pct(part: int, whole: int) -> str:
    return f"{part:,}/{whole:,} ({100 * part / whole:.1f} %)" if whole else "0/0"


def sample(names: list[str], size: int | None, seed: int) -> list[str] | None:
    """``size`` tool names chosen by a digest of seed and name: the same sample on every
    run and machine, spread over the whole document (not its first tags); None: all."""
    if size is None or size >= len(names):
        return None
    def rank(name: str) -> str:
        return hashlib.sha256(f"{seed}:{name}".encode()).hexdigest()
    return sorted(sorted(names, key=rank)[:size])


def row(doc: str, count: int, seed: int, size: int | None, cap: int,
        details: list[dict[str, Any]]) -> tuple[str, Counter[str]]:
    spec = SHARED / doc
    catalog = real_catalog(*doc.split("/"))
    names = [t["tool"]["name"] for t in catalog["tools"]]
    tools = sample(names, size, seed)
    req = run(spec, catalog, count=count, seed_value=seed, tools=tools)
    resp = check(spec, catalog, count=count, seed_value=seed, tools=tools, max_size=cap)
    classes: Counter[str] = Counter()
    for name, _, verdict in req.failures:
        classes["pinned" if pinned(doc, name) else verdict["class"]] += 1
    if resp.failures:
        classes["outputSchema"] += len(resp.failures)
    if resp.pinned:
        classes["pinned responses"] += len(resp.pinned)
    for name, args, verdict in req.failures:
        details.append({"document": doc, "tool": name, "arguments": args, "verdict": verdict})
    for name, instance, error in resp.failures:
        details.append({"document": doc, "tool": name, "response": instance, "error": error})
    for name, instance, why in resp.pinned:
        details.append({"document": doc, "tool": name, "response": instance, "pinned": why})
    text = ", ".join(f"{k} {v}" for k, v in sorted(classes.items())) or "-"
    judged = req.requests - req.unserialisable
    judged_tools = f"{len(tools)} of {len(names)}" if tools is not None else str(len(names))
    line = (f"| `{doc}` | {judged_tools} | {_pct(req.accepted, judged)}"
            f" | {req.unserialisable} | {_pct(resp.accepted, resp.instances)}"
            f"{f' ({len(resp.skipped)} schemas not drawn)' if resp.skipped else ''} | {text} |")
    return line, classes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--count", type=int, default=2, help="draws per schema variant")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--only", nargs="*", default=None, help="documents containing these")
    parser.add_argument("--details", type=Path, default=None)
    parser.add_argument("--tools", type=int, default=None,
                        help="judge a fixed sample of this many tools per document "
                             "(the table says 'N of M')")
    parser.add_argument("--response-cap", type=int, default=MAX_UNROLLED,
                        help="draw no response instances from a schema larger than this "
                             "(characters, unrolled); its examples are still checked")
    parser.add_argument("--write", type=Path, default=None, metavar="PAGE",
                        help="also write the table into PAGE (docs/contract-fidelity.md), "
                             "with date, machine, load and command")
    args = parser.parse_args()
    lines: list[str] = []
    docs = [d for d in DOCUMENTS if d not in BROKEN and (
        args.only is None or any(o in d for o in args.only))]
    # smallest first: on a busy machine the table fills from the quick documents
    docs.sort(key=lambda d: ((SHARED / d).stat().st_size, d))
    details: list[dict[str, Any]] = []
    total: Counter[str] = Counter()
    print(HEADER, flush=True)
    lines.append(HEADER)
    for doc in docs:
        started = time.perf_counter()
        try:
            line, classes = row(doc, args.count, args.seed, args.tools, args.response_cap,
                                 details)
        except Exception as exc:   # one document's failure is a row, never the table
            line, classes = f"| `{doc}` | - | error: {type(exc).__name__}: {exc} | | | |", Counter()
        total.update(classes)
        print(line, flush=True)
        lines.append(line)
        print(f"  {doc}: {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    print(f"\nrejected by class, all documents: {dict(sorted(total.items())) or 'none'}")
    if args.details:
        args.details.write_text(json.dumps(details, indent=1, sort_keys=True, default=str))

    if args.write is not None:
        from doc_tables import write_table  # noqa: PLC0415 - a script beside this one

        write_table(args.write, "fidelity-oracle", "\n".join(lines),
                    shlex.join(["scripts/oracle_table.py", *sys.argv[1:]]))

if __name__ == "__main__":
    main()
