"""What `toolcat serve` costs: start-up, one tools/list, and the overhead of a tools/call.

Run by `make bench` (issue 25's serve targets). On one document (Cloudflare's 1,533 tools
by default), in a temporary folder:

1. `toolcat generate` writes the catalog (and fills a cache folder of its own, as a
   project's generate does on a developer's machine).
2. Start-up, --starts times: from spawning `toolcat serve --spec ... --base-url STUB`
   (stdio; the freshness check included, with that cache) to the first answered
   `tools/list` (initialize, notifications/initialized, tools/list, raw JSON-RPC lines;
   the answer is the list's first page, and the time to its last page is given too);
   wall seconds and the server's CPU seconds (user+sys, /proc/PID/stat) at that moment.
3. `tools/list` on the running server (after a `ping`, which the MCP SDK answers: start-up
   is over), --lists times, as a client does it: every page in turn (the server pages its
   list), each request written, its answer's line read and parsed (orjson, as a fast client
   parses), its `nextCursor` followed; from writing the first request to parsing the last
   page. The figure judged against the target is that time less the client's own parse
   (the cost of 7.9 MB of JSON in the client, the same for any server of the same tools);
   the time with it is printed beside. Also per list: the server's CPU seconds
   (/proc/PID/stat), the client's parse, and the rest (the pipe, each side waiting).
4. Per-call overhead: a read-only tool of the catalog whose request reaches the stub API of
   tests/helpers/stub_api.py (127.0.0.1, answering `{"id": 1, "name": "x"}`) and whose
   result is a success (the answer fits its outputSchema; see pick_tool) is called --calls
   times through the server, each call paired with the same request sent directly
   (http.client, one kept-alive connection) to the same stub; the overhead of a pair is the
   call's time less the direct request's time; median and p99 of the pairs.

Prints a Markdown table with the issue's targets beside the figures, progress on stderr;
--write PAGE puts it in PAGE's `bench-serve` block (scripts/doc_tables.py).
tests/project/test_bench_serve_script.py runs it on the OAI petstore.
"""

from __future__ import annotations

import argparse
import gc
import http.client
import itertools
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench.py sits beside us
import soak_serve
from bench import CORPUS, ref_root, toolcat
from doc_tables import write_block

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from helpers.stub_api import BODIES, StubApi, shape

CLOUDFLARE = CORPUS / "cloudflare" / "openapi.json"
TICKS = os.sysconf("SC_CLK_TCK")
# name -> (limit, unit)
TARGETS = {"start-up to the first tools/list": (1.0, "s"),
           "tools/list": (50.0, "ms"),
           "tools/call overhead, median": (2.0, "ms")}


def cpu_seconds(pid: int) -> float:
    """user + sys seconds of a running process so far (/proc/PID/stat fields 14, 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


class Session(soak_serve.Session):
    """`toolcat serve` over stdio, spoken to in raw JSON-RPC lines (soak_serve's session and
    its `request`, started by the caller's command and initialised only by `start`, which
    is timed)."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        # A 1 MiB read buffer: a 256 KB page is read in a few calls, not in 8 KB ones.
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=env, bufsize=1 << 20)
        self.ids = itertools.count(1)

    def start(self) -> dict[str, Any]:
        """initialize, initialized, and the first page of tools/list (its result)."""
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "bench", "version": "1"}})
        self.write({"jsonrpc": "2.0", "method": "notifications/initialized"})
        first: dict[str, Any] = self.request("tools/list", {})["result"]
        return first

    def list_all(self, first: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Every page's result, following nextCursor (from `first`, a page already read)."""
        pages = [first if first is not None else self.request("tools/list", {})["result"]]
        while pages[-1].get("nextCursor"):
            pages.append(self.request("tools/list",
                                      {"cursor": pages[-1]["nextCursor"]})["result"])
        return pages


def tools_of(pages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [tool for page in pages for tool in page["tools"]]


def compact_size(value: Any) -> int:
    """Bytes of `value` as compact JSON (UTF-8): about what the server wrote."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


@dataclass
class Figures:
    tools: int = 0
    list_bytes: int = 0
    pages: int = 0
    starts: list[tuple[float, float]] = field(default_factory=list)   # (wall, cpu)
    whole_starts: list[float] = field(default_factory=list)   # to the last page
    lists: list[float] = field(default_factory=list)   # to the last page parsed
    served: list[float] = field(default_factory=list)  # the same, less the client's parse
    list_server: float = 0.0   # CPU seconds, summed over the lists
    list_parse: float = 0.0    # the client's, summed
    tool: str = "-"
    direct: list[float] = field(default_factory=list)
    through: list[float] = field(default_factory=list)
    errors: int = 0


# Plain values tried, in order, for each required input: the first its schema accepts.
PLAIN = ("abc", "023e105f4ecef8ad9ca31a8372d0c353", 1, 1.5, True, "2024-01-01T00:00:00Z",
         "a@example.com", "https://example.com/")


def sample(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A plain value `schema` accepts (its `$defs` at hand), or None."""
    candidates = [schema["enum"][0]] if "enum" in schema else []
    validator = Draft202012Validator({**schema, "$defs": defs})
    return next((value for value in (*candidates, *PLAIN) if validator.is_valid(value)),
                None)


def arguments(tool: dict[str, Any]) -> dict[str, Any] | None:
    """Values for a tool's required inputs, or None when one has no plain value."""
    schema = tool["inputSchema"]
    properties, defs = schema.get("properties", {}), schema.get("$defs", {})
    found = {}
    for name in schema.get("required", []):
        value = sample(properties.get(name, {}), defs)
        if value is None:
            return None
        found[name] = value
    return found


def answer_fits(tool: dict[str, Any]) -> bool:
    """Whether the stub's answer (BODIES["ok"]) is a result the tool's outputSchema accepts
    (or it declares none): a call of it is a success, not an outputSchema mismatch."""
    schema = tool.get("outputSchema")
    if schema is None:
        return True
    try:
        return bool(Draft202012Validator(schema).is_valid(json.loads(BODIES["ok"][1])))
    except Exception:  # a pattern Python's re cannot read: try the tool last
        return False


def pick_tool(session: Session, tools: list[dict[str, Any]],
              api: StubApi) -> tuple[str, dict[str, Any]]:
    """The first read-only tool whose call, with plain values, reaches the stub API and
    succeeds (tools the stub's answer fits tried first); failing that, the first that
    reaches it (its calls then count as flagged isError)."""
    readable = [t for t in tools if t.get("annotations", {}).get("readOnlyHint")]
    reached = None
    for tool in sorted(readable, key=lambda t: not answer_fits(t)):   # stable: catalog order
        given = arguments(tool)
        if given is None:
            continue
        before = len(api.seen)
        answer = session.request("tools/call", {"name": tool["name"], "arguments": given})
        if len(api.seen) > before:
            if not answer.get("result", {}).get("isError"):
                return tool["name"], given
            reached = reached or (tool["name"], given)
    if reached is None:
        raise RuntimeError("no read-only tool of the catalog reached the stub API")
    return reached


def direct(connection: http.client.HTTPConnection, method: str, target: str,
           headers: dict[str, str], body: bytes) -> float:
    start = time.perf_counter()
    connection.request(method, target, body=body or None, headers=headers)
    connection.getresponse().read()
    return time.perf_counter() - start


def calls(figures: Figures, session: Session, tools: list[dict[str, Any]], api: StubApi,
          count: int) -> None:
    """`count` pairs: one call through toolcat serve, then the same request sent directly."""
    name, given = pick_tool(session, tools, api)
    figures.tool = name
    seen = api.seen[-1]
    headers = {key: value for key, value in seen.headers.items()
               if key.lower() not in ("host", "content-length")}
    connection = http.client.HTTPConnection("127.0.0.1", api.server.server_address[1], timeout=30)
    params = {"name": name, "arguments": given}
    first = len(api.seen)
    for index in range(count + count // 10):   # the first tenth warms both up
        start = time.perf_counter()
        answer = session.request("tools/call", params)
        through = time.perf_counter() - start
        straight = direct(connection, seen.method, seen.target, headers, seen.body)
        if index >= count // 10:
            figures.through.append(through)
            figures.direct.append(straight)
            figures.errors += bool(answer.get("result", {}).get("isError"))
    connection.close()
    arrived = {(r.method, r.target) for r in api.seen[first:]}
    if arrived != {(seen.method, seen.target)} or len(api.seen) - first != 2 * index + 2:
        raise RuntimeError(f"the calls and the direct requests differ at the stub: {arrived}")


def measure(spec: Path, work: Path, exe: list[str], starts: int, lists: int,
            count: int) -> Figures:
    out, cache = work / "out", work / "cache"
    env = {**os.environ, "TOOLCAT_CACHE_DIR": str(cache)}
    env.pop("TOOLCAT_CACHE", None)
    where = ["--spec", str(spec), "--out", str(out), "--validation", "warn", *ref_root(spec)]
    print(f"generating {spec.name} ...", file=sys.stderr, flush=True)
    subprocess.run([*exe, "generate", *where, "-q"], check=True, env=env,
                   stdout=subprocess.DEVNULL)
    figures = Figures()
    with StubApi(shape("ok")) as api:
        serve = [*exe, "serve", *where, "-q", "--base-url", api.url]
        for number in range(starts):
            print(f"start-up {number + 1}/{starts} ...", file=sys.stderr, flush=True)
            began = time.perf_counter()
            session = Session(serve, env)
            first = session.start()
            figures.starts.append((time.perf_counter() - began,
                                   cpu_seconds(session.process.pid)))
            tools = tools_of(session.list_all(first))
            figures.whole_starts.append(time.perf_counter() - began)
            if number < starts - 1:
                session.close()
        session.request("ping", {})   # answered by the SDK: the server has loaded it
        served, parsed = cpu_seconds(session.process.pid), session.parsing
        for _ in range(lists):
            began, before = time.perf_counter(), session.parsing
            pages = session.list_all()
            figures.lists.append(time.perf_counter() - began)
            figures.served.append(figures.lists[-1] - (session.parsing - before))
            tools = tools_of(pages)   # sized outside the timing: the bench's work, not serve's
            figures.list_bytes, figures.pages = sum(map(compact_size, pages)), len(pages)
        figures.list_server = cpu_seconds(session.process.pid) - served
        figures.list_parse = session.parsing - parsed
        figures.tools = len(tools)
        print(f"{count} calls, each beside a direct request ...", file=sys.stderr, flush=True)
        calls(figures, session, tools, api, count)
        session.close()
    return figures


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


def table(spec: Path, figures: Figures) -> str:
    wall = statistics.median(w for w, _ in figures.starts)
    cpu = statistics.median(c for _, c in figures.starts)
    listed = statistics.median(figures.lists) * 1000
    served = statistics.median(figures.served) * 1000
    pairs = [(t - d) * 1000 for t, d in zip(figures.through, figures.direct, strict=True)]
    overhead = statistics.median(pairs)
    whole = statistics.median(figures.whole_starts)
    runs = max(len(figures.lists), 1)
    server, parse = figures.list_server * 1000 / runs, figures.list_parse * 1000 / runs
    rows = [("start-up to the first tools/list", f"{wall:.2f} s (cpu {cpu:.2f} s; to its "
             f"last page {whole:.2f} s)", wall),
            ("tools/list", f"{served:.1f} ms ({figures.tools:,} tools in {figures.pages} "
             f"page(s), {figures.list_bytes:,} bytes; per list, means: server cpu "
             f"{server:.1f} ms, client parse {parse:.1f} ms; with the client's parse "
             f"{listed:.1f} ms)", served),
            ("tools/call overhead, median", f"{overhead:.2f} ms", overhead)]
    lines = ["| serve (issue 25) | target | measured | met |", "|---|---|---|---|"]
    for what, shown, value in rows:
        limit, unit = TARGETS[what]
        lines.append(f"| {what} | ≤ {limit:g} {unit} | {shown} "
                     f"| {'yes' if value <= limit else 'no'} |")
    lines.append(f"| tools/call overhead, p99 | (reported) | {p99(pairs):.2f} ms | |")
    lines.append(f"| tools/call through serve / direct request, median "
                 f"| | {statistics.median(figures.through) * 1000:.2f} / "
                 f"{statistics.median(figures.direct) * 1000:.2f} ms | |")
    return (f"`toolcat serve` on {spec.name} ({figures.tools:,} tools), stdio, raw JSON-RPC "
            f"lines: start-up median of {len(figures.starts)} (the freshness check "
            f"included, with the cache generate filled; the first tools/list answer is its "
            f"first page); tools/list, on the running server (after a ping): a client "
            f"writing each request, reading its answer and parsing it (orjson), following "
            f"nextCursor to the last page, median of {len(figures.lists)}; the figure "
            f"judged is that time less the client's own parse of the pages (the same for "
            f"any server of these tools: orjson building the pages' Python objects), the "
            f"time with it is beside (size: the pages' results as compact JSON; the "
            f"server's CPU from /proc); {len(pairs)} "
            f"calls of `{figures.tool}` (read-only; the "
            f"stub answers `{{\"id\": 1, \"name\": \"x\"}}`, {figures.errors} of the "
            "results flagged isError), each paired with the same request sent directly to "
            "the stub: overhead = call - direct request, per pair.\n\n" + "\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spec", type=Path, default=CLOUDFLARE,
                        help="the document to serve (Cloudflare's, 1,533 tools)")
    parser.add_argument("--starts", type=int, default=5, help="start-ups measured (5)")
    parser.add_argument("--lists", type=int, default=20, help="tools/list measured (20)")
    parser.add_argument("--calls", type=int, default=500, help="calls measured (500)")
    parser.add_argument("--toolcat", default=None, metavar="COMMAND",
                        help="the command to measure (default: the toolcat beside python)")
    parser.add_argument("--write", type=Path, default=None, metavar="PAGE",
                        help="also write the table into PAGE's bench-serve block")
    args = parser.parse_args(argv)
    if not args.spec.is_file():
        print(f"{args.spec} not found", file=sys.stderr)
        return 2
    exe = shlex.split(args.toolcat) if args.toolcat else toolcat()
    # The client's own collector, walking its 8 MB of parsed pages, is no part of serve's time.
    gc.disable()
    with tempfile.TemporaryDirectory(prefix="toolcat-bench-serve-") as tmp:
        figures = measure(args.spec, Path(tmp), exe, args.starts, args.lists, args.calls)
    text = table(args.spec, figures)
    print(text)
    write_block(args.write, "bench-serve", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
