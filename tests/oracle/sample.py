"""Draw arguments from each tool's inputSchema, build the requests, let the oracle judge.

Arguments come from hypothesis-jsonschema with a fixed seed (derandomised, no example
database), plus a "full" variant of the schema in which every object's properties are
all required, so optional and nested fields are exercised too. A drawn sample that the
inputSchema itself rejects (hypothesis-jsonschema knows no 2020-12 keyword it does not
support) is dropped and counted, never judged.
"""

from __future__ import annotations

import json
import warnings
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jsonschema
import yaml
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from .client import judge
from .wire import build

# String formats hypothesis-jsonschema does not know, drawn as what they name (the
# judge checks them).
FORMATS = {"uuid": st.uuids().map(str)}


def base_path(spec: Path) -> str:
    """The first server's path (variables at their defaults); basePath for Swagger 2.0."""
    text = spec.read_text(encoding="utf-8")
    doc = json.loads(text) if spec.suffix == ".json" else yaml.load(text, Loader=yaml.CSafeLoader)
    if str(doc.get("swagger", "")).startswith("2"):
        return str(doc.get("basePath") or "").rstrip("/")
    return server_path(doc.get("servers") or [{"url": "/"}])


def server_path(servers: list[dict[str, Any]]) -> str:
    """The path of the first server, variables at their defaults."""
    url = str(servers[0].get("url", "/"))
    for name, var in (servers[0].get("variables") or {}).items():
        url = url.replace("{" + name + "}", str(var.get("default", "")))
    return urlsplit(url).path.rstrip("/")


# Standard base64 (RFC 4648 section 4, padded): what a `contentEncoding: base64` argument
# carries. The keyword is an annotation in 2020-12, so hypothesis-jsonschema draws any
# text, which the runtime rightly refuses ("not valid base64") before sending anything.
BASE64 = r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"


def base64_patterns(schema: Any) -> Any:
    """The schema with every base64 string drawn as base64 (a subset of its instances)."""
    if isinstance(schema, list):
        return [base64_patterns(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    out = {k: base64_patterns(v) for k, v in schema.items()}
    if schema.get("contentEncoding") == "base64" and "pattern" not in schema:
        out["pattern"] = BASE64
    return out


NAME_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas",
             "schemas")
VALUES = ("enum", "const", "default", "examples", "example")


def fill_all(schema: Any) -> Any:
    """The schema with every object's properties required and every list non-empty:
    its instances are the original's instances with optional and nested parts present."""
    if isinstance(schema, list):
        return [fill_all(s) for s in schema]
    if not isinstance(schema, dict):
        return schema
    # a map of names is walked by value (Kubernetes' List types have a property called
    # `items`, which is no array keyword); values (enum, default) are left as they are
    out = {k: ({n: fill_all(s) for n, s in v.items()} if k in NAME_MAPS and isinstance(v, dict)
               else v if k in VALUES else fill_all(v))
           for k, v in schema.items()}
    props = schema.get("properties")
    if isinstance(props, dict) and props:
        out["required"] = sorted(set(schema.get("required", [])) | set(props))
    if "items" in schema and "minItems" not in schema and schema.get("maxItems") != 0:
        out["minItems"] = 1
    return out


DEPTH = 3           # a recursive $defs entry is unrolled this deep, then cut
MAX_UNROLLED = 400_000


def unroll(schema: dict[str, Any], max_size: int = MAX_UNROLLED) -> dict[str, Any]:
    """``#/$defs/`` references inlined; a reference met again deeper than DEPTH becomes
    ``false``, so the result accepts a subset of the original's instances (an optional
    recursive field left out, a recursive list empty). hypothesis-jsonschema cannot
    draw from recursive references; it can from this. When the result is larger than
    ``max_size`` characters (Kubernetes' pod templates: every container field, inlined
    in each of a dozen places), optional properties are left out below a nesting level,
    the deepest first, until it fits: still a subset, with every required part drawn."""
    for keep in PRUNE_LEVELS:
        out = _unrolled(schema, keep)
        if len(json.dumps(out)) <= max_size:
            return out
    raise ValueError("schema too large once unrolled, even with optional parts cut")


PRUNE_LEVELS = (None, 6, 5, 4, 3, 2, 1)   # properties levels whose optional members stay


def _unrolled(schema: dict[str, Any], keep: int | None) -> dict[str, Any]:
    defs = schema.get("$defs") or {}

    def walk(node: Any, seen: tuple[str, ...], level: int) -> Any:
        if isinstance(node, list):
            return [walk(v, seen, level) for v in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            name = ref[len("#/$defs/"):].replace("~1", "/").replace("~0", "~")
            if seen.count(name) >= DEPTH or name not in defs:
                return False
            rest = {k: walk(v, seen, level) for k, v in node.items() if k != "$ref"}
            target = walk(defs[name], (*seen, name), level)
            return {"allOf": [target, rest]} if rest else target
        out = {}
        for k, v in node.items():
            if k == "$defs":
                continue
            if k == "properties" and isinstance(v, dict):
                required = set(node.get("required") or ())
                cut = keep is not None and level >= keep
                out[k] = {p: False if cut and p not in required else walk(s, seen, level + 1)
                          for p, s in v.items()}
            else:
                out[k] = walk(v, seen, level)
        return out

    return dict(walk(schema, (), 0))


def draw(schema: dict[str, Any], count: int, seed_value: int,
         max_size: int = MAX_UNROLLED) -> list[Any]:
    """``count`` instances (fewer when duplicates); raises when nothing can be drawn
    (or the schema, unrolled, is larger than ``max_size`` characters)."""
    found: list[Any] = []
    if "$defs" in schema:
        schema = unroll(schema, max_size)

    @seed(seed_value)
    @settings(max_examples=count, derandomize=True, database=None, deadline=None,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(from_schema(schema, custom_formats=FORMATS))
    def collect(value: Any) -> None:
        found.append(value)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        collect()
    return found


@dataclass
class Tally:
    requests: int = 0
    accepted: int = 0
    unserialisable: int = 0
    undrawable: list[str] = field(default_factory=list)   # tools with no drawable sample
    invalid_draws: int = 0
    failures: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    classes: Counter[str] = field(default_factory=Counter)

    def count(self, judged: list[tuple[str, dict[str, Any], dict[str, Any]]],
              verdicts: list[dict[str, Any]]) -> None:
        """Add the oracle's verdicts on ``judged`` (tool, arguments, request)."""
        for (name, args, req), verdict in zip(judged, verdicts, strict=True):
            self.requests += 1
            if verdict["ok"]:
                self.accepted += 1
            elif verdict["class"] == "unserialisable":
                self.unserialisable += 1
            else:
                self.classes[verdict["class"]] += 1
                self.failures.append((name, args, {**verdict, "request": req}))


def arguments_for(entry: dict[str, Any], count: int, seed_value: int,
                  tally: Tally) -> list[dict[str, Any]]:
    schema = entry["tool"]["inputSchema"]
    validator = jsonschema.Draft202012Validator(
        schema, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    samples: list[Any] = []
    drawable = base64_patterns(schema)
    for variant in (drawable, fill_all(drawable)):
        try:
            samples += draw(variant, count, seed_value)
        except Exception:   # an undrawable schema is counted (undrawable), never judged
            continue
    seen: set[str] = set()
    out = []
    for s in samples:
        key = json.dumps(s, sort_keys=True)
        if key in seen:
            continue
        seen.add(key)
        if not validator.is_valid(s):
            tally.invalid_draws += 1
            continue
        out.append(s)
    if not out:
        tally.undrawable.append(entry["tool"]["name"])
    return out


def run(spec: Path, catalog: dict[str, Any], count: int = 4, seed_value: int = 11,
        tools: list[str] | None = None) -> Tally:
    """Judge ``count`` draws per schema variant for every tool (or those named)."""
    tally = Tally()
    base = base_path(spec)
    requests: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    for entry in catalog["tools"]:
        name = entry["tool"]["name"]
        if tools is not None and name not in tools:
            continue
        # the binding's servers (the operation's own, where it has them: plex's plex.tv
        # operations), else the document's first
        servers = entry["binding"].get("servers")
        where = server_path(servers) if servers else base
        for args in arguments_for(entry, count, seed_value, tally):
            requests.append((name, args, build(entry, args, where)))
    tally.count(requests, judge(spec, [r for _, _, r in requests]))
    return tally
