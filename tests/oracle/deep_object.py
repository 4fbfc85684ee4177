"""The judge's reading of ``style: deepObject``, nested values included.

OpenAPI defines deepObject for an object of scalars only (``name[member]=value``); its
style table says "n/a" for arrays and leaves nested objects undefined. The APIs that take
nested forms (Stripe, and every PHP, Rails or ``qs`` back end) read one convention, the
one PHP's ``http_build_query``, ``qs.stringify`` and Stripe's own clients write: each
level of nesting is one more bracketed segment, list items are indexed from 0::

    name[a][b]=v          {"a": {"b": "v"}}
    name[a][0]=x          {"a": ["x"]}
    name[0][id]=7         [{"id": 7}]
    name=v                a scalar: a deepObject parameter whose schema may be one
                          (Stripe's ``created``: an integer or a range object)

toolcat's runtime documents that convention; this module reads it, written from the
convention and never from toolcat's code, and openapi-core then casts and validates the
value against the parameter's schema as for any other parameter. The schema guides the
reading only where the wire cannot say: a bracket level is a list when the schema there
admits an array and every segment is an index ``0..n-1`` (each exactly once), otherwise
an object; a leaf is cast to the scalar type the schema admits (boolean, integer,
number, in that order) when its text is one, else kept as text. What the convention
cannot have written is refused, never guessed: a name sent both as a value and as a
container, a repeated leaf (``name[a]=1&name[a]=2``: back ends disagree on it), indexes
with a gap, a key with text after its last bracket.

openapi-core 0.23 reads one level only and only word-character member names (``\\w+``);
the reader is installed for every deepObject, parameter or form-body ``encoding``, in
place of its own (``install``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

from jsonschema_path import SchemaPath

COMBINATORS = ("allOf", "anyOf", "oneOf")
INDEX = re.compile(r"0|[1-9][0-9]*")
INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")
MAX_DEPTH = 32


class Node:
    """One bracket level as sent: the values written at it, and its sub-levels."""

    def __init__(self) -> None:
        self.values: list[str] = []
        self.children: dict[str, Node] = {}


def install() -> None:
    """Replace openapi-core's deepObject reader with ``read`` (schema-aware)."""
    from openapi_core.deserializing.styles.factories import StyleDeserializersFactory

    original = StyleDeserializersFactory.create
    if getattr(original, "_judge_deep_object", False):
        return

    def create(self: Any, spec: SchemaPath, schema: SchemaPath, style: str, explode: bool,
               name: str) -> Any:
        made = original(self, spec, schema, style, explode, name)
        if style == "deepObject":
            made.deserializer_callable = (
                lambda _explode, _name, _type, location: read(name, schema, location))
        return made

    create._judge_deep_object = True   # type: ignore[attr-defined]
    StyleDeserializersFactory.create = create   # type: ignore[method-assign]


def read(name: str, schema: SchemaPath, location: Mapping[str, Any]) -> Any:
    """The value of deepObject parameter ``name`` in ``location`` (a query or form
    multi-dict); KeyError when it is not sent, ValueError when no value of the
    convention reads so."""
    root = Node()
    prefix = name + "["
    for key in location:
        if key == name:
            root.values += _all(location, key)
        elif key.startswith(prefix):
            node = root
            for segment in _segments(key, len(name)):
                node = node.children.setdefault(segment, Node())
            node.values += _all(location, key)
    if not root.values and not root.children:
        raise KeyError(name)
    return _shape(root, schema, name, 0)


def _all(location: Mapping[str, Any], key: str) -> list[str]:
    getlist = getattr(location, "getlist", None)
    return list(getlist(key)) if getlist is not None else [location[key]]


def _segments(key: str, start: int) -> list[str]:
    out = []
    at = start
    while at < len(key):
        close = key.find("]", at)
        if key[at] != "[" or close < 0:
            raise ValueError(f"{key!r}: text after the last bracket")
        out.append(key[at + 1:close])
        at = close + 1
    return out


def _shape(node: Node, schema: SchemaPath, where: str, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise ValueError(f"{where}: nested deeper than {MAX_DEPTH}")
    if node.values and node.children:
        raise ValueError(f"{where}: sent both as a value and with members")
    if not node.children:
        if len(node.values) != 1:
            raise ValueError(f"{where}: sent {len(node.values)} times")
        return _leaf(node.values[0], _kinds(schema, 0))
    keys = list(node.children)
    if "array" in _kinds(schema, 0) and all(INDEX.fullmatch(k) for k in keys):
        if sorted(int(k) for k in keys) != list(range(len(keys))):
            raise ValueError(f"{where}: list indexes {sorted(keys)} are not 0..{len(keys) - 1}")
        items = _below(schema, "items", None, 0)
        return [_shape(node.children[str(i)], items, f"{where}[{i}]", depth + 1)
                for i in range(len(keys))]
    return {k: _shape(child, _below(schema, "properties", k, 0), f"{where}[{k}]", depth + 1)
            for k, child in node.children.items()}


def _leaf(text: str, kinds: set[str]) -> Any:
    if "boolean" in kinds and text in ("true", "false"):
        return text == "true"
    if "integer" in kinds and INTEGER.fullmatch(text):
        return int(text)
    if "number" in kinds:
        try:
            number = float(text)
        except ValueError:
            return text
        if math.isfinite(number):
            return int(text) if INTEGER.fullmatch(text) else number
    return text


def _raw(schema: SchemaPath) -> dict[str, Any]:
    with schema.open() as raw:
        return raw if isinstance(raw, dict) else {}


def _kinds(schema: SchemaPath, depth: int) -> set[str]:
    """Every JSON type the schema (through its combinators) names or implies."""
    raw = _raw(schema)
    kind = raw.get("type")
    out = {kind} if isinstance(kind, str) else {k for k in kind if isinstance(k, str)} \
        if isinstance(kind, list) else set()
    if "items" in raw or "prefixItems" in raw:
        out.add("array")
    if any(k in raw for k in ("properties", "additionalProperties", "patternProperties")):
        out.add("object")
    if depth < MAX_DEPTH:
        for comb in COMBINATORS:
            if comb in raw:
                for sub in schema / comb:
                    out |= _kinds(sub, depth + 1)
    return out


def _below(schema: SchemaPath, key: str, member: str | None, depth: int) -> SchemaPath:
    """The schema of a member (``properties``, else ``additionalProperties``) or of the
    items, the schema's own first, then its combinators' branches in order; ``{}``
    (anything) when none says."""
    found = _find(schema, key, member, depth)
    if found is None and member is not None:
        found = _find(schema, "additionalProperties", None, depth)
    return found if found is not None else SchemaPath.from_dict({})


def _find(schema: SchemaPath, key: str, member: str | None, depth: int) -> SchemaPath | None:
    raw = _raw(schema)
    here = raw.get(key)
    if member is None and isinstance(here, dict):
        return schema / key
    if member is not None and isinstance(here, dict) and member in here:
        return schema / key / member
    if depth < MAX_DEPTH:
        for comb in COMBINATORS:
            if comb in raw:
                for sub in schema / comb:
                    found = _find(sub, key, member, depth + 1)
                    if found is not None:
                        return found
    return None
