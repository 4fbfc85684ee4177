"""An argument's type at the resolution the parity guard compares.

The vocabulary is the seed decision's (``seeds/ersatztv-mcp-schema-parity-decision``):
``string``, ``integer``, ``number``, ``boolean``, ``object``, ``array<T>``, each
optionally ``|null``. ``integer`` and ``number`` are distinct; an enum is a
``string`` (its values are compared on their own); a ``$ref`` is followed inside
the tool's own schema; ``anyOf``/``oneOf`` of a type and ``null`` is that type,
nullable. Deeper structure (which object, ``format``) is below the catalog's
ceiling and not compared. A shape outside this vocabulary resolves to a label
that names it (``integer|string``, ``unresolved $ref ...``), so two servers that
disagree still differ, and nothing compares equal by falling through to ``{}``.
"""

from __future__ import annotations

import json
from typing import Any

from ..jsontypes import json_type
from ..vocab.pointers import split_pointer

NULL = "null"
_PRIMITIVES = ("string", "integer", "number", "boolean", "object", "array")


def type_label(schema: Any, root: dict[str, Any]) -> str:
    """``integer``, ``array<string>``, ``integer|null``; ``any`` for ``{}``."""
    names = sorted(_types(schema, root, depth=0))
    nullable = NULL in names
    rest = [n for n in names if n != NULL]
    if not rest:
        return NULL if nullable else "any"
    return "|".join(rest) + ("|null" if nullable else "")


def enum_values(schema: Any, root: dict[str, Any]) -> str:
    """The enum of an argument (or of its array items), canonical, '' when none.
    An ``enum`` beside a ``$ref`` counts (2020-12 applies both), then the target's."""
    values = _enum(schema, root, 0)
    target = deref(schema, root)
    if values is None and isinstance(target, dict) and isinstance(target.get("items"), dict):
        items = _enum(target["items"], root, 0)
        return f"items: {_canonical(items)}" if items is not None else ""
    return _canonical(values) if values is not None else ""


def _enum(schema: Any, root: dict[str, Any], depth: int) -> list[Any] | None:
    if not isinstance(schema, dict) or depth > 32:
        return None
    if isinstance(schema.get("enum"), list):
        return [v for v in schema["enum"] if v is not None]
    if isinstance(schema.get("$ref"), str):
        return _enum(resolve_pointer(root, schema["$ref"]), root, depth + 1)
    for key in ("anyOf", "oneOf", "allOf"):
        for member in schema.get(key) or []:
            found = _enum(member, root, depth + 1)
            if found is not None:
                return found
    return None


def _canonical(values: list[Any]) -> str:
    return ", ".join(sorted(json.dumps(v, sort_keys=True) for v in values))


def _types(schema: Any, root: dict[str, Any], depth: int) -> set[str]:
    if depth > 32:
        return {"recursive schema"}
    schema = deref(schema, root)
    if schema is True or schema == {}:
        return {"any"}
    if not isinstance(schema, dict):
        return {f"unknown shape {json.dumps(schema)[:40]}"}
    if isinstance(schema.get("$ref"), str):
        return {f"unresolved $ref {schema['$ref']}"}
    found: set[str] = set()
    for key in ("anyOf", "oneOf"):
        for member in schema.get(key) or []:
            found |= _types(member, root, depth + 1)
    all_of = schema.get("allOf") or []
    if len(all_of) == 1:
        found |= _types(all_of[0], root, depth + 1)
    declared = schema.get("type")
    names = declared if isinstance(declared, list) else [declared] if declared else []
    if not names and not found:
        names = _implied(schema)
    for name in names:
        if name == "array":
            found.add(f"array<{type_label(schema.get('items', {}), root)}>")
        elif name in _PRIMITIVES or name == NULL:
            found.add(name)
        else:
            found.add(f"unknown type {name!r}")
    if schema.get("nullable") is True:
        found.add(NULL)
    return found or {"any"}


def _implied(schema: dict[str, Any]) -> list[str]:
    """The type a schema without ``type`` still pins: an enum's values, properties."""
    if isinstance(schema.get("enum"), list):
        kinds = {json_type(v) for v in schema["enum"]}
        return sorted(kinds)
    if "const" in schema:
        return [json_type(schema["const"])]
    if "properties" in schema:
        return ["object"]
    if "items" in schema:
        return ["array"]
    return []


def deref(schema: Any, root: dict[str, Any]) -> Any:
    """Follow local ``$ref``s (``#/$defs/X``); a ref that does not resolve stays."""
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < 32:
        target = resolve_pointer(root, schema["$ref"])
        if target is None:
            return schema
        schema, seen = target, seen + 1
    return schema


def resolve_pointer(root: dict[str, Any], ref: str) -> Any:
    """The value a local ``#/...`` reference names, or None."""
    if not ref.startswith("#"):
        return None
    node: Any = root
    try:
        for token in split_pointer(ref[1:]):
            node = node[int(token)] if isinstance(node, list) else node[token]
    except (KeyError, IndexError, ValueError, TypeError):
        return None
    return node
