"""Acceptance of `toolcat serve`'s requests on every corpus document, judged offline.

For each document of tests/corpus/docs.py that toolcat generates, every tool gets
`--count` argument draws per schema variant (fixed seed); the runtime turns each into the
request `toolcat serve` would send (no network), and the independent oracle in
.venv-oracle judges it against the ORIGINAL document. Prints a Markdown table (accepted /
judged, and what was not) on stdout. Run by `make serve-oracle`; `make test` runs a small
fixed slice (tests/test_serve_corpus_offline.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from corpus.docs import BROKEN, DOCUMENTS  # noqa: E402
from helpers.fixtures import real_catalog  # noqa: E402
from helpers.paths import SHARED  # noqa: E402
from helpers.runtime_oracle import judge_runtime  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=2)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("documents", nargs="*", help="default: every corpus document")
    args = parser.parse_args()
    print("| document | tools | calls | refused | judged | accepted | unserialisable | "
          "commonest causes |")
    print("|---|---:|---:|---:|---:|---:|---:|---|")
    for doc in args.documents or [d for d in DOCUMENTS if d not in BROKEN]:
        start = time.monotonic()
        try:
            catalog = real_catalog(*doc.split("/"))
            tally = judge_runtime(SHARED / doc, catalog, args.count, args.seed)
        except Exception as exc:  # one document failing is a row, not the end
            print(f"| {doc} | | | | | | | error: {type(exc).__name__}: {str(exc)[:80]} |")
            continue
        causes = Counter(f"{v['class']}: {v['errors'][0][:70]}" for _, _, v in tally.failures)
        worst = "; ".join(f"{n}x {c}" for c, n in causes.most_common(3))
        refused = tally.classes["refused"]
        print(f"| {doc} | {len(catalog['tools'])} | {tally.requests + refused} | {refused} | "
              f"{tally.requests} | {tally.accepted} | {tally.unserialisable} | {worst} "
              f"(undrawable tools: {len(tally.undrawable)}) |", flush=True)
        print(f"{doc}: {time.monotonic() - start:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
