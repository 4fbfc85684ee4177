"""toolcat generate beside openapi-mcp-generator and FastMCP, one after the other, per round.

Run by `make bench` (issue 25's table). toolcat never depends on its peers: this script
installs them into the ignored .bench/ when missing:
- openapi-mcp-generator OMG_VERSION (npm, `npm install --prefix .bench/omg`), run as its
  CLI does for a user: `openapi-mcp-generator -i SPEC -o <emptied folder> --force` writes a
  TypeScript MCP server project (its tool definitions are in src/index.ts);
- FastMCP FASTMCP_VERSION (pip, its own venv .bench/peers-venv), run as a small program that
  does what a FastMCP user does with a spec: read the document (json, or yaml.safe_load),
  `FastMCP.from_openapi(...)` with a client aimed at a closed local port (nothing is sent
  while building), list the tools over an in-memory MCP client session, and exit.
toolcat: `toolcat generate --spec SPEC --out <emptied folder> --validation warn` with an
emptied cache folder (validation included: warn lets documents that break OpenAPI upstream
be measured too, the validator doing the same work).

For each document (the 13 MB GitHub description first, then Stripe, Cloudflare and the rest
of the corpus), each round runs toolcat, then openapi-mcp-generator, then FastMCP, so all
three see the same machine load; --runs rounds. Every process is measured whole, the way
scripts/bench.py measures toolcat: wall time and CPU time (user+sys, the process and the
children it waited for), medians of the rounds, and peak RSS (ru_maxrss from os.wait4, max
of the rounds). Ratios are toolcat / peer: below 1.0, toolcat is faster. A run still going
after --timeout seconds is killed; a side that failed once is not run again.

Then toolcat alone on GitHub: `check` with the cache generate filled, and with no cache
(TOOLCAT_CACHE=off: regenerating, validation included), and the issue's targets beside
the figures. Prints Markdown on stdout, progress on stderr; --write PAGE puts it in PAGE's
`bench-peers` block (scripts/doc_tables.py). tests/project/test_bench_peers_script.py runs
the toolcat half on the OAI petstore (--toolcat-only --quick).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench.py sits beside us
import bench
from bench import (
    GITHUB_LABEL,
    REPO,
    Run,
    available,
    common_arguments,
    documents,
    measure,
    ref_root,
    toolcat,
)
from doc_tables import write_block

FASTMCP_VERSION = "4.1.6"
OMG_VERSION = "4.0.1"
PEERS_VENV = REPO / ".bench" / "peers-venv"
OMG_PREFIX = REPO / ".bench" / "omg"
OMG_PACKAGE = OMG_PREFIX / "node_modules" / "openapi-mcp-generator"
DEAD_URL = "http://127.0.0.1:9"  # the discard port: never contacted while building
LISTS = REPO / ".bench" / "lists"   # FastMCP's tools per document, for large_apis.py --peers
QUICK = "oai-examples/v3.0/petstore.yaml"
FIRST = (GITHUB_LABEL, "stripe/spec3.yaml", "cloudflare/openapi.json")

# What a FastMCP user writes, plus timestamps. Each step that fails says so on one
# line starting with FAILED, so the table can show which step and why. With a third
# argument, the tools as the client received them are written there as JSON
# (scripts/large_apis.py --peers measures their bytes).
PEER_PROGRAM = """
import sys, time
marks = [("start", time.perf_counter())]
def step(name):
    marks.append((name, time.perf_counter()))
def fail(where, exc):
    text, cause = f"{type(exc).__name__}: {exc}", exc.__cause__
    if callable(getattr(cause, "errors", None)):  # pydantic's ValidationError
        errors = cause.errors()
        first = errors[0] if errors else {}
        where_in = " > ".join(str(part) for part in first.get("loc", ()))
        text = (f"{type(exc).__name__} ({len(errors)} validation errors), "
                f"first at {where_in}: {first.get('msg')}, input "
                f"{str(first.get('input'))[:80]}")
    print(f"FAILED in {where}: {text}"[:400], flush=True)
    sys.exit(1)
import asyncio, json
import yaml, httpx2
from fastmcp import Client, FastMCP
step("import")
path, url = sys.argv[1], sys.argv[2]
try:
    with open(path, "rb") as handle:
        data = handle.read()
    spec = json.loads(data) if data.lstrip()[:1] == b"{" else yaml.safe_load(data)
except Exception as exc:
    fail("load", exc)
step("load")
try:
    mcp = FastMCP.from_openapi(openapi_spec=spec, client=httpx2.AsyncClient(base_url=url),
                               name="bench")
except Exception as exc:
    fail("from_openapi", exc)
step("build")
async def listed():
    async with Client(mcp) as client:
        return await client.list_tools()
try:
    tools = asyncio.run(listed())
except Exception as exc:
    fail("list_tools", exc)
step("list")
print("TOOLS", len(tools))
print("PHASES", " ".join(f"{name}={at - before:.3f}" for (_, before), (name, at)
                         in zip(marks, marks[1:])))
if len(sys.argv) > 3:
    import os
    with open(sys.argv[3] + ".part", "w") as out:
        json.dump([t.model_dump(mode="json", by_alias=True, exclude_none=True)
                   for t in tools], out)
    os.replace(sys.argv[3] + ".part", sys.argv[3])
"""

PHASES = ("import", "load", "build", "list")
SIDES = ("toolcat", "omg", "fastmcp")
TITLES = {"toolcat": "toolcat generate", "omg": f"openapi-mcp-generator {OMG_VERSION}",
          "fastmcp": f"FastMCP {FASTMCP_VERSION}"}
# An omg tool definition in src/index.ts opens with `  ["NAME", {` then `    name: "NAME",`.
OMG_TOOL = re.compile(r'^  \["[^"\n]*", \{\n    name: ', re.M)


@dataclass
class Side:
    """One tool's runs on one document."""

    runs: list[Run] = field(default_factory=list)
    tools: str = "-"
    note: str = ""
    phases: list[dict[str, float]] = field(default_factory=list)


@dataclass
class Row:
    label: str
    spec: Path
    toolcat: Side = field(default_factory=Side)
    omg: Side = field(default_factory=Side)
    fastmcp: Side = field(default_factory=Side)

    def side(self, name: str) -> Side:
        found: Side = getattr(self, name)
        return found


@dataclass
class Peers:
    """How to run each peer (None: not measured) and what was installed."""

    fastmcp: Path | None = None
    omg: Path | None = None
    versions: dict[str, str] = field(default_factory=dict)


def peers_python(version: str) -> Path:
    """The peers venv's python, with fastmcp==version and PyYAML installed in it."""
    python = PEERS_VENV / "bin" / "python"
    if not python.is_file():
        print(f"creating {PEERS_VENV.relative_to(REPO)} ...", file=sys.stderr, flush=True)
        base = shutil.which("python3") or sys.executable
        subprocess.run([base, "-m", "venv", str(PEERS_VENV)], check=True)
    if installed_versions(python).get("fastmcp") != version:
        print(f"installing fastmcp=={version} into {PEERS_VENV.relative_to(REPO)} ...",
              file=sys.stderr, flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                        f"fastmcp=={version}", "pyyaml"], check=True)
    return python


def omg_version() -> str | None:
    manifest = OMG_PACKAGE / "package.json"
    if not manifest.is_file():
        return None
    version: str = orjson.loads(manifest.read_bytes()).get("version", "?")
    return version


def omg_cli(version: str) -> Path:
    """openapi-mcp-generator's CLI script in .bench/omg, installed with npm when missing."""
    if omg_version() != version:
        print(f"installing openapi-mcp-generator@{version} into "
              f"{OMG_PREFIX.relative_to(REPO)} ...", file=sys.stderr, flush=True)
        subprocess.run(["npm", "install", "--prefix", str(OMG_PREFIX), "--no-audit",
                        "--no-fund", "--loglevel=error", f"openapi-mcp-generator@{version}"],
                       check=True)
    manifest = orjson.loads((OMG_PACKAGE / "package.json").read_bytes())
    binary = manifest["bin"]
    script = binary if isinstance(binary, str) else next(iter(binary.values()))
    return (OMG_PACKAGE / script).resolve()


def installed_versions(python: Path) -> dict[str, str]:
    """Versions of the packages that matter, as the peers venv's python reports them."""
    if not python.is_file():
        return {}
    probe = ("import importlib.metadata as m, json, platform\n"
             "found = {'python': platform.python_version()}\n"
             "for name in ('fastmcp', 'mcp', 'pydantic', 'httpx2', 'pyyaml'):\n"
             "    try: found[name] = m.version(name)\n"
             "    except m.PackageNotFoundError: pass\n"
             "print(json.dumps(found))")
    result = subprocess.run([str(python), "-c", probe], capture_output=True, text=True,
                            check=False)
    if result.returncode != 0:
        return {}
    found: dict[str, str] = orjson.loads(result.stdout)
    return found


def node_version() -> str:
    try:
        return subprocess.run(["node", "--version"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "?"


def timed_out(run: Run, timeout: float) -> bool:
    return run.code == -9 and run.wall >= timeout * 0.99


def failure(run: Run, log: Path, timeout: float, spec: Path) -> str:
    """What went wrong in one run, in one short line."""
    if timed_out(run, timeout):
        return f"timeout (killed after {timeout:.0f} s)"
    lines = [line.strip() for line in log.read_text(errors="replace").splitlines()
             if line.strip()]
    said = next((line for line in lines if line.startswith("FAILED")), None)
    if said is None:  # a traceback ends with the exception
        said = next((line for line in reversed(lines)
                     if re.match(r"^[\w.]+(Error|Exception|Exit)\b", line)), None)
    if said is None and lines:  # toolcat's first line says what and where
        said = lines[0].removeprefix(f"{spec}: ")
    if not said:
        return f"exit {run.code} (no output)"
    return f"exit {run.code}" + (f" {said[7:300]}" if said.startswith("FAILED ")
                                 else f": {said[:300]}")


def parse_peer_log(log: Path) -> tuple[str, dict[str, float]]:
    """(tool count, seconds per phase) as the peer program printed them."""
    tools, phases = "-", {}
    for line in log.read_text(errors="replace").splitlines():
        if line.startswith("TOOLS "):
            tools = f"{int(line.split()[1]):,}"
        elif line.startswith("PHASES "):
            for part in line.split()[1:]:
                name, _, seconds = part.partition("=")
                phases[name] = float(seconds)
    return tools, phases


def toolcat_tools(out: Path) -> str:
    catalog = out / "catalog.json"
    if not catalog.is_file():
        return "-"
    return f"{len(orjson.loads(catalog.read_bytes()).get('tools', [])):,}"


def omg_tools(out: Path) -> str:
    index = out / "src" / "index.ts"
    if not index.is_file():
        return "-"
    return f"{len(OMG_TOOL.findall(index.read_text(errors='replace'))):,}"


def _once(side: Side, argv: list[str], log: Path, timeout: float, env: dict[str, str],
          spec: Path, after: Callable[[], None]) -> None:
    """One measured run of one side; a failure becomes the side's note."""
    run = measure(argv, log, timeout, env)
    side.runs.append(run)
    if run.code == 0:
        after()
    else:
        side.note = failure(run, log, timeout, spec)


def _due(side: Side, slow: float) -> bool:
    """Whether a side runs this round: not after a failure, nor after a run of more than
    `slow` seconds of CPU (one such run says enough; it keeps `make bench` short)."""
    return not side.note and not any(run.cpu > slow for run in side.runs)


def bench_row(row: Row, runs: int, work: Path, timeout: float, exe: list[str],
              peers: Peers, slow: float = float("inf")) -> None:
    """--runs rounds of toolcat, openapi-mcp-generator, FastMCP, one after the other."""
    out, log, cache = work / "out", work / "log.txt", work / "cache"
    env = {**os.environ, "TOOLCAT_CACHE_DIR": str(cache)}
    env.pop("TOOLCAT_CACHE", None)
    peer_env = {key: value for key, value in os.environ.items()
                if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    for name, runner in (("omg", peers.omg), ("fastmcp", peers.fastmcp)):
        if runner is None:
            row.side(name).note = "not measured (--toolcat-only)"
    generate = [*exe, "generate", "--spec", str(row.spec), "--out", str(out),
                "--validation", "warn", *ref_root(row.spec)]
    for _ in range(runs):
        if _due(row.toolcat, slow):
            shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(cache, ignore_errors=True)
            _once(row.toolcat, generate, log, timeout, env, row.spec,
                  lambda: setattr(row.toolcat, "tools", toolcat_tools(out)))
        if peers.omg is not None and _due(row.omg, slow):
            shutil.rmtree(out, ignore_errors=True)
            _once(row.omg, [str(peers.omg), "-i", str(row.spec), "-o", str(out), "--force",
                            "--base-url", DEAD_URL], log, timeout, peer_env, row.spec,
                  lambda: setattr(row.omg, "tools", omg_tools(out)))
        if peers.fastmcp is not None and _due(row.fastmcp, slow):
            # The first round also keeps the tools the client listed (large_apis.py
            # --peers measures their size without running FastMCP again).
            keep = [] if row.fastmcp.runs else [str(fastmcp_list_file(row.spec))]
            _once(row.fastmcp, [str(peers.fastmcp), "-c", PEER_PROGRAM, str(row.spec),
                                DEAD_URL, *keep], log, timeout, peer_env, row.spec,
                  lambda: _fastmcp_done(row.fastmcp, log))


def fastmcp_list_file(spec: Path) -> Path:
    """Where FastMCP's tools for `spec` are kept, by the spec's bytes and FastMCP's version."""
    LISTS.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(spec.read_bytes()).hexdigest()[:16]
    return LISTS / f"{spec.stem}-{digest}-fastmcp-{FASTMCP_VERSION}.json"


def _fastmcp_done(side: Side, log: Path) -> None:
    side.tools, phases = parse_peer_log(log)
    side.phases.append(phases)


def _median(side: Side, what: str = "wall") -> float | None:
    good = [getattr(run, what) for run in side.runs if run.code == 0]
    return statistics.median(good) if good and not side.note else None


def _mb(side: Side) -> str:
    return f"{max(run.max_rss_kb for run in side.runs) / 1024:.0f}" if side.runs else "-"


def _cell(side: Side, slow: float) -> str:
    """`wall s / cpu s / MB`, or why there is no figure."""
    wall, cpu = _median(side), _median(side, "cpu")
    if wall is not None and cpu is not None:
        once = " (1 run)" if len(side.runs) == 1 and side.runs[0].cpu > slow else ""
        return f"{wall:.2f} / {cpu:.2f} / {_mb(side)}{once}"
    if side.runs and "timeout" in side.note:
        return "timeout"
    return "failed" if side.runs else "-"


def _ratio(ours: Side, peer: Side) -> str:
    """toolcat / peer, wall and CPU."""
    cells = []
    for what in ("wall", "cpu"):
        mine, theirs = _median(ours, what), _median(peer, what)
        cells.append(f"{mine / theirs:.2f}" if mine is not None and theirs else "-")
    return " / ".join(cells)


def table(rows: list[Row], runs: int, timeout: float, peers: Peers,
          slow: float = float("inf")) -> str:
    """The side-by-side table, its legend and FastMCP's time per phase."""
    lines = ["| document | tools (toolcat / omg / FastMCP) "
             + "".join(f"| {TITLES[name]}: wall s / cpu s / MB " for name in SIDES)
             + "| toolcat / omg (wall / cpu) | toolcat / FastMCP (wall / cpu) | note |",
             "|" + "---|" * 8]
    for row in rows:
        notes = [f"{TITLES[name]}: {row.side(name).note}" for name in SIDES
                 if row.side(name).note and not row.side(name).note.startswith("not meas")]
        note = "; ".join(notes).replace("|", "\\|")
        tools = " / ".join(row.side(name).tools for name in SIDES)
        cells = " | ".join(_cell(row.side(name), slow) for name in SIDES)
        lines.append(f"| {row.label} | {tools} | {cells} | {_ratio(row.toolcat, row.omg)} "
                     f"| {_ratio(row.toolcat, row.fastmcp)} | {note} |")
    return "\n".join([*lines, legend(runs, timeout, peers, slow), *phases_table(rows)])


def legend(runs: int, timeout: float, peers: Peers, slow: float) -> str:
    found = peers.versions
    fast = (f"FastMCP {found['fastmcp']} (mcp {found.get('mcp', '?')}, pydantic "
            f"{found.get('pydantic', '?')}, Python {found.get('python', '?')})"
            if "fastmcp" in found else "FastMCP not measured")
    omg = (f"openapi-mcp-generator {found['omg']} (node {found.get('node', '?')})"
           if "omg" in found else "openapi-mcp-generator not measured")
    return (f"\n{omg}; {fast}. Each round runs toolcat, then openapi-mcp-generator (omg), "
            f"then FastMCP on the same document; {runs} round(s). Wall and CPU (user+sys) "
            "seconds of the whole process: medians; MB: peak RSS, max of the rounds; "
            "a side that fails is not run again"
            + (f", nor one whose run took more than {slow:g} s of CPU (marked: 1 run)"
               if slow != float("inf") else "")
            + f"; a run is killed after {timeout:.0f} s. "
            "Ratios are toolcat / peer (below 1: toolcat is faster). toolcat: "
            "`toolcat generate --spec X --out <empty folder> --validation warn` with an "
            "empty cache (validation included). omg: `openapi-mcp-generator -i X -o <empty "
            "folder> --force --base-url ...` (writes a TypeScript project; validates "
            "nothing). FastMCP: read the document, `FastMCP.from_openapi(...)`, list the "
            "tools through an in-memory client.")


def phases_table(rows: list[Row]) -> list[str]:
    measured = [row for row in rows if row.fastmcp.phases]
    if not measured:
        return []
    split = ["", "FastMCP's time per step (median of the successful runs, wall seconds):",
             "", "| document | " + " | ".join(PHASES) + " |",
             "|" + "---|" * (len(PHASES) + 1)]
    for row in measured:
        cells = [f"{statistics.median(p.get(name, 0.0) for p in row.fastmcp.phases):.2f}"
                 for name in PHASES]
        split.append(f"| {row.label} | " + " | ".join(cells) + " |")
    return split


@dataclass(frozen=True)
class Target:
    what: str
    limit: float
    unit: str        # "s" (wall seconds) or "" (a ratio)
    wall: float | None
    cpu: float | None


def targets(rows: list[Row], checks: bench.Row | None) -> list[Target]:
    """Issue 25's targets for generate and check, with this run's figures."""
    found = {row.label: row for row in rows}
    out: list[Target] = []
    github, stripe = found.get(GITHUB_LABEL), found.get("stripe/spec3.yaml")
    if github is not None:
        out.append(Target("generate GitHub, toolcat / openapi-mcp-generator", 1.0, "",
                          *_ratios(github.toolcat, github.omg)))
    if checks is not None:
        for what, runs, limit in (("check GitHub, no cache (validation included)",
                                   checks.check_regen, 1.0),
                                  ("check GitHub, with this machine's cache",
                                   checks.check, 0.15)):
            good = [run for run in runs if run.code == 0]
            out.append(Target(what, limit, "s",
                              statistics.median(r.wall for r in good) if good else None,
                              statistics.median(r.cpu for r in good) if good else None))
    if stripe is not None:
        out.append(Target("generate Stripe", 1.0, "s", _median(stripe.toolcat),
                          _median(stripe.toolcat, "cpu")))
    return out


def _ratios(ours: Side, peer: Side) -> tuple[float | None, float | None]:
    found = []
    for what in ("wall", "cpu"):
        mine, theirs = _median(ours, what), _median(peer, what)
        found.append(mine / theirs if mine is not None and theirs else None)
    return found[0], found[1]


def targets_table(found: list[Target]) -> str:
    lines = ["| target (issue 25) | limit | measured, wall | measured, cpu | met (wall / cpu) |",
             "|---|---|---|---|---|"]
    for target in found:
        cells = [f"{value:.2f}{' s' if target.unit == 's' else ''}" if value is not None
                 else "-" for value in (target.wall, target.cpu)]
        met = " / ".join("-" if value is None else ("yes" if value <= target.limit else "no")
                         for value in (target.wall, target.cpu))
        limit = f"≤ {target.limit:.2f}{' s' if target.unit == 's' else ''}"
        lines.append(f"| {target.what} | {limit} | {cells[0]} | {cells[1]} | {met} |")
    return "\n".join(lines)


def checks_on_github(runs: int, work: Path, timeout: float, exe: list[str]) -> bench.Row:
    """toolcat check on GitHub: with the cache one generate filled, then with none."""
    row = bench.Row(GITHUB_LABEL, REPO / ".bench" / "api.github.com.json")
    print("check on GitHub, cached and with no cache ...", file=sys.stderr, flush=True)
    bench.bench(row, runs, work, timeout, exe, generations=1)
    return row


def chosen_documents(args: argparse.Namespace) -> list[tuple[str, Path]]:
    """GitHub, Stripe and Cloudflare first, then the corpus; --quick: the petstore."""
    everything = documents()
    names = [QUICK] if args.quick else list(args.only)
    chosen = [(label, path) for label, path in everything
              if not names or any(name in label for name in names)]
    return sorted(chosen, key=lambda item: FIRST.index(item[0]) if item[0] in FIRST
                  else len(FIRST))


def set_up_peers(args: argparse.Namespace) -> Peers:
    if args.toolcat_only:
        return Peers()
    fastmcp = peers_python(args.fastmcp_version)
    omg = omg_cli(args.omg_version)
    versions = {**installed_versions(fastmcp), "omg": omg_version() or "?",
                "node": node_version()}
    print(f"FastMCP {versions.get('fastmcp')} in {fastmcp}; openapi-mcp-generator "
          f"{versions['omg']} at {omg}", file=sys.stderr, flush=True)
    return Peers(fastmcp, omg, versions)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common_arguments(parser)
    parser.add_argument("--toolcat-only", action="store_true",
                        help="measure toolcat alone: no peers installed or run")
    parser.add_argument("--quick", action="store_true",
                        help=f"only {QUICK}, one round, no check on GitHub (a smoke test)")
    parser.add_argument("--fastmcp-version", default=FASTMCP_VERSION, metavar="VERSION",
                        help=f"the fastmcp to install in the peers venv ({FASTMCP_VERSION})")
    parser.add_argument("--omg-version", default=OMG_VERSION, metavar="VERSION",
                        help=f"the openapi-mcp-generator to install ({OMG_VERSION})")
    parser.add_argument("--write", type=Path, default=None, metavar="PAGE",
                        help="also write the tables into PAGE's bench-peers block")
    parser.add_argument("--slow", type=float, default=60.0, metavar="SECONDS",
                        help="a side whose run took more CPU seconds than this is not run "
                             "again on that document (60)")
    args = parser.parse_args(argv)
    runs = 1 if args.quick else args.runs
    chosen = chosen_documents(args)
    if not chosen:
        print("no document matches --only", file=sys.stderr)
        return 2
    peers = set_up_peers(args)
    exe = shlex.split(args.toolcat) if args.toolcat else toolcat()
    rows, checks = [], None
    with tempfile.TemporaryDirectory(prefix="toolcat-bench-peers-") as tmp:
        for label, path in available(chosen):
            row = Row(label, path)
            bench_row(row, runs, Path(tmp), args.timeout, exe, peers, args.slow)
            rows.append(row)
        if any(row.label == GITHUB_LABEL for row in rows):
            checks = checks_on_github(runs, Path(tmp), args.timeout, exe)
    text = table(rows, runs, args.timeout, peers, args.slow)
    found = targets(rows, checks)
    if found:
        text += "\n\n" + targets_table(found)
    print(text)
    write_block(args.write, "bench-peers", text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
