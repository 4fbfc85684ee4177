"""Benchmark `toolcat generate` and `toolcat check` on every real document we have.

Run by `make bench`. For each corpus root (../shared/corpus/INDEX.md), the ErsatzTV
specs and the current 13 MB GitHub description (fetched into .bench/ by
scripts/fetch_github_spec.sh when missing), it measures the whole CLI process, as a
user or CI runs it: wall time (median of --runs) and peak memory (the child's
ru_maxrss from os.wait4, max of the runs), for `generate` into an emptied folder
and for `check` against that folder (spec unchanged: the everyday CI case): with
this machine's cache as generate left it (a CI runner that restores its cache), then
with no cache at all (TOOLCAT_CACHE=off: a fresh runner; check regenerates in memory,
validation included). check trusts nothing in the folder itself.
CPU time (user + sys, median) is printed too: on a busy machine wall time says
more about the neighbours than about toolcat.

`--scaling` (or `--scaling-only`) also measures `generate` on slices of one document's
operations, 100 to 1,500 of Cloudflare's 1,533 by default (`--scaling-spec`, `--sizes`),
for issue 25's linear-cost target.

Prints a Markdown table on stdout, progress on stderr. Not part of the test suite
(tests/project/test_bench_script.py only checks that it still runs).
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
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from doc_tables import write_block

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
ERSATZTV = SHARED / "specs" / "ersatztv"
GITHUB = REPO / ".bench" / "api.github.com.json"
FETCH = REPO / "scripts" / "fetch_github_spec.sh"
GITHUB_LABEL = "github @octokit/openapi 23.0.2"
METHODS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}


@dataclass
class Run:
    code: int
    wall: float
    cpu: float
    max_rss_kb: int


@dataclass
class Row:
    label: str
    spec: Path
    operations: str = "?"
    tools: str = "-"
    catalog_bytes: str = "-"
    largest_tool: str = "-"
    generate: list[Run] = field(default_factory=list)
    check: list[Run] = field(default_factory=list)
    check_regen: list[Run] = field(default_factory=list)
    note: str = ""


def documents() -> list[tuple[str, Path]]:
    """(label, path) of every document to measure, in a fixed order."""
    found: list[tuple[str, Path]] = []
    index = CORPUS / "INDEX.md"
    if index.is_file():
        # Table rows: | # | `path in corpus` | ... ; the JSON/YAML twins are not rows.
        for match in re.finditer(r"^\| *\d+ *\| *`([^`]+)`", index.read_text(), re.M):
            found.append((match.group(1), CORPUS / match.group(1)))
    else:
        print(f"note: {index} not found; corpus skipped", file=sys.stderr)
    for name in ("v1.json", "v1-pr2735-89e78ffe.json"):
        if (ERSATZTV / name).is_file():
            found.append((f"ersatztv/{name}", ERSATZTV / name))
    found.append((GITHUB_LABEL, GITHUB))
    return found


def fetch_github() -> bool:
    if GITHUB.is_file():
        return True
    print(f"fetching {GITHUB.name} with {FETCH.name} ...", file=sys.stderr)
    try:
        subprocess.run(["sh", str(FETCH)], check=True, timeout=600)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"note: could not fetch the GitHub spec ({exc}); it is left out",
              file=sys.stderr)
        return False
    return GITHUB.is_file()


def toolcat() -> list[str]:
    """The toolcat beside this python, its package's bytecode written first."""
    compiled()
    beside = Path(sys.executable).parent / "toolcat"
    return [str(beside) if beside.is_file() else shutil.which("toolcat") or "toolcat"]


def compiled(folders: list[str] | None = None) -> None:
    """Write the bytecode of ``folders`` (default: the toolcat this python imports), as an
    installed or once-run toolcat has it: where PYTHONDONTWRITEBYTECODE is set (this
    machine sets it), every run of a module edited since its last compile would compile
    it again, in memory, and that compile would be measured as toolcat's time."""
    import compileall  # noqa: PLC0415

    if folders is None:
        import toolcat as package  # noqa: PLC0415

        folders = list(package.__path__)
    for folder in folders:
        compileall.compile_dir(folder, quiet=1)


# The measuring parent: a bare interpreter that spawns the command and reports what
# wait4 says about it. Measuring from this script directly would be wrong: Linux
# counts the memory a child had before exec (a copy of its parent) in ru_maxrss,
# and this script holds whole specs in memory.
WRAPPER = """
import os, signal, sys, threading, time
log, timeout, argv = sys.argv[1], float(sys.argv[2]), sys.argv[3:]
actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
           (os.POSIX_SPAWN_OPEN, 1, log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644),
           (os.POSIX_SPAWN_DUP2, 1, 2)]
start = time.perf_counter()
pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
timer = threading.Timer(timeout, os.kill, (pid, signal.SIGKILL))
timer.start()
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
timer.cancel()
print(os.waitstatus_to_exitcode(status), wall, usage.ru_utime + usage.ru_stime,
      usage.ru_maxrss)
"""


def measure(argv: list[str], log: Path, timeout: float, env: dict[str, str]) -> Run:
    """Run argv as a grandchild; its wall time, CPU time and peak RSS from wait4."""
    report = subprocess.run([sys.executable, "-S", "-c", WRAPPER, str(log), str(timeout),
                             *argv], capture_output=True, text=True, check=True, env=env)
    code, wall, cpu, rss = report.stdout.split()
    return Run(int(code), float(wall), float(cpu), int(rss))


def count_operations(spec: Path) -> str:
    """Operations under paths (+ webhooks) of the bundled document, as toolcat reads it."""
    try:
        from toolcat.load.bundle import bundle  # noqa: PLC0415 - only when measuring

        root = ref_root(spec)
        document: Any = bundle(spec, Path(root[1]) if root else None).document
    except Exception as exc:  # a document toolcat rejects still gets a row
        return f"? ({type(exc).__name__})"
    paths = document.get("paths") or {}
    hooks = document.get("webhooks") or {}

    def ops(items: Any) -> int:
        return sum(1 for item in items.values() if isinstance(item, dict)
                   for key in item if key in METHODS)

    count = f"{ops(paths):,}"
    return count + (f" +{ops(hooks)} wh" if hooks else "")


def describe_output(row: Row, out: Path) -> None:
    catalog = out / "catalog.json"
    if not catalog.is_file():
        return
    data = catalog.read_bytes()
    tools = orjson.loads(data).get("tools", [])
    row.tools = f"{len(tools):,}"
    row.catalog_bytes = f"{len(data):,}"
    sizes = [len(orjson.dumps(entry.get("tool"))) for entry in tools]
    row.largest_tool = f"{max(sizes):,}" if sizes else "0"


def ref_root(spec: Path) -> list[str]:
    """A corpus document's relative $refs may reach anywhere in its own project's folder
    (the corpus entry's first folder: petstore-separate's spec/ refers to ../common/),
    as its team would set `ref_root`; other documents keep the default, their folder."""
    try:
        top = spec.resolve().relative_to(CORPUS.resolve()).parts[0]
    except (ValueError, IndexError):
        return []
    return ["--ref-root", str(CORPUS / top)]


def bench(row: Row, runs: int, work: Path, timeout: float, exe: list[str],
          generations: int | None = None) -> None:
    """generate from nothing (no output, empty cache) `generations` times (default:
    runs), then check `runs` times twice over: with the cache generate filled, then with
    no cache (regenerating, validating)."""
    out, log, cache = work / "out", work / "log.txt", work / "cache"
    warm = {**os.environ, "TOOLCAT_CACHE_DIR": str(cache)}
    warm.pop("TOOLCAT_CACHE", None)
    cold = {**warm, "TOOLCAT_CACHE": "off"}
    row.operations = count_operations(row.spec)
    # warn: documents that break OpenAPI upstream are measured too; the validator does
    # the same work in both modes (warn only lets generation go on past its findings).
    where = ["--spec", str(row.spec), "--out", str(out), "--validation", "warn",
             *ref_root(row.spec)]
    for _ in range(runs if generations is None else generations):
        shutil.rmtree(out, ignore_errors=True)
        shutil.rmtree(cache, ignore_errors=True)
        row.generate.append(measure([*exe, "generate", *where], log, timeout, warm))
    if row.generate[-1].code != 0:
        row.note = _first_error(log)
        return
    describe_output(row, out)
    check = [*exe, "check", *where]
    for _ in range(runs):
        row.check.append(measure(check, log, timeout, warm))
    if row.check[-1].code != 0:
        row.note = "check: " + _first_error(log)
    for _ in range(runs):
        row.check_regen.append(measure(check, log, timeout, cold))
    if row.check_regen[-1].code != 0:
        row.note = "check without a cache: " + _first_error(log)


def _first_error(log: Path) -> str:
    lines = log.read_text(errors="replace").strip().splitlines()
    if not lines:
        return "killed (timeout?)"
    for line in lines:
        if "error" in line.lower() or "stale" in line.lower():
            return line.strip()[:160]
    return lines[0].strip()[:160]


def _seconds(runs: list[Run]) -> tuple[str, str, str]:
    if not runs:
        return "-", "-", "-"
    wall = statistics.median(r.wall for r in runs)
    cpu = statistics.median(r.cpu for r in runs)
    return f"{wall:.2f}", f"{cpu:.2f}", f"{max(r.max_rss_kb for r in runs) / 1024:.0f}"


def table(rows: list[Row], runs: int) -> str:
    head = ("| document | operations | tools | catalog bytes | largest tool bytes "
            "| generate s | generate cpu s | generate MB | check s, cached | check MB, cached "
            "| check s, no cache | check cpu s, no cache | check MB, no cache "
            "| exit code (generate/check cached/no cache) |")
    lines = [head, "|" + "---|" * 14]
    for row in rows:
        gen, check = _seconds(row.generate), _seconds(row.check)
        regen = _seconds(row.check_regen)
        codes = "/".join(str(r[-1].code) if r else "-"
                         for r in (row.generate, row.check, row.check_regen))
        lines.append(f"| {row.label} | {row.operations} | {row.tools} | {row.catalog_bytes} "
                     f"| {row.largest_tool} | {gen[0]} | {gen[1]} | {gen[2]} | {check[0]} "
                     f"| {check[2]} | {regen[0]} | {regen[1]} | {regen[2]} | {codes} |")
    notes = [f"- {row.label}: {row.note}" for row in rows if row.note]
    legend = (f"\nWall and CPU (user+sys) seconds: median of {runs} run(s) of the whole "
              "process; MB: peak RSS (max of the runs). generate starts from an empty "
              "folder and an empty toolcat cache; check runs on the unchanged spec with "
              "the cache generate filled, then as on a fresh CI runner (TOOLCAT_CACHE=off: "
              "regenerating, validation included). Every run uses --validation warn, so "
              "documents that break OpenAPI upstream are measured too (the validator does "
              "the same work in both modes), and a corpus document's project folder as "
              "--ref-root. Largest tool: the compact JSON of one tool as tools/list "
              "returns it.")
    return "\n".join([*lines, legend, *(["", "Failures:", *notes] if notes else [])])


SCALING_SIZES = (100, 250, 500, 1000, 1500)
# The sliced document: Cloudflare's 1,533 operations reach issue 25's 1,500 (GitHub's
# 13 MB description has 1,223), and it is in the corpus, so nothing is fetched.
SCALING_SPEC = CORPUS / "cloudflare" / "openapi.json"


def _spread_rank(path: str, method: str) -> str:
    """An operation's place in the slicing order: a digest of `METHOD path`, so the
    first N are spread over the whole document (not its first paths) and the same on
    every run, and a slice holds every smaller one."""
    return hashlib.sha256(f"{method.upper()} {path}".encode()).hexdigest()


def operations_slice(document: dict[str, Any], count: int) -> dict[str, Any]:
    """`document` with `count` of its operations: the first `count` in the order of
    `_spread_rank`, in the document's own order; a path item keeps its other keys
    (`parameters`, `servers`) when it keeps an operation, and is left out when it keeps
    none; components and everything else are kept whole."""
    items = {path: item for path, item in (document.get("paths") or {}).items()
             if isinstance(item, dict)}
    ranked = sorted(_spread_rank(path, key) for path, item in items.items()
                    for key in item if key in METHODS)
    cut = ranked[count - 1] if 0 < count <= len(ranked) else (ranked or [""])[-1]
    paths: dict[str, Any] = {}
    for path, item in items.items():
        kept = {key: value for key, value in item.items()
                if key not in METHODS or (count > 0 and _spread_rank(path, key) <= cut)}
        if any(key in METHODS for key in kept):
            paths[path] = kept
    return {**document, "paths": paths}


def scaling(spec: Path, runs: int, work: Path, timeout: float, exe: list[str],
            sizes: tuple[int, ...] = SCALING_SIZES) -> str:
    """generate on slices of one document's operations (components whole), so what
    grows is the number of operations: a cost linear in operations shows as a steady
    CPU time per operation added from one slice to the next."""
    document = orjson.loads(spec.read_bytes())
    total = sum(1 for item in (document.get("paths") or {}).values()
                if isinstance(item, dict) for key in item if key in METHODS)
    counts = sorted({min(size, total) for size in sizes})
    out, log, cache = work / "scaling-out", work / "scaling-log.txt", work / "scaling-cache"
    env = {**os.environ, "TOOLCAT_CACHE_DIR": str(cache)}
    env.pop("TOOLCAT_CACHE", None)
    measured: list[tuple[int, list[Run]]] = []
    for count in counts:
        part = work / f"scaling-{count}" / spec.name
        part.parent.mkdir(exist_ok=True)
        part.write_bytes(orjson.dumps(operations_slice(document, count)))
        print(f"scaling: {count} operations ...", file=sys.stderr, flush=True)
        found = []
        for _ in range(runs):
            shutil.rmtree(out, ignore_errors=True)
            shutil.rmtree(cache, ignore_errors=True)
            found.append(measure([*exe, "generate", "--spec", str(part), "--out", str(out),
                                  "--validation", "warn"], log, timeout, env))
        measured.append((count, found))
    return scaling_table(spec, total, runs, measured)


def scaling_table(spec: Path, total: int, runs: int,
                  measured: list[tuple[int, list[Run]]]) -> str:
    lines = ["| operations | generate wall s | generate cpu s | cpu ms per operation "
             "| cpu ms per operation added since the row above | exit code |",
             "|---:|---:|---:|---:|---:|---|"]
    previous: tuple[int, float] | None = None
    cpus: list[tuple[int, float]] = []
    for count, runs_of in measured:
        wall = statistics.median(r.wall for r in runs_of)
        cpu = statistics.median(r.cpu for r in runs_of)
        cpus.append((count, cpu))
        step = "-"
        if previous is not None and count > previous[0]:
            step = f"{(cpu - previous[1]) * 1000 / (count - previous[0]):.2f}"
        previous = (count, cpu)
        codes = ",".join(sorted({str(r.code) for r in runs_of}))
        lines.append(f"| {count:,} | {wall:.2f} | {cpu:.2f} | {cpu * 1000 / count:.2f} "
                     f"| {step} | {codes} |")
    return (f"Scaling: `toolcat generate` (empty folder and cache, validation included) on "
            f"slices of {spec.name} ({total:,} operations; a slice of N keeps N operations "
            "spread over the whole document, the first N by a digest of `METHOD path`, so "
            f"each slice holds the smaller ones; components whole), medians of {runs}. The "
            "per-operation cost is the CPU added from one slice to the next: flat means "
            "linear (the first row's per-operation figure carries the fixed start-up)."
            f"{flatness(cpus)}\n\n" + "\n".join(lines))


def flatness(cpus: list[tuple[int, float]]) -> str:
    """A sentence comparing the CPU per operation added in the upper half of the sizes
    with the lower half's; empty with fewer than three sizes."""
    if len(cpus) < 3:
        return ""
    (low, low_cpu), (high, high_cpu) = cpus[0], cpus[-1]
    mid, mid_cpu = min(cpus[1:-1], key=lambda pair: abs(pair[0] - (low + high) / 2))
    lower = (mid_cpu - low_cpu) * 1000 / (mid - low)
    upper = (high_cpu - mid_cpu) * 1000 / (high - mid)
    ratio = f"{upper / lower:.2f}" if lower > 0 else "-"
    return (f" CPU per operation added from {low:,} to {mid:,} operations: {lower:.2f} ms; "
            f"from {mid:,} to {high:,}: {upper:.2f} ms; upper / lower {ratio} (a linear "
            f"cost gives about 1, a cost growing as the square of the operations "
            f"{(mid + high) / (low + mid):.2f}).")


def available(chosen: list[tuple[str, Path]]) -> Iterator[tuple[str, Path]]:
    """The chosen documents that are here (fetching GitHub's), announcing each."""
    for label, path in chosen:
        if path == GITHUB and not fetch_github():
            continue
        if not path.is_file():
            print(f"note: {path} not found; skipped", file=sys.stderr)
            continue
        print(f"{label} ...", file=sys.stderr, flush=True)
        yield label, path


def common_arguments(parser: argparse.ArgumentParser) -> None:
    """The options every benchmark script here takes."""
    parser.add_argument("--only", action="append", default=[], metavar="NAME",
                        help="measure only documents whose label contains NAME (repeatable)")
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement (3)")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds before one run is killed (600)")
    parser.add_argument("--toolcat", default=None, metavar="COMMAND",
                        help="the command to measure (default: the toolcat beside python)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    common_arguments(parser)
    parser.add_argument("--write", type=Path, default=None, metavar="PAGE",
                        help="also write the tables into PAGE (docs/performance.md), with "
                             "date, machine, load and command")
    parser.add_argument("--scaling", action="store_true",
                        help="also measure generate on slices of one document's operations")
    parser.add_argument("--scaling-only", action="store_true",
                        help="measure only the scaling (no per-document table)")
    parser.add_argument("--scaling-spec", type=Path, default=SCALING_SPEC, metavar="SPEC",
                        help="the JSON document sliced by --scaling (the corpus's "
                             "cloudflare/openapi.json, 1,533 operations; "
                             f"{GITHUB.relative_to(REPO)}: GitHub's 1,223, fetched)")
    parser.add_argument("--sizes", default=",".join(map(str, SCALING_SIZES)),
                        help="operations per scaling slice, comma-separated")
    args = parser.parse_args(argv)
    exe = shlex.split(args.toolcat) if args.toolcat else toolcat()
    chosen = [] if args.scaling_only else [
        (label, path) for label, path in documents()
        if not args.only or any(name in label for name in args.only)]
    if not chosen and not args.scaling_only:
        print("no document matches --only", file=sys.stderr)
        return 2
    written: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="toolcat-bench-") as tmp:
        rows = []
        for label, path in available(chosen):
            row = Row(label, path)
            bench(row, args.runs, Path(tmp), args.timeout, exe)
            rows.append(row)
        if rows:
            written["bench"] = table(rows, args.runs)
            print(written["bench"])
        scaled = args.scaling or args.scaling_only
        sliced = [(f"scaling {args.scaling_spec.name}", args.scaling_spec)]
        if scaled and next(available(sliced), None):
            sizes = tuple(int(size) for size in args.sizes.split(","))
            written["bench-scaling"] = scaling(args.scaling_spec, args.runs, Path(tmp),
                                               args.timeout, exe, sizes)
            print(("\n" if rows else "") + written["bench-scaling"])
    for name, text in written.items():
        write_block(args.write, name, text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
