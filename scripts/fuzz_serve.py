"""Fuzz `toolcat serve`: hostile arguments and hostile API answers; the server must hold.

    .venv/bin/python scripts/fuzz_serve.py [--cases 1000] [--seed 1] [--documents a,b] [--json]

Documents: the committed example and a few corpus documents (their catalogs generated into a
temporary folder, never committed), each served over stdio by `toolcat serve --timeout 2` in
front of the stub API of tests/helpers/stub_api.py on 127.0.0.1, with a distinctive secret set for
every security scheme the catalog names. Each case picks a document, a tool, arguments drawn
from the tool's inputSchema (hypothesis-jsonschema, derandomized) with, usually, one value
replaced by a hostile one (dot segments, reserved characters, CR/LF, NUL, lone surrogates,
deep nesting, a 1 MB string, hostile member names), and a shape for the API's answer (drip,
reset after read, lone surrogates, flood, wrong types, an echo of the request...). Judged:

* died: the server process ended (it is restarted for the next case);
* hang: no answer within DEADLINE seconds of sending (or an answer without the call's id);
* outside-template: a request reached the API whose method is not the tool's, or whose raw
  path is not the declared template under the server's base path, or holds a `.`/`..`
  segment;
* secret-shown: an answer carries a configured secret in any form (raw, base64 of
  `user:pass`, the password alone, percent-encoded).

Prints one line per failure (the first 5 of each class) and a summary; exits 1 when any case
failed. The cases depend only on `--seed`.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import queue
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO / "tests"))
from helpers.draw import draw_arguments  # noqa: E402 - the tests' seeded hypothesis draws
from helpers.stub_api import SHAPES, StubApi, shape  # noqa: E402 - the tests' stub API

DOCUMENTS = {   # name -> spec (None: the committed example, served by its config name)
    "broadcast": None,
    "museum": SHARED / "corpus" / "museum" / "openapi.yaml",
    "links": SHARED / "corpus" / "oai-examples" / "v3.0" / "link-example.yaml",
    "petstore": SHARED / "corpus" / "oai-examples" / "v3.0" / "petstore-expanded.json",
    "sonarr": SHARED / "corpus" / "sonarr" / "openapi.json",
}
TIMEOUT = 2.0
DEADLINE = 3 * TIMEOUT + 4
DEEP = 1200
DEEP_MARK = "\x00deep\x00"   # sent as DEEP nested arrays
HOSTILE: list[Any] = [
    "..", ".", "../..", "a/../b", "%2e%2e", "a/b", "?x=1#frag", "a;b=c", "a,b", "{x}", "~",
    "line\r\nX-Injected: 1", "nul\x00byte", "lone\ud800surrogate", "\udc00", "x" * 1_000_000,
    ["..", "."], {"..": ".."}, {"a;b": "c", "api_key": "attacker", "sid": "x"},
    {"theme; admin": "1", "x\r\ny": "z"}, 1e308, -1, True, None, "",
]
API_SHAPES = dict.fromkeys(SHAPES, 1.0) | {"ok": 3.0, "echo": 3.0, "drip": 0.3}


@dataclass
class Served:
    """One document's catalog, secrets and running server."""

    name: str
    spec: Path | None
    folder: Path
    secrets: dict[str, str] = field(default_factory=dict)   # env var -> value
    tools: dict[str, dict[str, Any]] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None
    answers: queue.Queue[dict[str, Any]] = field(default_factory=queue.Queue)

    def argv(self, base_url: str) -> list[str]:
        where = ([self.name] if self.spec is None else
                 ["--spec", str(self.spec), "--out", str(self.folder), "--name", self.name,
                  "--validation", "warn"])
        return [sys.executable, "-c", "from toolcat.cli import main; main()", "serve", *where,
                "-q", "--base-url", base_url, "--timeout", str(TIMEOUT)]


def prepare(name: str, spec: Path | None, work: Path) -> Served:
    folder = REPO / "generated" / name if spec is None else work / name
    if spec is not None:
        subprocess.run([sys.executable, "-c", "from toolcat.cli import main; main()",
                        "generate", "--spec", str(spec), "--out", str(folder), "--name", name,
                        "--validation", "warn", "-q"], check=True, capture_output=True,
                       cwd=REPO)
    catalog = json.loads((folder / "catalog.json").read_text())
    served = Served(name, spec, folder, tools={e["tool"]["name"]: e for e in catalog["tools"]})
    schemes = {s["id"]: s for e in catalog["tools"] for alt in e["binding"]["security"]
               for s in alt}
    for number, (scheme, info) in enumerate(sorted(schemes.items())):
        var = re.sub(r"[^A-Z0-9]", "_", f"TOOLCAT_{catalog['name']}_{scheme}".upper())
        basic = info.get("type") == "http" and info.get("scheme") == "basic"
        served.secrets[var] = (f"fzuser{number}:fzPassw0rd{number}Qx" if basic
                               else f"fzS3cret{number}+/Qx=")
    return served


def secret_forms(secrets: dict[str, str]) -> set[str]:
    forms: set[str] = set()
    for value in secrets.values():
        forms |= {value, quote(value, safe=""), base64.b64encode(value.encode()).decode()}
        if ":" in value:
            forms.add(value.split(":", 1)[1])
    return forms


def start(served: Served, base_url: str) -> None:
    env = {**os.environ, **served.secrets}
    process = subprocess.Popen(served.argv(base_url), cwd=REPO, env=env, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    served.process, served.answers = process, queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            try:
                served.answers.put(json.loads(line))
            except ValueError:
                served.answers.put({"unparsable": line[:200].decode("utf-8", "replace")})

    threading.Thread(target=read, daemon=True).start()
    send(served, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "fuzz", "version": "1"}}})
    if "result" not in wait(served, 0, 120):
        raise RuntimeError(f"{served.name}: toolcat serve did not initialize")
    send(served, {"jsonrpc": "2.0", "method": "notifications/initialized"})


def send(served: Served, message: dict[str, Any]) -> None:
    assert served.process is not None
    assert served.process.stdin is not None
    # json.dumps cannot nest DEEP levels: the marker is swapped for the nesting as text.
    text = json.dumps(message).replace(json.dumps(DEEP_MARK),
                                       "[" * DEEP + '"bottom"' + "]" * DEEP)
    served.process.stdin.write(text.encode() + b"\n")
    served.process.stdin.flush()


def wait(served: Served, request_id: int, seconds: float) -> dict[str, Any]:
    """The answer for `request_id` (older answers are dropped), or {} at the deadline."""
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            answer = served.answers.get(timeout=left)
        except queue.Empty:
            break
        if answer.get("id") == request_id or "unparsable" in answer:
            return answer
    return {}


def template(entry: dict[str, Any]) -> re.Pattern[str]:
    """The raw paths a call of `entry` may reach: the server URL's path, then the binding's
    template with every `{name}` one non-empty segment piece."""
    servers = entry["binding"].get("servers") or [{"url": "/"}]
    url = servers[0]["url"]
    for name, var in (servers[0].get("variables") or {}).items():
        url = url.replace("{" + name + "}", str(var["default"]))
    prefix = urlsplit(url).path.rstrip("/")
    pieces = re.split(r"(\{[^}]*\})", entry["binding"]["path"])
    body = "".join("[^/?#]+" if p.startswith("{") else re.escape(p) for p in pieces if p)
    return re.compile(re.escape(prefix) + body)


def outside(entry: dict[str, Any], method: str, target: str) -> str | None:
    path = target.split("?", 1)[0]
    if method != entry["binding"]["method"].upper():
        return f"{method} instead of {entry['binding']['method']}"
    if any(seg in (".", "..") for seg in path.split("/")):
        return f"dot segment in {path[:200]}"
    if not template(entry).fullmatch(path):
        return f"{path[:200]} is not {entry['binding']['path']}"
    return None


def arguments_for(rng: random.Random, entry: dict[str, Any]) -> dict[str, Any]:
    schema = entry["tool"]["inputSchema"]
    try:
        drawn = draw_arguments(schema, 3)
    except Exception:  # a schema hypothesis cannot draw: start from no arguments
        drawn = []
    arguments = dict(rng.choice(drawn)) if drawn else {}
    names = list(schema.get("properties", {}))
    if names and rng.random() < 0.6:
        located = entry["binding"]["arguments"]
        in_path = [n for n in names if (located.get(n) or {}).get("in") == "path"]
        name = rng.choice(in_path if in_path and rng.random() < 0.6 else names)
        choice = rng.randrange(len(HOSTILE) + 1)
        arguments[name] = DEEP_MARK if choice == len(HOSTILE) else HOSTILE[choice]
    return arguments


@dataclass
class Tally:
    cases: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)
    sent: int = 0
    shapes: Counter[str] = field(default_factory=Counter)


def run_case(served: Served, api: StubApi, rng: random.Random, number: int,
             tally: Tally, forms: set[str]) -> None:
    tool = rng.choice(sorted(served.tools))
    entry = served.tools[tool]
    arguments = arguments_for(rng, entry)
    answer = rng.choices(list(API_SHAPES), weights=list(API_SHAPES.values()))[0]
    api.answer = shape(answer, drip_seconds=0.25)
    tally.shapes[answer] += 1
    before = len(api.seen)
    label = f"case {number} {served.name}/{tool} api={answer}"
    send(served, {"jsonrpc": "2.0", "id": number, "method": "tools/call",
                  "params": {"name": tool, "arguments": arguments}})
    answer = wait(served, number, DEADLINE)
    assert served.process is not None
    if served.process.poll() is not None:
        tally.failures.append(("died", f"{label}: exit {served.process.returncode}"))
    elif not answer or "unparsable" in answer:
        tally.failures.append(("hang", f"{label}: no answer within {DEADLINE:g} s"
                               + (f" ({answer['unparsable']!r})" if answer else "")))
    for seen in api.seen[before:]:
        why = outside(entry, seen.method, seen.target)
        if why:
            tally.failures.append(("outside-template", f"{label}: {why}"))
    tally.sent += len(api.seen) - before
    text = json.dumps(answer, ensure_ascii=False)
    shown = sorted(f for f in forms if f in text)
    if shown:
        tally.failures.append(("secret-shown", f"{label}: {shown[0][:6]}... in the answer"))


def fuzz(cases: int, seed: int, documents: list[str]) -> Tally:
    rng = random.Random(seed)
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="fuzz-serve-") as work, StubApi() as api:
        served = [prepare(n, s, Path(work)) for n, s in DOCUMENTS.items()
                  if n in documents and (s is None or s.exists())]
        forms = secret_forms({k: v for s in served for k, v in s.secrets.items()})
        try:
            for s in served:
                start(s, api.url)
            for number in range(1, cases + 1):
                target = rng.choice(served)
                assert target.process is not None
                if target.process.poll() is not None:
                    start(target, api.url)
                run_case(target, api, rng, number, tally, forms)
                tally.cases += 1
        finally:
            for s in served:
                if s.process is not None:
                    s.process.kill()
                    s.process.wait()
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--documents", default=",".join(DOCUMENTS),
                        help=f"comma-separated, of: {', '.join(DOCUMENTS)}")
    parser.add_argument("--json", action="store_true", help="the summary as one JSON line")
    args = parser.parse_args()
    unknown = set(args.documents.split(",")) - set(DOCUMENTS)
    if unknown:
        parser.error(f"unknown documents {sorted(unknown)}")
    started = time.monotonic()
    tally = fuzz(args.cases, args.seed, args.documents.split(","))
    by_class = Counter(kind for kind, _ in tally.failures)
    shown: Counter[str] = Counter()
    for kind, line in tally.failures:
        shown[kind] += 1
        if shown[kind] <= 5:
            print(f"FAIL {kind}: {line}"[:400])
    failed_cases = len({line.split(":")[0] for _, line in tally.failures})
    by_shape = Counter(f"{kind} api={line.split(' api=')[1].split(':')[0]}"
                       for kind, line in tally.failures)
    summary = {"cases": tally.cases, "failures": failed_cases, "by_class": dict(by_class),
               "by_class_and_answer": dict(sorted(by_shape.items())),
               "api_requests": tally.sent, "shapes": dict(sorted(tally.shapes.items())),
               "seconds": round(time.monotonic() - started, 1)}
    print(json.dumps(summary, sort_keys=True) if args.json else
          f"{summary['cases']} cases, {failed_cases} failed {dict(by_class)}; by the API's "
          f"answer: {summary['by_class_and_answer']}; "
          f"{tally.sent} requests reached the API; {summary['seconds']} s")
    sys.exit(1 if tally.failures else 0)


if __name__ == "__main__":
    main()
