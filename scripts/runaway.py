"""Time `toolcat generate` on the small inputs that once ran away (issue 9, items 4 and 5).

    .venv/bin/python scripts/runaway.py [--timeout 120]

Each case is written to a temporary folder and run as a subprocess, with the
cache off; prints one row per case: exit code (or the signal), seconds, the largest
peak memory of any child so far (KiB) and the first line toolcat printed. Before the fixes
these crashed (SIGSEGV), hung or were killed at the timeout; every row should
now end in exit 0 or a located exit 2 within seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

CLI = [sys.executable, "-c", "from toolcat.cli import main; main()"]
HEAD = 'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}\nx-h: '


def _doc(schemas: dict[str, Any], body: Any = None, response: Any = None) -> bytes:
    op: dict[str, Any] = {"operationId": "a", "responses": {"200": {"description": "ok"}}}
    if body is not None:
        op["requestBody"] = {"content": {"application/json": {"schema": body}}}
    if response is not None:
        op["responses"]["200"]["content"] = {"application/json": {"schema": response}}
    return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                       "paths": {"/a": {"post": op}},
                       "components": {"schemas": schemas}}).encode()


def _dag(keyword: str, leaf: dict[str, Any]) -> dict[str, Any]:
    schemas = {"L0": leaf}
    for i in range(1, 21):
        schemas[f"L{i}"] = {keyword: [{"$ref": f"#/components/schemas/L{i - 1}"}] * 3}
    return schemas


def _laughs() -> bytes:
    text = HEAD + "\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, 10):
        text += f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n"
    return text.encode()


TOP = {"$ref": "#/components/schemas/L20"}
CASES: dict[str, Any] = {
    "yaml nested 40,000 deep (80 KB)": ("deep.yaml", (HEAD + "[" * 40_000 + "]" * 40_000
                                                      + "\n").encode()),
    "yaml aliases, 9 levels of 9 (billion laughs)": ("laughs.yaml", _laughs()),
    "allOf DAG 20 levels x 3 in a request body": ("allof.json", _doc(_dag("allOf", {
        "type": "object", "properties": {"p": {"type": "string"}}}), body=TOP)),
    "anyOf DAG 20 levels x 3 in a response": ("anyof.json", _doc(_dag("anyOf", {
        "type": "string"}), response=TOP)),
    "enum of 20,000 strings plus one object": ("enum.json", _doc({"E": {"enum": [
        f"v{i}" for i in range(20_000)] + [{"a": 1}]}}, body={"type": "object", "properties": {
            "e": {"$ref": "#/components/schemas/E"}}})),
    "--spec a FIFO": ("fifo", None),
    "--spec /dev/zero": ("/dev/zero", None),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    env = {**os.environ, "TOOLCAT_CACHE": "off"}
    print("| case | end | seconds | peak KiB | first line |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="toolcat-runaway-") as tmp:
        for title, (name, data) in CASES.items():
            spec = Path(name) if name.startswith("/") else Path(tmp) / name
            if data is not None:
                spec.write_bytes(data)
            elif name == "fifo":
                os.mkfifo(spec)
            start = time.perf_counter()
            try:
                run = subprocess.run([*CLI, "generate", "--spec", str(spec), "--out",
                                      str(Path(tmp) / f"out-{len(title)}")], env=env,
                                     capture_output=True, text=True, timeout=args.timeout,
                                     check=False)
                end = (f"signal {-run.returncode}" if run.returncode < 0
                       else f"exit {run.returncode}")
                first = (run.stderr or run.stdout).strip().splitlines()[:1]
            except subprocess.TimeoutExpired:
                end, first = f"killed at {args.timeout:.0f} s", []
            seconds = time.perf_counter() - start
            peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
            line = first[0][:90].replace(tmp, "…") if first else ""
            print(f"| {title} | {end} | {seconds:.2f} | {peak} | {line} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
