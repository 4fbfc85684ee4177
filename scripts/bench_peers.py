"""Measure FastMCP's `FastMCP.from_openapi` beside `toolcat generate` on every document.

Run by `make bench-peers`. toolcat never depends on FastMCP: this script keeps its own
virtualenv in the ignored .bench/peers-venv (made with `python3 -m venv` and given
fastmcp==FASTMCP_VERSION when missing) and runs a small program there that does what a
FastMCP user does with a spec: read the document (json, or yaml.safe_load), build
`FastMCP.from_openapi(...)` with a client aimed at a closed local port (nothing is sent
while building), then list the tools over an in-memory MCP client session, as a client
sees them, and exit.

For each document of scripts/bench.py's list, the FastMCP program and `toolcat generate
--spec X --out <emptied folder>` (toolcat's cache off) run one after the other, --runs
times, so both see the same machine load. Both are measured as whole processes the way
bench.py measures toolcat: wall time (median of the runs) and peak RSS (ru_maxrss from
os.wait4, max of the runs). A run still going after --timeout seconds is killed.

Prints a Markdown table on stdout, progress on stderr. Not part of the test suite
(tests/project/test_bench_peers_script.py runs the toolcat half on the OAI petstore).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench.py sits beside us
from bench import (
    REPO,
    Run,
    available,
    common_arguments,
    documents,
    measure,
    toolcat,
)

FASTMCP_VERSION = "4.1.6"
PEERS_VENV = REPO / ".bench" / "peers-venv"
DEAD_URL = "http://127.0.0.1:9"  # the discard port: never contacted while building

# What a FastMCP user writes, plus timestamps. Each step that fails says so on one
# line starting with FAILED, so the table can show which step and why.
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
"""

PHASES = ("import", "load", "build", "list")


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
    fastmcp: Side = field(default_factory=Side)
    toolcat: Side = field(default_factory=Side)


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


def bench_row(row: Row, runs: int, work: Path, timeout: float, exe: list[str],
              python: Path | None) -> None:
    """Alternate one FastMCP run and one toolcat run, --runs times.

    A side that failed once is not run again (the failure is what gets reported); the
    other side goes on.
    """
    out, log = work / "out", work / "log.txt"
    env = {**os.environ, "TOOLCAT_CACHE": "off", "TOOLCAT_CACHE_DIR": str(work / "cache")}
    peer_env = {key: value for key, value in os.environ.items()
                if key not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    if python is None:
        row.fastmcp.note = "not measured (--toolcat-only)"
    for _ in range(runs):
        if python is not None and not row.fastmcp.note:
            run = measure([str(python), "-c", PEER_PROGRAM, str(row.spec), DEAD_URL], log,
                          timeout, peer_env)
            row.fastmcp.runs.append(run)
            tools, phases = parse_peer_log(log)
            if run.code == 0:
                row.fastmcp.tools = tools
                row.fastmcp.phases.append(phases)
            else:
                row.fastmcp.note = failure(run, log, timeout, row.spec)
        if not row.toolcat.note:
            shutil.rmtree(out, ignore_errors=True)
            run = measure([*exe, "generate", "--spec", str(row.spec), "--out", str(out)],
                          log, timeout, env)
            row.toolcat.runs.append(run)
            if run.code == 0:
                row.toolcat.tools = toolcat_tools(out)
            else:
                row.toolcat.note = failure(run, log, timeout, row.spec)


def _median(side: Side) -> float | None:
    good = [run.wall for run in side.runs if run.code == 0]
    return statistics.median(good) if good and not side.note else None


def _mb(side: Side) -> str:
    return f"{max(run.max_rss_kb for run in side.runs) / 1024:.0f}" if side.runs else "-"


def _seconds(side: Side) -> str:
    median = _median(side)
    if median is not None:
        return f"{median:.2f}"
    if side.runs and "timeout" in side.note:
        return "timeout"
    return "failed" if side.runs else "-"


def table(rows: list[Row], runs: int, timeout: float, versions: dict[str, str]) -> str:
    """The Markdown table, its legend, FastMCP's time per phase and the failures."""
    lines = ["| document | FastMCP tools | FastMCP s | FastMCP MB | toolcat tools "
             "| toolcat generate s | toolcat MB | ratio (FastMCP s / toolcat s) | note |",
             "|" + "---|" * 9]
    for row in rows:
        peer, ours = _median(row.fastmcp), _median(row.toolcat)
        ratio = f"{peer / ours:.1f}" if peer is not None and ours else "-"
        notes = [text for text in (row.fastmcp.note and f"FastMCP: {row.fastmcp.note}",
                                   row.toolcat.note and f"toolcat: {row.toolcat.note}")
                 if text]
        note = "; ".join(notes).replace("|", "\\|")
        lines.append(f"| {row.label} | {row.fastmcp.tools} | {_seconds(row.fastmcp)} "
                     f"| {_mb(row.fastmcp)} | {row.toolcat.tools} | {_seconds(row.toolcat)} "
                     f"| {_mb(row.toolcat)} | {ratio} | {note} |")
    peer = (f"FastMCP {versions['fastmcp']} (mcp {versions.get('mcp', '?')}, pydantic "
            f"{versions.get('pydantic', '?')}, Python {versions.get('python', '?')})"
            if "fastmcp" in versions else "FastMCP not measured")
    legend = (f"\n{peer}. Seconds: wall time of the whole process, median of {runs} "
              "run(s); MB: peak RSS (ru_maxrss), max of the runs; a side that fails is "
              f"not run again; a run is killed after {timeout:.0f} s. FastMCP: read the "
              "document (json / yaml.safe_load), FastMCP.from_openapi(openapi_spec=..., "
              "client=httpx2.AsyncClient(base_url=...)), list the tools through an "
              "in-memory fastmcp.Client. toolcat: `toolcat generate --spec X --out "
              "<empty folder>` with TOOLCAT_CACHE=off, run right after FastMCP on the "
              "same document.")
    measured = [row for row in rows if row.fastmcp.phases]
    if not measured:
        return "\n".join([*lines, legend])
    split = ["", "FastMCP's time per step (median of the successful runs, seconds):", "",
             "| document | " + " | ".join(PHASES) + " |", "|" + "---|" * (len(PHASES) + 1)]
    for row in measured:
        cells = [f"{statistics.median(p.get(name, 0.0) for p in row.fastmcp.phases):.2f}"
                 for name in PHASES]
        split.append(f"| {row.label} | " + " | ".join(cells) + " |")
    return "\n".join([*lines, legend, *split])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common_arguments(parser)
    parser.add_argument("--toolcat-only", action="store_true",
                        help="measure toolcat alone: no peers venv, no FastMCP")
    parser.add_argument("--fastmcp-version", default=FASTMCP_VERSION, metavar="VERSION",
                        help=f"the fastmcp to install in the peers venv ({FASTMCP_VERSION})")
    args = parser.parse_args(argv)
    chosen = [(label, path) for label, path in documents()
              if not args.only or any(name in label for name in args.only)]
    if not chosen:
        print("no document matches --only", file=sys.stderr)
        return 2
    python, versions = None, {}
    if not args.toolcat_only:
        python = peers_python(args.fastmcp_version)
        versions = installed_versions(python)
        print(f"FastMCP {versions.get('fastmcp')} in {python}", file=sys.stderr, flush=True)
    exe = shlex.split(args.toolcat) if args.toolcat else toolcat()
    rows = []
    with tempfile.TemporaryDirectory(prefix="toolcat-bench-peers-") as tmp:
        for label, path in available(chosen):
            row = Row(label, path)
            bench_row(row, args.runs, Path(tmp), args.timeout, exe, python)
            rows.append(row)
    print(table(rows, args.runs, args.timeout, versions))
    return 0


if __name__ == "__main__":
    sys.exit(main())
