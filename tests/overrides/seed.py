"""A fixture that reproduces the seed's two incidents, and a parity check.

Incident 1: a full-replace channel update whose request has one field more
(graphicsElementIds) than the create request. Incident 2: padToNearestMinute,
carried by both schedule requests. The parity check compares tools with the
spec field by field, names and types, like the seed's guard does.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from toolcat.config import Target
from toolcat.pipeline import build_catalog
from toolcat.render.catalog import catalog_data

CHANNEL_FIELDS = {
    "name": {"type": "string"},
    "number": {"type": "string"},
    "streamingMode": {"$ref": "#/components/schemas/StreamingMode"},
    "watermarkId": {"type": ["integer", "null"]},
}
SCHEDULE_FIELDS = {
    "name": {"type": "string"},
    "padToNearestMinute": {"type": ["integer", "null"]},
    "shuffleScheduleItems": {"type": "boolean"},
}


def _body(schema: str) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def _ok() -> dict[str, Any]:
    return {"200": {"description": "ok", "content": {"application/json": {
        "schema": {"type": "object", "properties": {"id": {"type": "integer"}}}}}}}


def _id(name: str) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "schema": {"type": "integer"}}


def seed_spec() -> dict[str, Any]:
    if_match = {"name": "If-Match", "in": "header", "schema": {"type": "string"}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Seed incidents", "version": "1"},
        "paths": {
            "/channels": {"post": {"operationId": "createChannel", "requestBody": _body(
                "CreateChannelRequest"), "responses": _ok()}},
            "/channels/{id}": {"put": {"operationId": "updateChannel",
                                       "parameters": [_id("id"), if_match],
                                       "requestBody": _body("UpdateChannelRequest"),
                                       "responses": _ok()}},
            "/schedules": {"post": {"operationId": "createSchedule", "requestBody": _body(
                "CreateScheduleRequest"), "responses": _ok()}},
            "/schedules/{id}": {"put": {"operationId": "updateSchedule",
                                        "parameters": [_id("id")],
                                        "requestBody": _body("UpdateScheduleRequest"),
                                        "responses": _ok()}},
        },
        "components": {"schemas": {
            "StreamingMode": {"enum": ["TransportStream", "HttpLiveStreaming"]},
            "CreateChannelRequest": {"type": "object", "properties": copy.deepcopy(
                CHANNEL_FIELDS), "required": ["name", "number"]},
            "UpdateChannelRequest": {"type": "object", "properties": {
                **copy.deepcopy(CHANNEL_FIELDS),
                "graphicsElementIds": {"type": "array", "items": {"type": "integer"}}},
                "required": ["name", "number"]},
            "CreateScheduleRequest": {"type": "object",
                                      "properties": copy.deepcopy(SCHEDULE_FIELDS)},
            "UpdateScheduleRequest": {"type": "object",
                                      "properties": copy.deepcopy(SCHEDULE_FIELDS)},
        }},
    }


SEED_OVERRIDES = """\
operations:
  updateChannel:
    semantics: full-replace
    require_all_body_fields: true
    if_match: required
    arguments:
      id: {rename: channelId}
  updateSchedule:
    semantics: full-replace
    require_all_body_fields: true
    if_match: optional
    arguments:
      id: {rename: scheduleId}
"""


def generate(tmp: Path, spec: dict[str, Any], overrides: str | None) -> dict[str, Any]:
    """Generate in memory; return catalog.json's data."""
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "v1.json").write_text(json.dumps(spec))
    over = None
    if overrides is not None:
        over = tmp / "overrides.yaml"
        over.write_text(overrides)
    target = Target(name="seed", spec=tmp / "v1.json", spec_label="v1.json",
                    output=tmp / "out", prefix="seed_", overrides=over)
    return catalog_data(build_catalog(target))


def tools_by_name(catalog: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["tool"]["name"]: e for e in catalog["tools"]}


def _kind(schema: dict[str, Any], spec: dict[str, Any]) -> str:
    """The seed's ceiling: string/integer/number/boolean/object/array<T>, plus null."""
    if "$ref" in schema:
        target = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
        if "enum" in target:
            found = {type(v).__name__ for v in target["enum"]}
            if found != {"str"}:
                raise AssertionError(f"enum shape not taught: {target}")
            return "string"
        return "object"
    kind = schema.get("type")
    types = kind if isinstance(kind, list) else [kind]
    non_null = [t for t in types if t != "null"]
    if len(non_null) != 1 or non_null[0] is None:
        raise AssertionError(f"type shape not taught: {schema}")
    suffix = "?" if "null" in types else ""
    if non_null[0] == "array":
        return f"array<{_kind(schema['items'], spec)}>{suffix}"
    return non_null[0] + suffix


def _catalog_kind(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    if "$ref" in schema:
        target = defs[schema["$ref"].rsplit("/", 1)[1]]
        return _catalog_kind({**target, **{k: v for k, v in schema.items() if k != "$ref"}},
                             defs)
    if "enum" in schema and schema.get("type") == "string":
        return "string"
    kind = schema.get("type")
    types = kind if isinstance(kind, list) else [kind]
    non_null = [t for t in types if t != "null"]
    suffix = "?" if "null" in types else ""
    if non_null == ["array"]:
        return f"array<{_catalog_kind(schema['items'], defs)}>{suffix}"
    if len(non_null) != 1:
        raise AssertionError(f"catalog type shape not taught: {schema}")
    return non_null[0] + suffix


def body_parity(spec: dict[str, Any], catalog: dict[str, Any],
                tool_for: dict[str, str]) -> list[str]:
    """Every body field of each operation on its tool with the same type, and no more.

    ``tool_for`` maps operationId -> tool name. Returns every mismatch, naming the
    tool and the field, so one run reports the whole drift set.
    """
    tools = tools_by_name(catalog)
    problems: list[str] = []
    for path_item in spec["paths"].values():
        for op in path_item.values():
            name = tool_for[op["operationId"]]
            if name not in tools:
                problems.append(f"{name}: tool missing")
                continue
            entry = tools[name]
            schema = entry["tool"]["inputSchema"]
            defs = schema.get("$defs", {})
            ref = op["requestBody"]["content"]["application/json"]["schema"]["$ref"]
            fields = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]
            body_args = {b["name"]: arg for arg, b in entry["binding"]["arguments"].items()
                         if b["in"] == "body"}
            for field, fschema in fields.items():
                if field not in body_args:
                    problems.append(f"{name}: body field '{field}' is not an argument")
                    continue
                want = _kind(fschema, spec)
                have = _catalog_kind(schema["properties"][body_args[field]], defs)
                if want != have:
                    problems.append(f"{name}: field '{field}' is {have}, spec says {want}")
            problems += [f"{name}: argument for '{f}' is not in the spec"
                         for f in sorted(set(body_args) - set(fields))]
    return problems
