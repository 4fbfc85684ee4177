"""Arguments drawn from a tool's inputSchema with hypothesis-jsonschema, reproducibly.

`derandomize=True` makes the draws the same on every run (a fixed-seed slice of the space);
hypothesis alone draws shallow instances, so a second pass asks for every optional property.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema


def unroll(node: Any, defs: dict[str, Any], depth: int = 2, seen: tuple[str, ...] = ()) -> Any:
    """Inline `#/$defs/` refs; a def met `depth` times inside itself becomes `false`, so
    hypothesis-jsonschema (which cannot draw recursive schemas) draws bounded instances."""
    if isinstance(node, list):
        return [unroll(x, defs, depth, seen) for x in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref[len("#/$defs/"):]
        if seen.count(name) >= depth:
            return False
        rest = {k: v for k, v in node.items() if k != "$ref"}
        target = unroll(defs[name], defs, depth, (*seen, name))
        return {"allOf": [target, unroll(rest, defs, depth, seen)]} if rest else target
    return {k: unroll(v, defs, depth, seen) for k, v in node.items() if k != "$defs"}


def draw_arguments(schema: dict[str, Any], count: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    schema = unroll(schema, schema.get("$defs", {}))
    full = dict(schema, required=sorted(schema.get("properties", {})))
    for variant in (schema, full):
        out += _draw(variant, count)
    return out


def _draw(schema: dict[str, Any], count: int) -> list[dict[str, Any]]:
    drawn: list[dict[str, Any]] = []

    @settings(max_examples=count, database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(from_schema(schema))
    def collect(value: dict[str, Any]) -> None:
        if len(drawn) < count:
            drawn.append(value)

    collect()
    return drawn
