"""Soak `toolcat serve`: many calls over stdio against a local stub API, memory at start and end.

    .venv/bin/python scripts/soak_serve.py [--calls 20000] [--json]

Starts the stub API of tests/helpers/stub_api.py on 127.0.0.1 and `toolcat serve broadcast` (the
committed example catalog) over stdio, warms up with 200 calls, reads the server's resident
set size (VmRSS, Linux /proc), sends `--calls` tools/call requests (rotating over read tools,
a write, an invalid call and an unknown tool), and reads it again. Prints calls, seconds and
RSS at start and end (MiB), and the growth per call; exits 1 if a call went unanswered or
the server ended.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import orjson

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
from helpers.stub_api import StubApi, shape  # noqa: E402 - the tests' stub API

CALLS = [
    ("broadcast_get_channel", {"channelId": 7}),
    ("broadcast_list_channels", {"pageSize": 5, "query": "news"}),
    ("broadcast_list_schedules", {}),
    ("broadcast_delete_channel", {"channelId": 3}),
    ("broadcast_get_channel", {"channelId": "not a number"}),   # refused before sending
    ("no_such_tool", {}),                                       # a JSON-RPC error
]


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


class Session:
    parsing = 0.0   # seconds spent parsing answers (bench_serve reports it)

    def __init__(self, base_url: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", "from toolcat.cli import main; main()", "serve",
             "broadcast", "-q", "--base-url", base_url], cwd=REPO, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.ids = itertools.count(1)
        self.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                    "clientInfo": {"name": "soak", "version": "1"}})
        self.write({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def write(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        request_id = next(self.ids)
        self.write({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"the server ended (exit {self.process.wait()})")
        # orjson: bench_serve reads 8 MB of tools/list pages through here, and the json
        # module's parse of them (about 0.2 s) would hide the server's time.
        began = time.perf_counter()
        answer: dict[str, Any] = orjson.loads(line)
        self.parsing += time.perf_counter() - began
        if answer.get("id") != request_id:
            raise RuntimeError(f"answer for id {answer.get('id')}, expected {request_id}")
        return answer

    def calls(self, count: int) -> None:
        for name, arguments in itertools.islice(itertools.cycle(CALLS), count):
            self.request("tools/call", {"name": name, "arguments": arguments})

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        return self.process.wait(timeout=60)


def soak(calls: int) -> dict[str, Any]:
    with StubApi(shape("ok")) as api:
        session = Session(api.url)
        session.calls(200)
        start_rss = rss_mib(session.process.pid)
        start = time.monotonic()
        session.calls(calls)
        seconds = time.monotonic() - start
        end_rss = rss_mib(session.process.pid)
        code = session.close()
    return {"calls": calls, "seconds": round(seconds, 1), "rss_start_mib": round(start_rss, 1),
            "rss_end_mib": round(end_rss, 1), "exit": code, "api_requests": len(api.seen),
            "kib_per_call": round((end_rss - start_rss) * 1024 / calls, 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=20_000)
    parser.add_argument("--json", action="store_true", help="one JSON line, for tests")
    args = parser.parse_args()
    result = soak(args.calls)
    if args.json:
        print(json.dumps(result, sort_keys=True))
    else:
        print(f"{result['calls']:,} calls in {result['seconds']} s; RSS "
              f"{result['rss_start_mib']} MiB at start, {result['rss_end_mib']} MiB at end "
              f"({result['kib_per_call']} KiB per call); server exit {result['exit']}")
    sys.exit(0 if result["exit"] == 0 else 1)


if __name__ == "__main__":
    main()
