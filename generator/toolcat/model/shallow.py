"""How much outputSchema a catalog publishes (`output_schemas:` in the config).

- `exact` (the default): the outputSchema the document describes (`outputs.py`).
- `shallow`: the documented object with its top-level properties typed and every deeper
  level open: `{"type": "object", "properties": {p: {"type": T}}, "required": [...]}`,
  where T is every JSON type the exact property schema admits (its `type`, the types of
  its `const` or `enum`, the union over `anyOf`/`oneOf`, the meet over `allOf`, through
  `$ref`), or `{}` when that is not known. Each keyword kept is one the exact schema
  applies, each dropped one only admitted less: every response the document describes
  still validates. A root that is not a plain object (a union, a composition) becomes
  `{"type": "object"}`.
- `none`: no outputSchema; structured results are still returned.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..jsontypes import json_type
from ..vocab.outputs import OutputSchemas
from ..vocab.pointers import LOCAL_DEFS
from .types import Tool

# OutputSchemas (vocab/outputs.py): lenient is applied by the pipeline before the checks
# (model/lenient.py); shallow and none are published here.
# Root keywords that only describe or that this form keeps: anything else at the root
# (a composition, a condition) makes the root opaque.
PLAIN_ROOT = frozenset({"type", "properties", "required", "additionalProperties", "title",
                        "description", "$defs", "readOnly", "writeOnly", "deprecated",
                        "examples", "example", "default"})


def _resolve(node: Any, defs: dict[str, Any], seen: frozenset[str]) -> tuple[Any, frozenset[str]]:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) \
            and node["$ref"].startswith(LOCAL_DEFS):
        name = node["$ref"][len(LOCAL_DEFS):]
        if name in seen or name not in defs:
            return True, seen    # a cycle or an unknown target: open
        node, seen = defs[name], seen | {name}
    return node, seen


def types_of(node: Any, defs: dict[str, Any], seen: frozenset[str] = frozenset()
             ) -> set[str] | None:
    """Every JSON type `node` admits (a superset), or None when any type may be."""
    node, seen = _resolve(node, defs, seen)
    if node is False:
        return set()
    if not isinstance(node, dict):
        return None
    kind = node.get("type")
    if isinstance(kind, str | list):
        found = {kind} if isinstance(kind, str) else set(kind)
        return found | ({"integer"} if "number" in found else set())
    if "const" in node:
        return {json_type(node["const"])}
    if isinstance(node.get("enum"), list):
        return {json_type(v) for v in node["enum"]}
    for union in ("anyOf", "oneOf"):
        if isinstance(node.get(union), list):
            parts = [types_of(b, defs, seen) for b in node[union]]
            return None if any(p is None for p in parts) else set().union(*parts)  # type: ignore[arg-type]
    if isinstance(node.get("allOf"), list):
        known = [p for p in (types_of(b, defs, seen) for b in node["allOf"]) if p is not None]
        return set.intersection(*known) if known else None
    return None


def _typed(node: Any, defs: dict[str, Any]) -> Any:
    found = types_of(node, defs)
    if found is None:
        return {}
    if not found:
        return False
    if "number" in found:
        found.discard("integer")
    kinds = sorted(found)
    return {"type": kinds[0] if len(kinds) == 1 else kinds}


def shallow_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The shallow form of an exact outputSchema (see the module's docstring)."""
    defs = schema.get("$defs") or {}
    root, _ = _resolve(schema, defs, frozenset())
    if not isinstance(root, dict) or set(root) - PLAIN_ROOT \
            or not isinstance(root.get("properties"), dict):
        return {"type": "object"}
    out: dict[str, Any] = {"type": root.get("type", "object"), "properties": {
        name: _typed(sub, defs) for name, sub in root["properties"].items()}}
    if isinstance(root.get("required"), list) and root["required"]:
        out["required"] = list(root["required"])
    return out


def publish_outputs(tools: list[Tool], policy: OutputSchemas) -> list[Tool]:
    """The tools with the outputSchema `policy` says to publish."""
    if policy in ("exact", "lenient"):
        return tools
    return [replace(t, output_schema=None if policy == "none" or t.output_schema is None
                    else shallow_schema(t.output_schema)) for t in tools]
