"""The official MCP conformance suite against `toolcat serve --transport http` (make conformance).

Starts `toolcat serve <catalog> --transport http` on 127.0.0.1 (a free port), runs the suite
(`conformance server --url ... --requirements REVISION -o DIR`) once per revision, reads every
scenario's checks.json, and judges each check against tests/conformance/expected-failures.yaml:

- a FAILURE or WARNING check that the file does not list fails the run (UNEXPECTED);
- a check the file lists that passes, or that no scenario ran, fails the run (STALE);
- SUCCESS, INFO and SKIPPED checks are counted.

Prints a table of scenarios and results per revision (`--markdown FILE` writes it as
Markdown too) and exits 0 when nothing is unexpected or stale, else 1; 2 when the suite or
the server could not run. No scenario calls a catalog tool (every tools/call names one of the
suite's fixture tools), so the API base URL points at a closed port: a call that reached the
API would come back as an error result, never as a request to anything real.

    .venv/bin/python scripts/conformance.py --node .conformance/node_modules/.bin/node \\
        --suite .conformance/node_modules/@modelcontextprotocol/conformance/dist/index.js
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from helpers.stub_api import free_port  # noqa: E402 - the tests' one free-port helper

EXPECTED = REPO / "tests" / "conformance" / "expected-failures.yaml"
REVISIONS = ("2025-11-25", "2026-07-28")
BAD = ("FAILURE", "WARNING")
# A scenario's result folder: server-<scenario>-<ISO timestamp with dashes>Z.
_FOLDER = re.compile(r"^server-(?P<scenario>.+)-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$")


@dataclass
class Row:
    """One scenario in one revision: counts by status and the verdict."""

    revision: str
    scenario: str
    counts: dict[str, int] = field(default_factory=dict)
    expected: list[str] = field(default_factory=list)     # reasons of listed failures
    unexpected: list[str] = field(default_factory=list)   # "check: STATUS message"

    @property
    def verdict(self) -> str:
        if self.unexpected:
            return "UNEXPECTED"
        if self.expected:
            return "expected (" + ", ".join(sorted(set(self.expected))) + ")"
        return "pass"


def load_expected(path: Path) -> dict[tuple[str, str], str]:
    """(scenario, check id) -> the reason it is listed under."""
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    listed: dict[tuple[str, str], str] = {}
    for reason, entry in sorted(data.items()):
        if not entry.get("why") or not entry.get("spec"):
            raise ValueError(f"{path}: reason {reason!r} needs both `why` and `spec`")
        for scenario, checks in sorted((entry.get("checks") or {}).items()):
            for check in checks:
                if (scenario, check) in listed:
                    raise ValueError(f"{path}: {scenario}/{check} is listed twice")
                listed[(scenario, check)] = reason
    return listed


def read_results(folder: Path) -> dict[str, list[dict[str, Any]]]:
    """scenario -> its checks, from the suite's `-o` folder."""
    results: dict[str, list[dict[str, Any]]] = {}
    for sub in sorted(folder.iterdir()):
        match = _FOLDER.match(sub.name)
        if match and (sub / "checks.json").is_file():
            checks = json.loads((sub / "checks.json").read_text(encoding="utf-8"))
            results[match["scenario"]] = checks
    return results


def judge(runs: dict[str, dict[str, list[dict[str, Any]]]],
          expected: dict[tuple[str, str], str]) -> tuple[list[Row], list[str]]:
    """Rows per revision and scenario, and the stale entries of the expected file."""
    rows: list[Row] = []
    bad_somewhere: set[tuple[str, str]] = set()
    passed_somewhere: set[tuple[str, str]] = set()
    for revision, results in runs.items():
        for scenario, checks in sorted(results.items()):
            row = Row(revision, scenario)
            for check in checks:
                status, key = str(check.get("status")), (scenario, str(check.get("id")))
                row.counts[status] = row.counts.get(status, 0) + 1
                if status == "SUCCESS":
                    passed_somewhere.add(key)
                if status not in BAD:
                    continue
                bad_somewhere.add(key)
                if key in expected:
                    row.expected.append(expected[key])
                else:
                    row.unexpected.append(f"{key[1]}: {status} {check.get('errorMessage') or ''}")
            rows.append(row)
    stale = [f"{s}/{c} ({expected[(s, c)]}): " + ("passes" if (s, c) in passed_somewhere
                                                  else "no scenario ran this check")
             for s, c in sorted(expected)
             if (s, c) in passed_somewhere or (s, c) not in bad_somewhere]
    return rows, stale


def table(rows: list[Row]) -> str:
    lines = ["| revision | scenario | passed | failed | warnings | skipped/info | result |",
             "|---|---|---:|---:|---:|---:|---|"]
    for row in rows:
        c = row.counts
        quiet = c.get("SKIPPED", 0) + c.get("INFO", 0)
        lines.append(f"| {row.revision} | `{row.scenario}` | {c.get('SUCCESS', 0)} | "
                     f"{c.get('FAILURE', 0)} | {c.get('WARNING', 0)} | {quiet} | {row.verdict} |")
    return "\n".join(lines) + "\n"


def _wait_for(port: int, process: subprocess.Popen[bytes], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"toolcat serve exited with {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"toolcat serve did not listen on port {port} within {seconds:.0f} s")


@contextmanager
def serving(catalog: str, log: Path) -> Iterator[str]:
    """`toolcat serve CATALOG --transport http` on 127.0.0.1; yields its MCP URL."""
    port, closed = free_port(), free_port()
    toolcat = Path(sys.executable).with_name("toolcat")
    command = [str(toolcat), "serve", catalog, "--transport", "http", "--host", "127.0.0.1",
               "--port", str(port), "--base-url", f"http://127.0.0.1:{closed}"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, cwd=REPO, stdout=out, stderr=subprocess.STDOUT)
        try:
            _wait_for(port, process)
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            process.terminate()
            process.wait(timeout=30)


def run_suite(node: str, suite: str, url: str, revision: str, folder: Path) -> str:
    command = [node, suite, "server", "--url", url, "--requirements", revision,
               "-o", str(folder)]
    # Exit status 1 means "some check failed": this script judges that itself.
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"the suite exited with {done.returncode}:\n{done.stderr[-2000:]}")
    return done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--node", required=True, help="a Node 22+ binary")
    parser.add_argument("--suite", required=True, help="the suite's dist/index.js")
    parser.add_argument("--catalog", default="broadcast")
    parser.add_argument("--revision", action="append", dest="revisions")
    parser.add_argument("--expected", type=Path, default=EXPECTED)
    parser.add_argument("--markdown", type=Path, help="also write the table here")
    args = parser.parse_args(argv)
    expected = load_expected(args.expected)
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {}
    with tempfile.TemporaryDirectory(prefix="toolcat-conformance-") as tmp:
        try:
            with serving(args.catalog, Path(tmp) / "serve.log") as url:
                for revision in args.revisions or REVISIONS:
                    folder = Path(tmp) / revision
                    stdout = run_suite(args.node, args.suite, url, revision, folder)
                    runs[revision] = read_results(folder)
                    ran = len(re.findall(r"^=== Running scenario: ", stdout, re.M))
                    if ran != len(runs[revision]):
                        raise RuntimeError(f"{revision}: the suite ran {ran} scenarios but "
                                           f"left results for {len(runs[revision])}")
        except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
            log = Path(tmp) / "serve.log"
            tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
            print(f"conformance: could not run: {exc}\n{tail}", file=sys.stderr)
            return 2
    rows, stale = judge(runs, expected)
    text = table(rows)
    print(text)
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    problems = [f"UNEXPECTED {r.revision} {r.scenario}: {u}" for r in rows for u in r.unexpected]
    problems += [f"STALE expected failure: {s}" for s in stale]
    for problem in problems:
        print(problem, file=sys.stderr)
    total = sum(len(r) for r in runs.values())
    print(f"{total} scenario runs over {len(runs)} revisions; "
          f"{len(problems)} unexpected or stale", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
