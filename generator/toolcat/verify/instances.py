"""A small deterministic instance generator: arguments that a tool's inputSchema accepts.

Used at run time by ``--call-readonly`` and ``--probe`` (hypothesis is a test-only
dependency, and a verify run must send the same arguments every time). It fills
required properties only, picks the first enum value, the lowest value a bound
allows, the first ``anyOf`` member that works, and one array item. What it
cannot satisfy (an unmatched ``pattern``, contradictory bounds) raises
``Unsatisfiable`` with the reason, and every instance is checked against the
schema before it is used, so a wrong guess is reported, never sent.
"""

from __future__ import annotations

from typing import Any

from ..vocab.ecma import EcmaPatternError, ECMAValidator, search
from .resolution import deref, resolve_pointer

_FORMATS = {
    "date-time": "2026-01-01T00:00:00Z", "date": "2026-01-01", "time": "00:00:00Z",
    "uuid": "00000000-0000-4000-8000-000000000000", "email": "verify@example.com",
    "uri": "https://example.com/", "hostname": "example.com", "ipv4": "127.0.0.1",
    "duration": "PT1M",
}
_PATTERN_CANDIDATES = ("a", "A", "1", "a1", "aa", "2026-01-01", "00:00:00", "x-1", "AAA")
_WRONG = {"string": 12345, "integer": "not-an-integer", "number": "not-a-number",
          "boolean": "not-a-boolean", "array": "not-an-array", "object": "not-an-object"}


class Unsatisfiable(Exception):
    """The generator cannot build an instance; the message says why."""


def instance(schema: dict[str, Any]) -> dict[str, Any]:
    """Arguments valid against ``schema`` (an inputSchema with an object root)."""
    value = _value(schema, schema, 0)
    problems = invalid(schema, value)
    if problems:
        raise Unsatisfiable(f"generated arguments do not validate: {problems[0]}")
    if not isinstance(value, dict):
        raise Unsatisfiable("the inputSchema root is not an object")
    return value


def wrong_value(type_name: str) -> Any:
    """A value of another JSON type than ``type_name`` (a label from resolution.py)."""
    base = type_name.split("|", maxsplit=1)[0]
    base = "array" if base.startswith("array<") else base
    if base not in _WRONG:
        raise Unsatisfiable(f"no wrong value for type {type_name}")
    return _WRONG[base]


def invalid(schema: dict[str, Any], value: Any) -> list[str]:
    """Why ``value`` fails ``schema`` (JSON Schema 2020-12), sorted; [] when valid."""
    validator = ECMAValidator(schema)   # ECMA-262 patterns, as the schema means them
    return sorted(f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
                  for e in validator.iter_errors(value))


def _value(schema: Any, root: dict[str, Any], depth: int) -> Any:
    if depth > 24:
        raise Unsatisfiable("the schema nests too deeply")
    if schema is True or schema == {}:
        return "a"
    if not isinstance(schema, dict):
        raise Unsatisfiable(f"not a schema: {schema!r}")
    if isinstance(schema.get("$ref"), str):
        target = resolve_pointer(root, schema["$ref"])
        if target is None:
            raise Unsatisfiable(f"$ref {schema['$ref']} does not resolve inside the schema")
        return _value(target, root, depth + 1)
    if "const" in schema:
        return schema["const"]
    if isinstance(schema.get("enum"), list) and schema["enum"]:
        return next((v for v in schema["enum"] if v is not None), schema["enum"][0])
    for key in ("anyOf", "oneOf"):
        if schema.get(key):
            return _first_member(schema[key], root, depth)
    if schema.get("allOf"):
        merged = _merge([schema], root)
        return _value(merged, root, depth + 1)
    return _typed(schema, _type(schema), root, depth)


def _first_member(members: list[Any], root: dict[str, Any], depth: int) -> Any:
    reasons = []
    for member in members:
        if isinstance(member, dict) and member.get("type") == "null":
            continue
        try:
            return _value(member, root, depth + 1)
        except Unsatisfiable as exc:
            reasons.append(str(exc))
    if any(isinstance(m, dict) and m.get("type") == "null" for m in members):
        return None
    raise Unsatisfiable("no member of anyOf/oneOf can be built: " + "; ".join(reasons))


def _merge(schemas: list[Any], root: dict[str, Any], depth: int = 0) -> dict[str, Any]:
    """allOf as one schema: properties and required united, first word wins elsewhere."""
    merged: dict[str, Any] = {"properties": {}, "required": []}
    for given in schemas:
        part = deref(given, root)
        if not isinstance(part, dict) or depth > 24:
            continue
        if part.get("allOf"):
            rest = {k: v for k, v in part.items() if k != "allOf"}
            part = _merge([rest, *part["allOf"]], root, depth + 1)
        for key, val in part.items():
            if key == "properties":
                merged["properties"].update(val)
            elif key == "required":
                merged["required"] += [r for r in val if r not in merged["required"]]
            else:
                merged.setdefault(key, val)
    return merged


def _type(schema: dict[str, Any]) -> str:
    declared = schema.get("type")
    if isinstance(declared, list):
        declared = next((t for t in declared if t != "null"), "null")
    if isinstance(declared, str):
        return declared
    if "properties" in schema:
        return "object"
    return "array" if "items" in schema else "string"


def _typed(schema: dict[str, Any], kind: str, root: dict[str, Any], depth: int) -> Any:
    if kind == "object":
        props = schema.get("properties") or {}
        return {name: _value(props.get(name, {}), root, depth + 1)
                for name in sorted(schema.get("required") or [])}
    if kind == "array":
        count = max(schema.get("minItems", 1), 1) if schema.get("maxItems", 1) > 0 else 0
        if count > 1 and schema.get("uniqueItems"):
            raise Unsatisfiable("uniqueItems with minItems > 1 is beyond this generator")
        return [_value(schema.get("items", {}), root, depth + 1)] * count
    if kind in ("integer", "number"):
        return _number(schema, kind)
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if kind == "string":
        return _string(schema)
    raise Unsatisfiable(f"unknown type {kind!r}")


def _number(schema: dict[str, Any], kind: str) -> int | float:
    """1 when the bounds allow it (a safe id, page size or count), else the nearest bound."""
    low = schema.get("minimum", schema.get("exclusiveMinimum", -1e308) + 1)
    high = schema.get("maximum", schema.get("exclusiveMaximum", 1e308) - 1)
    value = min(max(1, low), high)
    step = schema.get("multipleOf")
    if step:
        value = step * -(-value // step)
    return int(value) if kind == "integer" else value


def _string(schema: dict[str, Any]) -> str:
    if schema.get("format") in _FORMATS:
        return _FORMATS[schema["format"]]
    length = max(int(schema.get("minLength", 1)), 1)
    if "pattern" in schema:
        for candidate in _PATTERN_CANDIDATES:
            try:
                if search(schema["pattern"], candidate):
                    return candidate
            except EcmaPatternError as exc:
                raise Unsatisfiable(f"pattern {schema['pattern']!r}: {exc}") from exc
        raise Unsatisfiable(f"no built-in string matches pattern {schema['pattern']!r}")
    return "a" * length
