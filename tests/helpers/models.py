"""Load a rendered models.py, and compare its input models with the inputSchemas.

Shares nothing with generator/models: the schema side is jsonschema (2020-12),
the model side is the generated pydantic class, and disagreements are named by
the JSON Schema keyword behind them.
"""

from __future__ import annotations

import importlib
import itertools
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pydantic
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from toolcat.output.files import Files

from .draw import unroll

_counter = itertools.count()

# Where pydantic cannot say what the inputSchema says: keyword -> why. The README's
# "Models" section explains each; tests/models/test_models_parity.py proves each one real.
DIVERGENCES = {
    "null-for-optional": "an optional property that is not nullable becomes `X | None = None` "
                         "in pydantic, so the model accepts an explicit null the schema "
                         "rejects (serve validates against the inputSchema first)",
}


def import_models(files: Files, folder: Path) -> ModuleType:
    """Write ``files`` as a package under ``folder`` and import its ``models``."""
    package = f"toolcat_models_{next(_counter)}"
    root = folder / package
    root.mkdir(parents=True)
    for name, data in files.items():
        (root / name).write_bytes(data)
    sys.path.insert(0, str(folder))
    try:
        return importlib.import_module(f"{package}.models")
    finally:
        sys.path.remove(str(folder))


def bounded(schema: dict[str, Any], depth: int = 3) -> Any:
    """``schema`` with its ``$ref``s inlined, recursion cut at ``depth`` by ``false``
    (draw.unroll): every instance of the bounded schema is an instance of the original."""
    return unroll(schema, schema.get("$defs", {}), depth)


def disagreement(schema: dict[str, Any], model: type[pydantic.BaseModel],
                 instance: Any) -> str | None:
    """None when schema and model agree on ``instance``, else the keyword behind it.

    An unexplained disagreement is returned as ``unknown: ...`` with the details.
    """
    errors = list(Draft202012Validator(schema).iter_errors(instance))
    try:
        model.model_validate(instance)
        model_error = None
    except pydantic.ValidationError as exc:
        model_error = exc
    if bool(errors) == (model_error is not None):
        return None
    if model_error is None:
        # A null where the schema wants anything else (type, enum, oneOf ...), at an
        # optional property: pydantic's `X | None = None`.
        if all(error.instance is None and _optional(schema, list(error.absolute_path))
               for error in errors):
            return "null-for-optional"
        return f"unknown: the model accepts what the schema rejects: " \
               f"{[(e.validator, list(e.absolute_path)) for e in errors]}"
    for detail in model_error.errors():
        sub = _at(schema, list(detail["loc"]))
        if isinstance(sub, dict) and "format" in sub:
            return "format"
    return f"unknown: the model rejects what the schema accepts: {model_error.errors()[:3]}"


def _optional(schema: dict[str, Any], path: list[Any]) -> bool:
    """Whether ``path`` ends in a property its object does not require."""
    if not path or not isinstance(path[-1], str):
        return False
    parent = _at(schema, path[:-1])
    return isinstance(parent, dict) and path[-1] not in parent.get("required", [])


def _at(schema: dict[str, Any], loc: list[Any]) -> Any:
    """The subschema at a pydantic error location (properties / items only)."""
    node: Any = schema
    defs = schema.get("$defs", {})
    for part in loc:
        node = _deref(node, defs)
        if not isinstance(node, dict):
            return None
        if isinstance(part, int):
            node = node.get("items")
        elif part in node.get("properties", {}):
            node = node["properties"][part]
        else:
            return _deref(node, defs)
    return _deref(node, defs)


def _deref(node: Any, defs: dict[str, Any]) -> Any:
    while isinstance(node, dict) and isinstance(node.get("$ref"), str) \
            and node["$ref"].startswith("#/$defs/"):
        node = defs.get(node["$ref"][len("#/$defs/"):])
    if isinstance(node, dict) and "anyOf" in node:
        formats = [_deref(s, defs) for s in node["anyOf"]]
        for sub in formats:
            if isinstance(sub, dict) and "format" in sub:
                return sub
    return node


UNKNOWN_PROPERTY = "toolcatUnknownProperty"


def _wrong(value: Any) -> Any:
    """A value of another JSON type that lax coercion would accept where it can."""
    if isinstance(value, bool):
        return 1
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return 7
    if isinstance(value, list):
        return {}
    return [] if isinstance(value, dict) else "x"


def mutations(schema: dict[str, Any], valid: dict[str, Any]) -> list[tuple[str, Any]]:
    """(label, instance) for every mutation of ``valid``, a valid instance of ``schema``.

    Missing required, wrong type, extra property, null, enum violation: each
    label names the mutation and the property.
    """
    defs = schema.get("$defs", {})
    out: list[tuple[str, Any]] = [(f"extra {UNKNOWN_PROPERTY}",
                                   {**valid, UNKNOWN_PROPERTY: 1})]
    for name in schema.get("required", []):
        out.append((f"missing {name}", {k: v for k, v in valid.items() if k != name}))
    for name, value in sorted(valid.items()):
        out.append((f"wrong type {name}", {**valid, name: _wrong(value)}))
        out.append((f"null {name}", {**valid, name: None}))
        prop = _deref(schema.get("properties", {}).get(name), defs)
        if isinstance(prop, dict) and "enum" in prop:
            out.append((f"enum {name}", {**valid, name: "toolcat-not-a-member"}))
    return out
