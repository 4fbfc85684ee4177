"""Acceptance of `toolcat serve`'s requests on every corpus document, judged offline.

For each document of tests/corpus/docs.py that toolcat generates, every tool gets
`--count` argument draws per schema variant (fixed seed); the runtime turns each into the
request `toolcat serve` would send (no network), and the independent oracle in
.venv-oracle judges it against the ORIGINAL document. Prints a Markdown table (accepted /
judged, pinned exceptions apart, and what was not) on stdout. Run by `make serve-oracle`;
`make test` runs a small fixed slice (tests/runtime/test_serve_corpus_offline.py).

    .venv/bin/python scripts/serve_oracle.py --count 2 corpus/museum/openapi.yaml
    .venv/bin/python scripts/serve_oracle.py --tools 300 corpus/github/api.github.com.json
    .venv/bin/python scripts/serve_oracle.py --failures /tmp/failures.json   # for classifying
"""

from __future__ import annotations

import argparse
import json
import random
import shlex
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from corpus.docs import BROKEN, DOCUMENTS  # noqa: E402
from helpers.fixtures import real_catalog  # noqa: E402
from helpers.paths import SHARED  # noqa: E402
from helpers.runtime_oracle import judge_runtime  # noqa: E402
from oracle.exceptions import pinned  # noqa: E402

# Documents a full run cannot finish in about 15 minutes on two shared cores: a fixed-seed
# sample of this many tools (the README's table says which); --tools overrides.
SAMPLED = {"corpus/stripe/spec3.yaml": 200, "corpus/cloudflare/openapi.json": 400}

HEADER = ("| document | tools judged | calls | refused | judged | accepted | pinned "
          "| unserialisable | not accepted (commonest causes) |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|---|")


def sample_tools(catalog: dict[str, Any], size: int | None, seed: int) -> list[str] | None:
    """A fixed-seed sample of ``size`` tool names (None: every tool). Drawn from the
    sorted names, so the sample depends on the seed and the catalog only."""
    names = sorted(e["tool"]["name"] for e in catalog["tools"])
    if size is None or size >= len(names):
        return None
    return sorted(random.Random(seed).sample(names, size))


def row(doc: str, args: argparse.Namespace, details: list[dict[str, Any]]) -> str:
    catalog = real_catalog(*doc.split("/"))
    chosen = sample_tools(catalog, args.tools or SAMPLED.get(doc), args.seed)
    tally = judge_runtime(SHARED / doc, catalog, args.count, args.seed, tools=chosen,
                          draw_seconds=args.draw_seconds)
    causes: Counter[str] = Counter()
    held = 0
    for name, arguments, verdict in tally.failures:
        pin = pinned(doc, name)
        held += pin is not None
        if pin is None:
            causes[f"{verdict['class']}: {verdict['errors'][0][:70]}"] += 1
        details.append({"document": doc, "tool": name, "arguments": arguments,
                        "pinned": pin, "verdict": verdict})
    worst = "; ".join(f"{n}x {c}" for c, n in causes.most_common(3)) or "-"
    refused = tally.classes["refused"]
    total = len(catalog["tools"])
    judged = f"{total}" if chosen is None else f"{len(chosen)} of {total}"
    return (f"| `{doc}` | {judged} | {tally.requests + refused} | {refused} | {tally.requests} "
            f"| {tally.accepted} | {held} | {tally.unserialisable} | {worst} "
            f"(undrawable tools: {len(tally.undrawable)}) |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--count", type=int, default=2, help="draws per schema variant")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--tools", type=int, default=None,
                        help="judge a fixed-seed sample of this many tools per document "
                             "(default: all, or SAMPLED's size)")
    parser.add_argument("--draw-seconds", type=float, default=60.0,
                        help="a tool whose arguments take longer to draw counts as undrawable")
    parser.add_argument("--failures", type=Path, default=None,
                        help="write every request not accepted (tool, arguments, verdict) as JSON")
    parser.add_argument("documents", nargs="*", help="default: every corpus document")
    parser.add_argument("--write", type=Path, default=None, metavar="PAGE",
                        help="also write the table into PAGE (docs/serve.md), "
                             "with date, machine, load and command")
    args = parser.parse_args()
    lines: list[str] = []
    details: list[dict[str, Any]] = []
    print(HEADER, flush=True)
    lines.append(HEADER)
    for doc in args.documents or [d for d in DOCUMENTS if d not in BROKEN]:
        start = time.monotonic()
        try:
            line = row(doc, args, details)
        except Exception as exc:  # one document failing is a row, not the end
            line = f"| `{doc}` | | | | | | | | error: {type(exc).__name__}: {str(exc)[:80]} |"
        print(line, flush=True)
        lines.append(line)
        print(f"{doc}: {time.monotonic() - start:.1f} s", file=sys.stderr, flush=True)
        if args.failures:
            args.failures.write_text(json.dumps(details, indent=1, sort_keys=True, default=str))

    if args.write is not None:
        from doc_tables import write_table  # noqa: PLC0415 - a script beside this one

        write_table(args.write, "serve-oracle", "\n".join(lines),
                    shlex.join(["scripts/serve_oracle.py", *sys.argv[1:]]))

if __name__ == "__main__":
    main()
