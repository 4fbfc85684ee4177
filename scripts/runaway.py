"""Time `toolcat generate` on the small inputs that once ran away (issue 9, items 4 and 5;
issue 28, items 9 to 13).

    .venv/bin/python scripts/runaway.py [--timeout 120] [--only TEXT]

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


def _chain(n: int) -> bytes:
    """Issue 28 item 9: bare references in a chain, S0 -> S1 -> ... -> S<n-1>."""
    schemas: dict[str, Any] = {f"S{i}": {"$ref": f"#/components/schemas/S{i + 1}"}
                               for i in range(n - 1)}
    schemas[f"S{n - 1}"] = {"type": "string"}
    return _doc(schemas, body={"type": "object", "properties": {
        "s": {"$ref": "#/components/schemas/S0"}}})


def _fields(n: int) -> dict[str, Any]:
    return {"type": "object", "required": [f"f{i}" for i in range(n)],
            "properties": {f"f{i}": {"type": "string"} for i in range(n)}}


def _query(n: int) -> bytes:
    """Issue 28 item 12: one operation with ``n`` query parameters."""
    params = [{"name": f"q{i}", "in": "query", "schema": {"type": "string"}}
              for i in range(n)]
    return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                       "paths": {"/a": {"get": {"operationId": "a", "parameters": params,
                                                "responses": {"200": {"description": "ok"}}}}}
                       }).encode()


def _deep_dag(depth: int) -> bytes:
    """Issue 28 item 11: a deepObject parameter whose schema is an anyOf DAG."""
    schemas: dict[str, Any] = {"L0": {"type": "object", "properties": {"p": {"type": "string"}}}}
    for i in range(1, depth + 1):
        schemas[f"L{i}"] = {"anyOf": [{"$ref": f"#/components/schemas/L{i - 1}"}] * 3}
    param = {"name": "d", "in": "query", "style": "deepObject", "explode": True,
             "schema": {"$ref": f"#/components/schemas/L{depth}"}}
    return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                       "paths": {"/a": {"get": {"operationId": "a", "parameters": [param],
                                                "responses": {"200": {"description": "ok"}}}}},
                       "components": {"schemas": schemas}}).encode()


def _shared_body(ops: int, fields: int) -> bytes:
    """Issue 28 item 13: ``ops`` operations sharing one body of ``fields`` properties."""
    body = {"content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/B"}}}}
    paths = {f"/a{i}": {"post": {"operationId": f"a{i}", "requestBody": body,
                                 "responses": {"200": {"description": "ok"}}}}
             for i in range(ops)}
    return json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                       "paths": paths, "components": {"schemas": {"B": {
                           "type": "object", "properties": {
                               f"f{i}": {"type": "string"} for i in range(fields)}}}}}).encode()


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
    "bare $ref chain of 2,000 schemas": ("chain2k.json", _chain(2_000)),
    "bare $ref chain of 10,000 schemas": ("chain10k.json", _chain(10_000)),
    "optional body, 4,000 required fields": ("fields4k.json", _doc({}, body=_fields(4_000))),
    "optional body, 10,000 required fields": ("fields10k.json", _doc({}, body=_fields(10_000))),
    "deepObject anyOf DAG 18 deep": ("deep18.json", _deep_dag(18)),
    "deepObject anyOf DAG 30 deep": ("deep30.json", _deep_dag(30)),
    "4,000 query parameters": ("query4k.json", _query(4_000)),
    "10,000 query parameters": ("query10k.json", _query(10_000)),
    "2,000 operations sharing a 2,000-field body": ("shared.json", _shared_body(2_000, 2_000)),
    "--spec a FIFO": ("fifo", None),
    "--spec /dev/zero": ("/dev/zero", None),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--only", default="", help="run only the cases whose title has this")
    args = parser.parse_args()
    env = {**os.environ, "TOOLCAT_CACHE": "off"}
    print("| case | end | seconds | peak KiB | first line |\n|---|---|---|---|---|")
    with tempfile.TemporaryDirectory(prefix="toolcat-runaway-") as tmp:
        for title, (name, data) in CASES.items():
            if args.only not in title:
                continue
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
