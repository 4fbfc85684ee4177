"""The JSON Schema type name of a JSON value (shared by every stage that infers types)."""

from __future__ import annotations

from typing import Any

TYPE_ORDER = ("string", "number", "integer", "boolean", "object", "array", "null")


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"
