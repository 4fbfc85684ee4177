"""Fuzz `toolcat generate` with mutated real specs: every run must end well.

    .venv/bin/python scripts/fuzz.py [--cases 1000] [--seed 1] [--timeout 60] [--json]
        [--modes strict,warn]

Seeds are real documents (the committed example, ErsatzTV, the small corpus
specs); each case applies one to three random mutations (a member deleted, a
value of the wrong type, a broken or escaping ``$ref``, an odd version, deep
nesting, an alias bomb, truncated or flipped bytes...) and writes the result as
JSON or YAML. Each case runs in both validation modes (``--validation strict``, which
the validator guards, and ``--validation warn``, where toolcat's own readers meet every
broken shape), each run the CLI in a forked child (so a crash is a signal
the parent sees, and a hang is killed at ``--timeout``), and must:

* exit 0 or 2, never a signal, a hang, or an exception other than ToolcatError
  (the CLI would print "internal error");
* on exit 2, name a file and a location (a JSON pointer or ``line N``) in every
  problem;
* on exit 0, write a catalog whose every tool schema passes the JSON Schema 2020-12
  meta-schema and whose ``$ref``s resolve inside the schema.

Prints one line per failure and a summary (counts, timings: median and slowest);
exits 1 when any case failed. The cases depend only on ``--seed``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pickle
import random
import select
import signal
import statistics
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SEEDS = [
    REPO / "specs" / "broadcast" / "v1.json",
    SHARED / "specs" / "ersatztv" / "v1.json",
    SHARED / "specs" / "ersatztv" / "v1-453737a5.json",
    SHARED / "specs" / "ersatztv" / "scripted-schedule.json",
    *(SHARED / "corpus" / p for p in (
        "oai-examples/v3.0/petstore.yaml", "oai-examples/v3.0/petstore-expanded.json",
        "oai-examples/v3.0/uspto.json", "oai-examples/v3.0/link-example.yaml",
        "oai-examples/v3.0/callback-example.yaml", "oai-examples/v3.1/tictactoe.json",
        "oai-examples/v3.1/webhook-example.yaml", "museum/openapi.yaml",
        "train-travel/openapi.yaml", "swagger-petstore/master/src/main/resources/openapi.yaml",
        "swagger-petstore/v31/src/main/webapp/design-first/petstore.yaml")),
]
LOCATED_PREFIXES = ("/", "line ")
# Lines that sum up a list of validator problems (findings.py), not problems themselves.
SUMMARIES = ("refused: ", "and ")
MODES = ("strict", "warn")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--modes", default=",".join(MODES),
                        help="validation modes each case runs in (default: both)")
    args = parser.parse_args()
    modes = [m for m in args.modes.split(",") if m]
    if not modes or set(modes) - set(MODES):
        parser.error(f"--modes: a comma-separated list of {', '.join(MODES)}")
    os.environ["TOOLCAT_CACHE"] = "off"  # each case must be judged on its own
    os.environ.pop("TOOLCAT_DEBUG", None)
    seeds = [(p, p.read_bytes()) for p in SEEDS if p.is_file()]
    if not seeds:
        print(f"no seed documents found under {SHARED} or {REPO / 'specs'}", file=sys.stderr)
        return 2
    import yaml  # noqa: PLC0415 - after argument parsing, like the rest of the heavy imports
    from toolcat.parse.reader import parse_bytes  # noqa: PLC0415

    parsed = [(p, parse_bytes(raw, p)) for p, raw in seeds]
    rng = random.Random(args.seed)
    results = []
    with tempfile.TemporaryDirectory(prefix="toolcat-fuzz-") as tmp:
        # One ordinary run first, so every lazy import happens once, here, and each
        # forked case starts warm (1.8 s a case otherwise, mostly imports).
        with contextlib.redirect_stdout(io.StringIO()):
            _in_child(seeds[0][0], Path(tmp) / "warm-up", "strict")
        for number in range(args.cases):
            name, data = _case(rng, parsed, yaml)
            folder = Path(tmp) / f"case{number}"
            folder.mkdir()
            spec = folder / name
            spec.write_bytes(data)
            for mode in modes:
                out = folder / f"out-{mode}"
                result = _run(spec, out, mode, args.timeout)
                result.update(case=number, mode=mode, failure=_judge(result, out))
                if result["failure"]:
                    print(f"case {number} ({name}, seed {args.seed}, {mode}): "
                          f"{result['failure']}", flush=True)
                results.append(result)
    summary = _summary(results, args)
    print(json.dumps(summary) if args.json else _table(summary))
    return 1 if summary["failures"] else 0


# -- making a case ------------------------------------------------------------------
def _case(rng: random.Random, parsed: list[tuple[Path, Any]], yaml: Any) -> tuple[str, bytes]:
    _, document = rng.choice(parsed)
    document = json.loads(json.dumps(document))  # a private copy
    for _ in range(rng.randint(1, 3)):
        document = _mutate(rng, document)
    if rng.random() < 0.5:
        data = json.dumps(document).encode()
        name = "spec.json"
    else:
        data = yaml.safe_dump(document, sort_keys=False, allow_unicode=True).encode()
        name = "spec.yaml"
    if rng.random() < 0.15:
        data = _raw(rng, data)
    if rng.random() < 0.05:
        data, name = _raw_hostile(rng), "spec.yaml"
    return name, data


def _nodes(node: Any, out: list[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """(container, key) of every member, in document order."""
    if isinstance(node, dict):
        for key, value in node.items():
            out.append((node, key))
            _nodes(value, out)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.append((node, i))
            _nodes(value, out)
    return out


def _odd_value(rng: random.Random) -> Any:
    return rng.choice([None, True, False, 0, -1, 5, 1.5, 2**64 + 1, "", "x", "#", [], {},
                       [1, "a"], {"type": 5}, {"$ref": "#"}, {"$ref": "#/nope"},
                       {"$ref": "../outside.json"}, {"$ref": "http://127.0.0.1:9/x"},
                       "\u202e\x00", "a" * 300, {"allOf": [{"type": "string"}, {}]},
                       {"enum": list(range(50))}, {"type": ["string", "null"]}])


def _mutate(rng: random.Random, document: Any) -> Any:
    members = _nodes(document, [])
    if not members:
        return document
    container, key = rng.choice(members)
    kind = rng.randrange(9)
    if kind == 0 and isinstance(container, dict):
        del container[key]
    elif kind == 1:
        container[key] = _odd_value(rng)
    elif kind == 2:  # a $ref pointing at another member, or nowhere
        refs = [f"#{_pointer(document, c, k)}" for c, k in rng.sample(members, min(5, len(
            members)))]
        container[key] = {"$ref": rng.choice([*refs, "#", "#/", "#/components/schemas",
                                              "other.yaml#/x", "../../etc/passwd"])}
    elif kind == 3 and isinstance(document, dict):
        document[rng.choice(["openapi", "swagger"])] = rng.choice(
            ["3.0.0", "3.1.0", "2.0", "4.0.0", "3", 3.1, None, "3.2.0"])
    elif kind == 4:  # nesting
        value: Any = container[key]
        for _ in range(rng.choice([5, 50, 140])):
            value = rng.choice([[value], {"a": value}, {"allOf": [value]}])
        container[key] = value
    elif kind == 5:  # duplicate a subtree somewhere else (shared shapes)
        other, other_key = rng.choice(members)
        other[other_key] = json.loads(json.dumps(container[key]))
    elif kind == 6 and isinstance(container, dict):  # rename a key
        container[rng.choice(["", "~1", "$ref", "x-", "200", "a/b", "\u00e9", "on"])] = (
            container.pop(key))
    elif kind == 7:
        container[key] = rng.choice(["", "{", "}", "[", "*a", "&a", "!!python/object", "%"])
    else:
        container[key] = {"type": "object", "properties": {"p": container[key]}}
    return document


def _pointer(document: Any, container: Any, key: Any) -> str:
    """The pointer of container[key] (found by identity; small documents only)."""
    def walk(node: Any, at: str) -> str | None:
        if node is container:
            return f"{at}/{str(key).replace('~', '~0').replace('/', '~1')}"
        children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(
            node, list) else ()
        for k, v in children:
            found = walk(v, f"{at}/{str(k).replace('~', '~0').replace('/', '~1')}")
            if found is not None:
                return found
        return None
    return walk(document, "") or ""


def _raw(rng: random.Random, data: bytes) -> bytes:
    where = rng.randrange(max(len(data), 1))
    choice = rng.randrange(3)
    if choice == 0:
        return data[:where]
    if choice == 1:
        return data[:where] + bytes([rng.randrange(256)]) + data[where + 1:]
    return data[:where] + rng.choice([b"\t", b"\x00", b": :", b"&a ", b"*a", b"\xff\xfe",
                                      b"\n- ", b"{", b"]"]) + data[where:]


def _raw_hostile(rng: random.Random) -> bytes:
    head = b'openapi: 3.0.0\ninfo: {title: t, version: "1"}\npaths: {}\nx-h: '
    choice = rng.randrange(3)
    if choice == 0:
        return head + b"[" * 30000 + b"]" * 30000 + b"\n"
    if choice == 1:
        text = b"\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
        for i in range(1, 10):
            text += b"  a%d: &a%d [%s]\n" % (i, i, b", ".join([b"*a%d" % (i - 1)] * 9))
        return head + text
    return head + b"&a [1, *a]\n"


# -- running and judging a case -----------------------------------------------------
def _run(spec: Path, out: Path, mode: str, timeout: float) -> dict[str, Any]:
    """Run generate in a forked child; report how it ended."""
    read_end, write_end = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(read_end)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)  # the CLI's "N tools -> out" lines
        os.setpgid(0, 0)  # its own group: a timeout kills the validator it forks too
        outcome = _in_child(spec, out, mode)
        with os.fdopen(write_end, "wb") as pipe:
            pipe.write(pickle.dumps(outcome))
        os._exit(0)
    os.close(write_end)
    chunks = []
    deadline = start + timeout
    with os.fdopen(read_end, "rb") as pipe:
        while True:
            left = deadline - time.perf_counter()
            ready, _, _ = select.select([pipe], [], [], max(left, 0))
            if not ready:
                _kill(pid)
                return {"end": "hang", "seconds": timeout}
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    seconds = time.perf_counter() - start
    if os.WIFSIGNALED(status):
        return {"end": "signal", "signal": os.WTERMSIG(status), "seconds": seconds}
    outcome: dict[str, Any] = pickle.loads(b"".join(chunks)) if chunks else {"end": "died"}
    outcome["seconds"] = seconds
    return outcome


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    os.waitpid(pid, 0)


def _in_child(spec: Path, out: Path, mode: str) -> dict[str, Any]:
    from toolcat.cli import cli  # noqa: PLC0415
    from toolcat.errors import ToolcatError  # noqa: PLC0415

    try:
        with contextlib.redirect_stderr(io.StringIO()):  # warn mode's warnings
            cli.main(["generate", "--spec", str(spec), "--out", str(out), "--validation",
                      mode], standalone_mode=False)
    except ToolcatError as exc:
        return {"end": "exit 2", "problems": [(p.file, p.location, p.message)
                                              for p in exc.problems]}
    except BaseException as exc:  # what the CLI would call an internal error
        frames = traceback.extract_tb(exc.__traceback__)[-3:]  # where it broke, for the fix
        where = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in reversed(frames))
        return {"end": "exception", "error": f"{repr(exc)[:300]} at {where}"}
    return {"end": "exit 0"}


def _judge(result: dict[str, Any], out: Path) -> str:
    end = result["end"]
    if end == "exit 2":
        for file, location, message in result["problems"]:
            if not location and message.startswith(SUMMARIES):
                continue  # strict mode's closing count and setting, after located problems
            if not file or not location.startswith(LOCATED_PREFIXES):
                return f"unlocated refusal: {file!r} {location!r} {message[:200]!r}"
        return ""
    if end == "exit 0":
        return _meta_problem(out)
    return f"{end}: {result.get('error') or result.get('signal') or ''}"


def _meta_problem(out: Path) -> str:
    import jsonschema  # noqa: PLC0415
    import jsonschema_rs  # noqa: PLC0415

    catalog = json.loads((out / "catalog.json").read_bytes())
    for entry in catalog["tools"]:
        tool = entry["tool"]
        for key in ("inputSchema", "outputSchema"):
            if key not in tool:
                continue
            try:
                jsonschema.Draft202012Validator.check_schema(tool[key])
                jsonschema_rs.validator_for(tool[key])
            except Exception as exc:  # any way of being invalid
                return f"{tool['name']}.{key} is not a valid 2020-12 schema: {exc!s:.200}"
    return ""


def _summary(results: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    """Counts per validation mode (each case runs once in each), then timings."""
    modes: dict[str, dict[str, Any]] = {}
    for r in results:
        mode = modes.setdefault(r["mode"], {"ends": {}, "failures": 0})
        mode["ends"][r["end"]] = mode["ends"].get(r["end"], 0) + 1
        mode["failures"] += bool(r["failure"])
    for mode in modes.values():
        mode["ends"] = dict(sorted(mode["ends"].items()))
    seconds = [r["seconds"] for r in results]
    slowest = max(results, key=lambda r: r["seconds"]) if results else {}
    return {"cases": len({r["case"] for r in results}), "seed": args.seed,
            "modes": modes, "failures": sum(1 for r in results if r["failure"]),
            "median_s": round(statistics.median(seconds), 3) if seconds else 0,
            "slowest_s": round(slowest.get("seconds", 0), 3),
            "slowest_case": f"{slowest.get('case')} ({slowest.get('mode')})"}


def _table(summary: dict[str, Any]) -> str:
    return "\n".join(f"{key}: {value}" for key, value in summary.items())


if __name__ == "__main__":
    sys.exit(main())
