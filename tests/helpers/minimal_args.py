"""Cheap valid arguments for a tool: its required arguments at their smallest, checked
against the inputSchema; hypothesis (helpers/draw.py) only where that fails. Drawing every
tool of a 1,500-tool catalog with hypothesis alone takes many minutes."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from .draw import draw_arguments

FORMATS = {"uuid": "00000000-0000-4000-8000-000000000000", "date": "2020-01-01",
           "date-time": "2020-01-01T00:00:00Z", "email": "a@example.com",
           "uri": "https://example.com/", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
           "hostname": "example.com"}


def _merged(schema: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in schema.items() if k != "allOf"}
    for branch in schema.get("allOf", []):
        part = _resolved(branch, defs)
        if isinstance(part, dict):
            for key, value in _merged(part, defs).items():
                if key == "properties":
                    out["properties"] = {**out.get("properties", {}), **value}
                elif key == "required":
                    out["required"] = [*out.get("required", []), *value]
                else:
                    out.setdefault(key, value)
    return out


def _resolved(schema: Any, defs: dict[str, Any]) -> Any:
    while isinstance(schema, dict) and str(schema.get("$ref", "")).startswith("#/$defs/"):
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**defs[schema["$ref"][len("#/$defs/"):]], **rest}
    return schema


def _number(schema: dict[str, Any]) -> int | float:
    if "minimum" in schema:
        return schema["minimum"]  # type: ignore[no-any-return]
    if "exclusiveMinimum" in schema:
        return schema["exclusiveMinimum"] + 1  # type: ignore[no-any-return]
    return 1 if schema.get("maximum", 1) >= 1 else schema["maximum"]  # type: ignore[no-any-return]


def minimal(schema: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    schema = _resolved(schema, defs)
    if not isinstance(schema, dict) or depth > 12:
        return None
    schema = _merged(schema, defs)
    for key in ("const", "default"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return minimal(schema[key][0], defs, depth + 1)
    kind = schema.get("type", "object" if "properties" in schema else "string")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        props = schema.get("properties", {})
        return {n: minimal(props.get(n, {}), defs, depth + 1) for n in schema.get("required", [])}
    if kind == "array":
        return [minimal(schema.get("items", {}), defs, depth + 1)] * schema.get("minItems", 0)
    if kind in ("integer", "number"):
        return _number(schema)
    if kind == "boolean":
        return True
    if kind == "null":
        return None
    return FORMATS.get(schema.get("format", ""), "x" * max(1, schema.get("minLength", 1)))


def cheap_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments valid against `schema`: the minimal ones, else one hypothesis draw."""
    arguments = minimal(schema, schema.get("$defs", {}))
    checker = Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)
    if isinstance(arguments, dict) and checker.is_valid(arguments):
        return arguments
    return draw_arguments(schema, 1)[0]
