"""Responses the ORIGINAL document describes must pass the tool's outputSchema.

For every 2xx JSON response of the tool's operation (read from the document by this
module, not by toolcat): the spec's examples plus instances drawn with
hypothesis-jsonschema from its schema (3.0 keywords rewritten to JSON Schema here:
``nullable``, boolean ``exclusiveMinimum``/``Maximum``; ``writeOnly`` properties,
which a response SHOULD NOT carry, left out). An instance is kept only when it is
valid for that spec schema; it is then wrapped per ``binding.outputWrapper`` and
checked against ``outputSchema``. Single-file documents only (a reference into
another file is counted as skipped, never as a pass).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from .exceptions import response_pin
from .sample import MAX_UNROLLED, draw, fill_all

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def _text_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _text_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_text_keys(v) for v in value]
    return value


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    pass


_Loader.yaml_implicit_resolvers = {
    k: [(t, r) for t, r in v if t != "tag:yaml.org,2002:timestamp"]
    for k, v in yaml.SafeLoader.yaml_implicit_resolvers.items()}


def load(spec: Path) -> dict[str, Any]:
    text = spec.read_text(encoding="utf-8")
    if spec.suffix == ".json":
        return dict(json.loads(text))
    return dict(_text_keys(yaml.load(text, Loader=_Loader)))


# Maps whose keys are names, never keywords: Discord's User has a property called
# "discriminator", which must not be dropped with the keyword of that name.
NAME_MAPS = ("properties", "patternProperties", "definitions", "$defs", "dependentSchemas",
             "schemas")


def to_json_schema(node: Any, is_30: bool) -> Any:
    if isinstance(node, list):
        return [to_json_schema(v, is_30) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: ({n: to_json_schema(s, is_30) for n, s in v.items()}
               if k in NAME_MAPS and isinstance(v, dict) else to_json_schema(v, is_30))
           for k, v in node.items()
           if k not in ("discriminator", "xml", "example", "externalDocs")}
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(node.get(flag), bool):
            out.pop(flag)
            if node[flag] and bound in node:
                out[flag] = out.pop(bound)
    if node.get("nullable") is True:
        out.pop("nullable")
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        elif kind is None:
            out = {"anyOf": [out, {"type": "null"}]}
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    props = out.get("properties")
    if isinstance(props, dict):
        hidden = {k for k, v in node["properties"].items()
                  if isinstance(v, dict) and v.get("writeOnly") is True}
        out["properties"] = {k: v for k, v in props.items() if k not in hidden}
        if isinstance(out.get("required"), list):
            out["required"] = [r for r in out["required"] if r not in hidden]
    return out


@dataclass
class ResponseTally:
    instances: int = 0
    accepted: int = 0
    skipped: list[str] = field(default_factory=list)
    failures: list[tuple[str, Any, str]] = field(default_factory=list)
    # failures the document is at fault for, by class (exceptions.response_pin)
    pinned: list[tuple[str, Any, str]] = field(default_factory=list)


def _shapes(doc: dict[str, Any], method: str, template: str) -> list[tuple[Any, list[Any]]]:
    """(schema, examples) of every 2xx JSON response of one operation."""
    paths = doc.get("paths") or {}
    key = next((k for k in paths if k.split("#", 1)[0] == template
                and isinstance(paths[k], dict) and method in paths[k]), None)
    if key is None:
        return []
    op = paths[key][method]
    produces = op.get("produces") or doc.get("produces") or ["application/json"]
    out = []
    for code, ref in sorted((op.get("responses") or {}).items()):
        if not str(code).startswith("2"):
            continue
        resp = _deref(doc, ref)
        if "swagger" in doc:
            if "schema" in resp and any("json" in p for p in produces):
                out.append((resp["schema"], list((resp.get("examples") or {}).values())))
            continue
        for ctype, entry in (resp.get("content") or {}).items():
            kind = ctype.split(";")[0].strip().lower()
            if not (kind == "application/json" or kind.endswith("+json") or kind == "text/json"
                    or kind in ("*/*", "application/*")) or not isinstance(entry, dict):
                continue
            if "schema" not in entry:
                continue
            examples = [entry["example"]] if "example" in entry else []
            examples += [e["value"] for e in (entry.get("examples") or {}).values()
                         if isinstance(e, dict) and "value" in e]
            out.append((entry["schema"], examples))
    return out


def _deref(doc: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) \
            and node["$ref"].startswith("#/"):
        target: Any = doc
        for part in node["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def check(spec: Path, catalog: dict[str, Any], count: int = 3, seed_value: int = 5,
          tools: list[str] | None = None, max_size: int = MAX_UNROLLED) -> ResponseTally:
    """``max_size``: a response schema larger than this once unrolled is not drawn from
    (hypothesis-jsonschema takes tens of seconds on plex's 87 KB MediaContainer); its
    examples are still checked and the schema is counted in ``skipped``."""
    doc = load(spec)
    is_30 = "swagger" in doc or str(doc.get("openapi", "")).startswith("3.0")
    roots = {k: to_json_schema(doc[k], is_30) for k in ("components", "definitions") if k in doc}
    tally = ResponseTally()
    for entry in catalog["tools"]:
        name, binding = entry["tool"]["name"], entry["binding"]
        out_schema = entry["tool"].get("outputSchema")
        if out_schema is None or (tools is not None and name not in tools):
            continue
        checker = jsonschema.Draft202012Validator(out_schema)
        for raw, examples in _shapes(doc, binding["method"].lower(), binding["path"]):
            if "$ref" in json.dumps(raw) and "#/" not in json.dumps(raw):
                tally.skipped.append(f"{name}: a reference into another file")
                continue
            schema = {**to_json_schema(raw, is_30), **roots}
            spec_check = jsonschema.Draft202012Validator(schema)
            drawn = []
            # each variant on its own: the filled one (every property of every definition
            # required) is often undrawable where the plain one is not (Kubernetes'
            # recursive definitions); it must not take the plain draws with it
            for variant in (schema, fill_all(schema)):
                try:
                    drawn += draw(variant, count, seed_value, max_size)
                except Exception:   # counted as skipped (both failed), never as a pass
                    continue
            if not drawn:
                tally.skipped.append(f"{name}: no instance could be drawn")
            for instance in [*examples, *drawn]:
                if not spec_check.is_valid(instance):
                    continue
                wrapped = {binding["outputWrapper"]: instance} if binding["outputWrapper"] \
                    else instance
                tally.instances += 1
                error = next(iter(checker.iter_errors(wrapped)), None)
                pin = response_pin(_deref(doc, raw), instance) if error is not None else None
                if error is None:
                    tally.accepted += 1
                elif pin is not None:
                    tally.pinned.append((name, instance, pin[1]))
                else:
                    tally.failures.append((name, instance, error.message[:300]))
    return tally
