"""The `openai-strict` schema profile: each inputSchema as OpenAI's strict mode accepts it,
with a reversible mapping of arguments (`toolcat serve --schema-profile openai-strict`).

Strict mode (OpenAI Structured Outputs / function calling with `strict: true`) accepts a
subset of JSON Schema that is narrower by construction: every object lists every property
in `required` and sets `additionalProperties: false`, so an optional property or an open map
cannot be said as such. The profile therefore changes the shape of some values, and the
server maps every call back before validating it against the exact schema:

- closed object (`additionalProperties: false`): every property listed in `required`; an
  optional property P whose profile admits no null becomes `anyOf: [P, null]`, one whose
  profile admits null `anyOf: [{"value": P}, null]`; decode: `null` is "not given",
  `{"value": v}` is v.
- map (no properties, `additionalProperties: S`): an array of `{"key", "value": S}` pairs;
  decode: the object (a key given twice is an error).
- any other open object, an untyped value, a tuple (`prefixItems`), an `allOf` of several,
  an ambiguous union, a `$ref` met `DEPTH` times inside itself, an object deeper than
  `MAX_NESTING`: a string, the value's JSON text; decode: `json.loads`.
- type list, `anyOf`, `oneOf`: `anyOf` of the branches' profiles; decode: the branch the
  value's JSON type names.
- `enum`/`const` of scalars: an `enum` per JSON type (unchanged).
- string, number, integer, boolean, null, array: the same type with numeric bounds and
  `minItems`/`maxItems` kept, other constraints dropped (only widens); items decoded.

A union is mapped only when each JSON type (string, number, boolean, null, object, array) is
admitted by one branch, or only by branches whose mapping is the identity: the JSON type of
the value then names how to decode it. Otherwise the union is JSON text.

Two promises, tested with drawn instances: for every `x` the exact schema accepts,
`encode(x)` is accepted by the profile schema and `decode(encode(x)) == x`; and the profile
schema passes `strict_problems`, a checker of the documented rules (each rule by name). A
value outside the mapping's image (a client that does not enforce strict mode) is left as
it is, so the exact validation reports it; only JSON text that does not parse and a key given
twice in a pair list are decode errors. A tool whose profile breaks a rule (a size limit) is
shown as one JSON-text `arguments` property instead, with a warning at serve start.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..vocab import ecma
from ..vocab.pointers import LOCAL_DEFS

STRICT = "openai-strict"   # the profile's name (`--schema-profile openai-strict`)
DEPTH = 2                  # a definition met this often inside itself: JSON text from there
# The documented limits (docs/large-apis.md names the source).
MAX_NESTING = 10           # object levels
MAX_PROPERTIES = 5000      # object properties in the whole schema
MAX_STRING_CHARS = 120_000  # property names, definition names, enum and const values
MAX_ENUM_VALUES = 1000     # across the schema
LARGE_ENUM, LARGE_ENUM_CHARS = 250, 15_000   # one string enum of more values: this many chars
SUPPORTED = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum",
    "const", "description", "$defs", "$ref", "pattern", "format", "multipleOf", "minimum",
    "maximum", "exclusiveMinimum", "exclusiveMaximum", "minItems", "maxItems"})
FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4",
                     "ipv6", "uuid"})
TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})
_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
_JSON_TYPES = ("string", "number", "boolean", "null", "object", "array")
TEXT_NOTE = "JSON text of the value (decoded, then checked against the exact schema)."
ABSENT_NOTE = "null: not given."
REST_NOTE = ("Members other than those listed, as JSON text of an object (null: none); "
             "decoded and merged into the object.")
ARGUMENTS = "arguments"    # the one property of a tool shown as JSON text whole


class UndecodableArguments(ValueError):
    """Arguments the profile's mapping cannot read back (`problems`: one line each)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class Codec:
    """One node: its profile `schema` and how a value maps (`kind`).

    kinds: same (identity), text (JSON text), object (closed object; `fields` are
    (name, codec, mode) with mode required/nullable/wrapped), map (pairs; `item` codec of
    the values), array (`item` codec), union (`table`: JSON type -> branch codec or None for
    the identity; `branches`: (exact schema, codec) in order, for encode).
    """

    schema: dict[str, Any]
    kind: str = "same"
    fields: tuple[tuple[str, Codec, str], ...] = ()
    item: Codec | None = None
    table: tuple[tuple[str, Codec | None], ...] = ()
    branches: tuple[tuple[Any, Codec], ...] = ()
    defs: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def _described(schema: dict[str, Any], node: Any, note: str = "") -> dict[str, Any]:
    text = node.get("description") if isinstance(node, dict) else None
    words = " ".join(w for w in (text if isinstance(text, str) else "", note) if w)
    return {**schema, "description": words} if words else schema


def _text(node: Any) -> Codec:
    return Codec(_described({"type": "string"}, node, TEXT_NOTE), "text")


@dataclass(frozen=True)
class _Ctx:
    defs: dict[str, Any]
    seen: tuple[str, ...] = ()
    level: int = 0            # object levels around this node

    def deeper(self, levels: int = 1) -> _Ctx:
        return _Ctx(self.defs, self.seen, self.level + levels)


def compile_schema(schema: dict[str, Any]) -> tuple[Codec, list[str]]:
    """The codec of a tool's inputSchema, and the strict-mode rules its profile broke (then
    the codec is `whole_text`: the arguments as one JSON text, which breaks none)."""
    codec = _node(schema, _Ctx(schema.get("$defs") or {}))
    broken = sorted({rule for rule, _ in strict_problems(codec.schema)})
    return (whole_text(schema), broken) if broken else (codec, [])


def whole_text(schema: dict[str, Any]) -> Codec:
    """A tool's arguments as one JSON text (what a tool falls back to)."""
    text = Codec({"type": "string", "description": "The tool's arguments as JSON text of "
                  "an object (decoded, then checked against the exact schema)."}, "text")
    return Codec(_described({"type": "object", "properties": {ARGUMENTS: text.schema},
                             "required": [ARGUMENTS], "additionalProperties": False},
                            schema), "root", fields=((ARGUMENTS, text, "required"),))


def _node(node: Any, ctx: _Ctx) -> Codec:
    if not isinstance(node, dict):
        return _text(node)                  # true (anything) or false (nothing)
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith(LOCAL_DEFS):
        name = ref[len(LOCAL_DEFS):]
        if ctx.seen.count(name) >= DEPTH or not isinstance(ctx.defs.get(name), dict):
            return _text(node)
        # Siblings of $ref only narrow: the target alone (its description, or theirs).
        target = {**ctx.defs[name], **({"description": node["description"]}
                                         if "description" in node else {})}
        return _node(target, _Ctx(ctx.defs, (*ctx.seen, name), ctx.level))
    if "const" in node or "enum" in node:
        return _enum(node)
    kind = node.get("type")
    if isinstance(kind, list):
        return _union(node, [{**node, "type": t} for t in kind], ctx)
    if kind is None:
        return _untyped(node, ctx)
    if kind == "object":
        return _object(node, ctx)
    if kind == "array":
        return _array(node, ctx)
    if kind not in TYPES:
        return _text(node)
    bounds = {k: node[k] for k in _BOUNDS if _number(node.get(k))} if kind in (
        "number", "integer") else {}
    return Codec(_described({"type": kind, **bounds}, node))


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _untyped(node: dict[str, Any], ctx: _Ctx) -> Codec:
    for key in ("anyOf", "oneOf"):
        if isinstance(node.get(key), list) and node[key]:
            return _union(node, node[key], ctx)
    every = node.get("allOf")
    if isinstance(every, list) and len(every) == 1:
        inner = every[0] if isinstance(every[0], dict) else {}
        return _node({**inner, **({"description": node["description"]}
                                  if "description" in node else {})}, ctx)
    return _text(node)


_SCALAR = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null"}


def _enum(node: dict[str, Any]) -> Codec:
    values = [node["const"]] if "const" in node else node["enum"]
    if not isinstance(values, list) or not values or any(type(v) not in _SCALAR
                                                         for v in values):
        return _text(node)
    groups: dict[str, list[Any]] = {}
    for value in values:
        groups.setdefault(_SCALAR[type(value)], []).append(value)
    parts = [{"type": "null"} if t == "null" else {"type": t, "enum": vs}
             for t, vs in groups.items()]
    return Codec(_described(parts[0] if len(parts) == 1 else {"anyOf": parts}, node))


def _array(node: dict[str, Any], ctx: _Ctx) -> Codec:
    if "prefixItems" in node:
        return _text(node)                  # a tuple: strict mode has no prefixItems
    items = _node(node.get("items", True), ctx)
    sizes = {k: node[k] for k in ("minItems", "maxItems")
             if isinstance(node.get(k), int) and not isinstance(node[k], bool)}
    schema = _described({"type": "array", "items": items.schema, **sizes}, node)
    return Codec(schema, "same" if items.kind == "same" else "array", item=items)


def _object(node: dict[str, Any], ctx: _Ctx) -> Codec:
    properties = node.get("properties") or {}
    extra = node.get("additionalProperties", True)
    if ctx.level >= MAX_NESTING or not isinstance(properties, dict):
        return _text(node)
    closed = extra is False and not node.get("patternProperties")
    if closed or properties:
        return _closed(node, properties, ctx.deeper(), rest=not closed)
    if node.get("patternProperties") or not isinstance(extra, dict):
        return _text(node)
    values = _node(extra, ctx.deeper())     # inside the {key, value} pair object
    if values.kind == "text":
        return _text(node)                  # a free-form object: JSON text whole
    pair = {"type": "object", "properties": {"key": {"type": "string"},
                                             "value": values.schema},
            "required": ["key", "value"], "additionalProperties": False}
    note = "The object as [{key, value}] pairs, each key once."
    return Codec(_described({"type": "array", "items": pair}, node, note), "map",
                 item=values)


def _closed(node: dict[str, Any], properties: dict[str, Any], ctx: _Ctx,
            rest: bool = False) -> Codec:
    """An object with its declared properties (and, if it is open, one `rest` property
    holding every other member as JSON text)."""
    required = set(node.get("required") or ())
    fields: list[tuple[str, Codec, str]] = []
    shown: dict[str, Any] = {}
    for name, sub in properties.items():
        codec = _node(sub, ctx)
        if name in required:
            fields.append((name, codec, "required"))
            shown[name] = codec.schema
        elif "null" not in json_types(codec.schema):
            fields.append((name, codec, "nullable"))
            shown[name] = {"anyOf": [codec.schema, {"type": "null"}],
                           "description": ABSENT_NOTE}
        else:
            codec = _node(sub, ctx.deeper())   # one object level more: the wrapper
            fields.append((name, codec, "wrapped"))
            box = {"type": "object", "properties": {"value": codec.schema},
                   "required": ["value"], "additionalProperties": False}
            shown[name] = {"anyOf": [box, {"type": "null"}],
                           "description": ABSENT_NOTE + " Else {\"value\": the value}."}
    if rest:
        name = rest_name(properties)
        fields.append((name, Codec({"type": "string"}, "text"), "rest"))
        shown[name] = {"anyOf": [{"type": "string"}, {"type": "null"}],
                       "description": REST_NOTE}
    schema = _described({"type": "object", "properties": shown, "required": list(shown),
                         "additionalProperties": False}, node)
    same = all(mode == "required" and c.kind == "same" for _, c, mode in fields)
    return Codec(schema, "same" if same else "object", fields=tuple(fields))


def rest_name(properties: dict[str, Any]) -> str:
    """The name of an open object's `rest` property: `_other`, underscores added until no
    declared property has it."""
    name = "_other"
    while name in properties:
        name = "_" + name
    return name


def _union(node: dict[str, Any], branches: list[Any], ctx: _Ctx) -> Codec:
    codecs = [_node(b, ctx) for b in branches]
    table: list[tuple[str, Codec | None]] = []
    for kind in _JSON_TYPES:
        admitting = [c for c in codecs if kind in json_types(c.schema)]
        if len(admitting) == 1 and admitting[0].kind != "same":
            table.append((kind, admitting[0]))
        elif any(c.kind != "same" for c in admitting):
            return _text(node)              # two mappings for one JSON type: ambiguous
    schema = _described({"anyOf": [c.schema for c in codecs]}, node)
    kind = "union" if table else "same"
    return Codec(schema, kind, table=tuple(table),
                 branches=tuple(zip(branches, codecs, strict=True)), defs=ctx.defs)


def json_types(schema: dict[str, Any]) -> frozenset[str]:
    """The JSON types a profile schema (this module's output) admits."""
    if "anyOf" in schema:
        return frozenset().union(*(json_types(b) for b in schema["anyOf"]))
    kind = schema.get("type")
    return frozenset({"number" if kind == "integer" else str(kind)})


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    return {str: "string", type(None): "null", dict: "object", list: "array"}.get(
        type(value), "")


# ---- arguments: encode (exact -> profile), decode (profile -> exact) ----

def encode(codec: Codec, value: Any) -> Any:
    """A value the exact schema accepts, as the profile says it."""
    if codec.kind == "text":
        return json.dumps(value, ensure_ascii=False)
    if codec.kind in ("object", "root"):
        if codec.kind == "root":
            return {ARGUMENTS: json.dumps(value, ensure_ascii=False)}
        return {name: _encode_field(codec, sub, mode, name, value)
                for name, sub, mode in codec.fields}
    if codec.kind == "map" and codec.item is not None:
        return [{"key": k, "value": encode(codec.item, v)} for k, v in value.items()]
    if codec.kind == "array" and codec.item is not None:
        return [encode(codec.item, v) for v in value]
    if codec.kind == "union":
        for branch, sub in codec.branches:
            if ecma.ECMAValidator({"$defs": codec.defs, "allOf": [branch]}).is_valid(value):
                return encode(sub, value)
    return value


def _encode_field(parent: Codec, codec: Codec, mode: str, name: str,
                  value: dict[str, Any]) -> Any:
    if mode == "rest":
        declared = {n for n, _, m in parent.fields if m != "rest"}
        others = {k: v for k, v in value.items() if k not in declared}
        return json.dumps(others, ensure_ascii=False) if others else None
    if name not in value:
        return None
    inner = encode(codec, value[name])
    return {"value": inner} if mode == "wrapped" else inner


def decode(codec: Codec, value: Any, path: str = "") -> Any:
    """Arguments as the profile says them, back in the exact schema's terms (raises
    UndecodableArguments for JSON text that does not parse or a pair key given twice)."""
    kind = codec.kind
    if kind == "same":
        return value
    if kind == "text":
        return _loads(value, path) if isinstance(value, str) else value
    if kind in ("object", "root") and isinstance(value, dict):
        if kind == "root":
            text = value.get(ARGUMENTS)
            return _loads(text, ARGUMENTS) if set(value) == {ARGUMENTS} and isinstance(
                text, str) else value
        return _decode_object(codec, value, path)
    if kind == "map" and codec.item is not None and _pairs(value):
        return _decode_map(codec.item, value, path)
    if kind == "array" and codec.item is not None and isinstance(value, list):
        return [decode(codec.item, v, f"{path}[{i}]") for i, v in enumerate(value)]
    if kind == "union":
        branch = dict(codec.table).get(_json_type(value))
        return value if branch is None else decode(branch, value, path)
    return value


def _loads(text: str, path: str) -> Any:
    try:
        return json.loads(text)
    except ValueError as exc:
        raise UndecodableArguments([f"{path}: not JSON text ({exc})"]) from None


def _decode_object(codec: Codec, value: dict[str, Any], path: str) -> dict[str, Any]:
    fields = {name: (sub, mode) for name, sub, mode in codec.fields}
    out: dict[str, Any] = {}
    others: dict[str, Any] = {}
    for name, given in value.items():
        where = f"{path}[{json.dumps(name)}]" if path else name
        if name in fields and fields[name][1] == "rest" and given is not None:
            others = _members(given, where)
            continue
        if name not in fields:
            out[name] = given                  # not declared: the exact schema says so
            continue
        sub, mode = fields[name]
        if given is None and mode != "required":
            continue                           # null: not given
        boxed = mode == "wrapped" and isinstance(given, dict) and set(given) == {"value"}
        out[name] = decode(sub, given["value"] if boxed else given, where)
    twice = sorted(set(others) & set(out))
    if twice:
        raise UndecodableArguments([f"{path or '(arguments)'}: {json.dumps(k)} given twice "
                                    "(listed and in the other members)" for k in twice])
    return {**out, **others}


def _members(given: Any, where: str) -> dict[str, Any]:
    """The other members of an open object: JSON text of an object (or the object)."""
    members = _loads(given, where) if isinstance(given, str) else given
    if not isinstance(members, dict):
        raise UndecodableArguments([f"{where}: JSON text of an object expected"])
    return members


def _pairs(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(p, dict) and set(p) == {"key", "value"} and isinstance(p["key"], str)
        for p in value)


def _decode_map(item: Codec, pairs: list[dict[str, Any]], path: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, pair in enumerate(pairs):
        key = pair["key"]
        if key in out:
            raise UndecodableArguments([f"{path}[{i}].key: {json.dumps(key)} given twice"])
        out[key] = decode(item, pair["value"], f"{path}[{json.dumps(key)}]")
    return out


# ---- the documented rules, checked on a profile schema ----

def strict_problems(schema: dict[str, Any]) -> list[tuple[str, str]]:
    """(rule, JSON pointer) for each way `schema` breaks a strict-mode rule, sorted."""
    found: set[tuple[str, str]] = set()
    if schema.get("type") != "object" or "anyOf" in schema:
        found.add(("root-object", ""))
    totals = {"properties": 0, "chars": 0, "enum": 0}
    for pointer, node, level in _walk(schema, "", 1):
        found.update((rule, pointer) for rule in _node_rules(node, level, totals))
    for rule, over in (("property-count", totals["properties"] > MAX_PROPERTIES),
                       ("string-size", totals["chars"] > MAX_STRING_CHARS),
                       ("enum-count", totals["enum"] > MAX_ENUM_VALUES)):
        if over:
            found.add((rule, ""))
    return sorted(found)


RULES = ("root-object", "supported-keywords", "typed", "known-types", "formats",
         "additional-properties-false", "all-required", "array-items", "nesting",
         "property-count", "string-size", "enum-count", "large-enum")


def _node_rules(node: dict[str, Any], level: int,
                totals: dict[str, int]) -> Iterator[str]:
    if set(node) - SUPPORTED:
        yield "supported-keywords"
    if not {"type", "anyOf", "enum", "const", "$ref"} & set(node):
        yield "typed"
    kinds = node.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds] if "type" in node else []
    if any(k not in TYPES for k in kinds):
        yield "known-types"
    if "format" in node and node["format"] not in FORMATS:
        yield "formats"
    if "object" in kinds:
        properties = node.get("properties") or {}
        if node.get("additionalProperties") is not False:
            yield "additional-properties-false"
        if sorted(node.get("required") or []) != sorted(properties):
            yield "all-required"
        if level > MAX_NESTING:
            yield "nesting"
        totals["properties"] += len(properties)
        totals["chars"] += sum(len(name) for name in properties)
    if "array" in kinds and not isinstance(node.get("items"), dict):
        yield "array-items"
    yield from _enum_rules(node, totals)


def _enum_rules(node: dict[str, Any], totals: dict[str, int]) -> Iterator[str]:
    values = list(node.get("enum") or []) + ([node["const"]] if "const" in node else [])
    strings = [v for v in values if isinstance(v, str)]
    totals["enum"] += len(node.get("enum") or [])
    totals["chars"] += sum(len(v) for v in strings)
    if len(node.get("enum") or []) > LARGE_ENUM and sum(map(len, strings)) > LARGE_ENUM_CHARS:
        yield "large-enum"


def _walk(node: Any, pointer: str, level: int) -> Iterator[tuple[str, dict[str, Any], int]]:
    if not isinstance(node, dict):
        return
    yield pointer, node, level
    inner = level + 1 if "object" in _listed(node.get("type")) else level
    for key, value in node.items():
        if key in ("properties", "$defs") and isinstance(value, dict):
            for name, sub in value.items():
                yield from _walk(sub, f"{pointer}/{key}/{_escape(name)}",
                                 inner if key == "properties" else 1)
        elif key == "items":
            yield from _walk(value, f"{pointer}/items", level)
        elif key == "anyOf" and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _walk(sub, f"{pointer}/anyOf/{i}", level)


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


# ---- the served view ----

class StrictView:
    """The profile of each tool of a catalog, compiled once at serve start: `tool` shows a
    tool object, `decode` maps a call's arguments back; `warnings` name the tools shown as
    JSON text whole and why."""

    def __init__(self, tools: list[dict[str, Any]]) -> None:
        self.codecs: dict[str, Codec] = {}
        self.warnings: list[str] = []
        for tool in tools:
            codec, broken = compile_schema(tool["inputSchema"])
            if broken:
                self.warnings.append(f"{tool['name']}: its strict-mode inputSchema would break "
                                     f"OpenAI's rule(s) {', '.join(broken)}; its arguments "
                                     f"are shown as one JSON text '{ARGUMENTS}' instead")
            self.codecs[tool["name"]] = codec

    def tool(self, tool: dict[str, Any]) -> dict[str, Any]:
        return {**tool, "inputSchema": self.codecs[tool["name"]].schema}

    def decode(self, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        codec = self.codecs.get(name)
        decoded = arguments if codec is None else decode(codec, arguments)
        return decoded if isinstance(decoded, dict) else arguments

