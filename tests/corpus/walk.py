"""An independent reading of a real spec, compared with the catalog generated from it.

Shares no code with ``generator.normalise`` or ``generator.model``: it reads the
loaded OpenAPI 3 document (bundled, and converted from Swagger 2.0, by
``generator.load``) with its own resolver, so a generator bug cannot hide by
agreeing with itself. Unlike ``tests/helpers/reachability.py`` (exact types on
hand-picked specs) it must take every construct real specs use (unions,
recursion, maps), so it compares types as *sets of JSON types* at the top of a
field, and one level into arrays: ``{"string", "null"}``, ``array<{"integer"}>``;
``None`` stands for "any type". ``integer`` is kept apart from ``number``.

For every operation it checks: every parameter is an argument with the binding's
location and wire name (reserved headers are listed as ignored instead); every
field of an object body (own and ``allOf``, except readOnly ones) is a body
argument, or the body travels whole as one argument; required things are required;
nothing is an argument that the spec does not have; no readOnly property is left in
an input schema at any depth.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
RESERVED_HEADERS = frozenset({"accept", "content-type", "authorization"})
FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
ALL_TYPES = frozenset({"string", "number", "integer", "boolean", "object", "array", "null"})

Kind = tuple[frozenset[str] | None, Any]   # (top-level types or None, array item kind)


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def _ptr(*tokens: str) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens)


class Resolver:
    """Local ``#/...`` references inside one document."""

    def __init__(self, root: Any) -> None:
        self.root = root

    def lookup(self, ref: str) -> Any:
        node = self.root
        for raw in ref[2:].split("/") if ref.startswith("#/") else []:
            token = _unescape(raw)
            node = node[token] if isinstance(node, dict) else node[int(token)]
        return node

    def deref(self, node: Any) -> Any:
        seen: set[str] = set()
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            if node["$ref"] in seen:
                raise AssertionError(f"$ref cycle at {node['$ref']}")
            seen.add(node["$ref"])
            node = self.lookup(node["$ref"])
        return node


# -- types as sets ------------------------------------------------------------------------

def _value_type(value: Any) -> str:
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


def _both(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    if a is None:
        return b
    if b is None:
        return a
    out = set(a & b)
    if ("number" in a and "integer" in b) or ("integer" in a and "number" in b):
        out.add("integer")
    return frozenset(out)


def _either(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    return None if a is None or b is None else a | b


def types_of(schema: Any, res: Resolver, openapi30: bool,
             seen: frozenset[str] = frozenset()) -> frozenset[str] | None:
    """The JSON types a schema can accept; None: any."""
    if schema is True:
        return None
    if schema is False:
        return frozenset()
    if not isinstance(schema, dict):
        raise AssertionError(f"not a schema: {schema!r}")
    found: frozenset[str] | None = None
    raw = schema.get("type")
    if isinstance(raw, str | list):
        found = frozenset([raw] if isinstance(raw, str) else raw)
    elif "const" in schema:
        found = frozenset({_value_type(schema["const"])})
    elif isinstance(schema.get("enum"), list) and schema["enum"]:
        found = frozenset(_value_type(v) for v in schema["enum"])
    ref = schema.get("$ref")
    if isinstance(ref, str):
        inner = None if ref in seen else types_of(res.lookup(ref), res, openapi30,
                                                  seen | {ref})
        found = _both(found, inner)
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            union: frozenset[str] | None = frozenset()
            for part in schema[key]:
                union = _either(union, types_of(part, res, openapi30, seen))
            found = _both(found, union)
    for part in schema.get("allOf") or []:
        found = _both(found, types_of(part, res, openapi30, seen))
    # 3.0's nullable, honoured in 3.1 documents too (openai writes it 900 times there):
    # a response with null must validate, and an input may be null where the API says so.
    if schema.get("nullable") is True and found is not None:
        found = found | {"null"}
    if found is not None and "number" in found:
        found = found - {"integer"}   # number already admits every integer
    return found


def kind_of(schema: Any, res: Resolver, openapi30: bool) -> Kind:
    """Types at the top, and the item types when the value can only be an array."""
    top = types_of(schema, res, openapi30)
    if top is not None and top - {"null"} == {"array"}:
        items = _items(schema, res, set())
        return top, None if items is None else types_of(items, res, openapi30)
    return top, None


def _items(schema: Any, res: Resolver, seen: set[str]) -> Any:
    """The ``items`` of a schema that is an array, through refs and allOf/anyOf."""
    if not isinstance(schema, dict):
        return None
    if "items" in schema:
        return schema["items"]
    if isinstance(schema.get("$ref"), str) and schema["$ref"] not in seen:
        seen.add(schema["$ref"])
        return _items(res.lookup(schema["$ref"]), res, seen)
    found = [_items(p, res, seen) for key in ("allOf", "anyOf", "oneOf")
             for p in schema.get(key) or [] if not _is_null(p, res)]
    found = [f for f in found if f is not None]
    return found[0] if len(found) == 1 else None


def _is_null(schema: Any, res: Resolver) -> bool:
    schema = res.deref(schema)
    return isinstance(schema, dict) and schema.get("type") in ("null", ["null"])


# -- what the spec accepts ---------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    location: str
    wire: str | None          # None: the whole body
    kind: Kind
    required: bool
    where: str
    style: str | None = None
    explode: bool | None = None


@dataclass
class Operation:
    key: str
    pointer: str
    fields: list[Field]
    body_fields: list[Field]          # flattened body fields (if the body flattens)
    whole_body: Field | None          # the body as one argument
    flattens: bool                    # the body is an object with fields to flatten
    open_body: str | None             # why the body cannot be flattened without loss
    read_only: list[str]
    ignored_headers: list[str]
    media: str | None
    media_choices: list[str]


def _rank(media: str) -> int:
    base = media.split(";", maxsplit=1)[0].strip().lower()
    if base == "application/json":
        return 0
    if base == "text/json" or base.endswith("+json"):
        return 1
    if base in ("*/*", "application/*"):
        return 2
    if base == FORM:
        return 3
    if base == MULTIPART:
        return 4
    return 5


def _is_structured(media: str) -> bool:
    return _rank(media) < 5


def operations(document: dict[str, Any]) -> Iterator[Operation]:
    res = Resolver(document)
    openapi30 = str(document.get("openapi", "")).startswith("3.0")
    for path, raw_item in (document.get("paths") or {}).items():
        item = res.deref(raw_item)
        for method in METHODS:
            if isinstance(item.get(method), dict):
                yield _operation(res, openapi30, item, path, method)


def _operation(res: Resolver, openapi30: bool, item: dict[str, Any], path: str,
               method: str) -> Operation:
    op = item[method]
    at = _ptr("paths", path, method)
    params: dict[tuple[str, str], Any] = {}
    for owner in (item, op):
        for raw in owner.get("parameters") or []:
            param = res.deref(raw)
            params[(param["name"], param["in"])] = param
    fields, ignored = [], []
    for (name, location), param in params.items():
        if location == "header" and name.lower() in RESERVED_HEADERS:
            ignored.append(name)
            continue
        schema = param.get("schema")
        style = explode = None
        if schema is None:
            media = next(iter(param["content"]))
            schema = param["content"][media].get("schema", {})
        else:
            style = param.get("style", {"query": "form", "cookie": "form"}.get(location,
                                                                             "simple"))
            explode = param.get("explode", style == "form")
        fields.append(Field(location, name, kind_of(schema, res, openapi30),
                            location == "path" or param.get("required") is True,
                            f"{at}/parameters[{name}]", style, explode))
    result = Operation(f"{method.upper()} {path}", at, fields, [], None, False, None, [],
                       ignored, None, [])
    if "requestBody" in op:
        _body(res, openapi30, res.deref(op["requestBody"]), result)
    return result


def _body(res: Resolver, openapi30: bool, body: dict[str, Any], result: Operation) -> None:
    content = body.get("content") or {}
    if not content:
        return
    best = min(_rank(m) for m in content)
    result.media_choices = [m for m in content if _rank(m) == best]
    media = result.media_choices[0]
    result.media = media
    required = body.get("required") is True
    schema = (content[media] or {}).get("schema")
    where = f"{result.pointer}/requestBody/content{_ptr(media)}"
    if not _is_structured(media):
        result.whole_body = Field("body", None, (frozenset({"string"}), None), required, where)
        return
    schema = {} if schema is None else schema
    result.whole_body = Field("body", None, kind_of(schema, res, openapi30), required, where)
    target = res.deref(schema)
    if isinstance(target, dict):
        for key in ("oneOf", "anyOf", "not", "if", "additionalProperties",
                    "patternProperties", "unevaluatedProperties"):
            if key in target and target[key] is not False:
                result.open_body = f"the body schema has {key}"
        if target.get("nullable") is True or isinstance(
                target.get("type"), list):
            result.open_body = "the body may be null"
    fields = _object_fields(res, schema, set())
    if fields is None:
        return
    props, needed = fields
    result.flattens = True
    for name, prop in props.items():
        if _read_only(res, prop):
            result.read_only.append(name)
            continue
        kind = kind_of(prop, res, openapi30)
        if media == MULTIPART and isinstance(prop, dict) and prop.get("format") == "binary":
            kind = (frozenset({"string"}) | (kind[0] or frozenset()) & {"null"}, None)
        result.body_fields.append(Field("body", name, kind, required and name in needed,
                                        f"{where}/schema/properties/{name}"))


def _read_only(res: Resolver, prop: Any) -> bool:
    return isinstance(prop, dict) and (prop.get("readOnly") is True or (
        set(prop) <= {"$ref", "description", "nullable"} and "$ref" in prop
        and res.deref(prop).get("readOnly") is True))


def _object_fields(res: Resolver, schema: Any,
                   seen: set[str]) -> tuple[dict[str, Any], set[str]] | None:
    """Own + allOf properties and required names of an object schema, or None."""
    if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        if schema["$ref"] in seen:
            return None
        seen = seen | {schema["$ref"]}
    target = res.deref(schema)
    if not isinstance(target, dict):
        return None
    if "properties" not in target and "allOf" not in target:
        return None
    props = dict(target.get("properties") or {})
    needed = set(target.get("required") or [])
    for part in target.get("allOf") or []:
        inner = _object_fields(res, part, seen)
        if inner is None:
            continue
        props = {**inner[0], **props}
        needed |= inner[1]
    return props, needed


# -- the comparison ------------------------------------------------------------------------

def catalog_kind(tool: dict[str, Any], argument: str) -> Kind:
    schema = tool["inputSchema"]
    res = Resolver(schema)
    return kind_of(schema["properties"][argument], res, openapi30=False)


def same_kind(spec: Kind, tool: Kind) -> bool:
    return spec == tool


def compare(document: dict[str, Any], catalog: dict[str, Any]) -> list[str]:
    """Every way the catalog fails to carry what the document accepts."""
    problems: list[str] = []
    entries: dict[str, list[dict[str, Any]]] = {}
    for entry in catalog["tools"]:
        b = entry["binding"]
        entries.setdefault(f"{b['method']} {b['path']}", []).append(entry)
    excluded = {e["operation"] for e in catalog.get("exclusions", [])}
    keys = set()
    for op in operations(document):
        keys.add(op.key)
        found = entries.get(op.key, [])
        if op.key in excluded:
            continue
        if len(found) != 1:
            problems.append(f"{op.key}: {len(found)} tools bind it")
            continue
        problems += [f"{found[0]['tool']['name']} ({op.key}): {p}"
                     for p in _compare_one(op, found[0])]
    problems += [f"{k}: a tool binds an operation the spec does not have"
                 for k in sorted(set(entries) - keys)]
    return problems


def _compare_one(op: Operation, entry: dict[str, Any]) -> list[str]:
    tool, binding = entry["tool"], entry["binding"]
    problems: list[str] = []
    wires = {(b["in"], b["name"]): (arg, b) for arg, b in binding["arguments"].items()}
    required = set(tool["inputSchema"].get("required", []))
    ignored = {(i["in"], i["name"]) for i in binding.get("ignoredParameters", [])}
    for header in op.ignored_headers:
        if ("header", header) not in ignored:
            problems.append(f"reserved header '{header}' is not listed as ignored")
    if binding.get("requestContentType") not in (op.media, *op.media_choices):
        problems.append(f"request content type {binding.get('requestContentType')!r}, "
                        f"spec's best is {op.media!r}")
    expected = list(op.fields)
    whole = ("body", None) in wires
    flat = any(b["in"] == "body" and b["name"] is not None for b in binding["arguments"].values())
    if op.whole_body is not None:
        if whole or not (flat or op.flattens):
            expected.append(op.whole_body)
        else:
            expected += op.body_fields
            if op.open_body:
                problems.append(f"the body is flattened although {op.open_body}: what "
                                "does not fit a field is unreachable")
    for field in expected:
        problems += _check(field, tool, wires, required)
    wanted = {(f.location, f.wire) for f in expected}
    for wire, (arg, _) in sorted(wires.items(), key=str):
        if wire not in wanted:
            problems.append(f"argument '{arg}' ({wire[0]} {wire[1]!r}) is not in the spec")
    for name in op.read_only:
        if ("body", name) in wires:
            problems.append(f"readOnly body field '{name}' is an argument")
    body_args = {arg: b["name"] for arg, b in binding["arguments"].items()
                 if b["in"] == "body"}
    problems += [f"readOnly property left in inputSchema at {p}"
                 for p in read_only_paths(tool["inputSchema"], body_args)]
    return problems


def _check(field: Field, tool: dict[str, Any], wires: dict[Any, Any],
           required: set[str]) -> list[str]:
    label = f"{field.location} {field.wire!r}"
    if (field.location, field.wire) not in wires:
        return [f"{label} is not an argument (spec: {field.where})"]
    arg, bind = wires[(field.location, field.wire)]
    problems = []
    have = catalog_kind(tool, arg)
    if not same_kind(field.kind, have):
        problems.append(f"argument '{arg}' ({label}) is {_show(have)}, spec says "
                        f"{_show(field.kind)} (spec: {field.where})")
    if field.required and arg not in required:
        problems.append(f"argument '{arg}' ({label}) is required by the spec, not by the tool")
    if not field.required and arg in required:
        problems.append(f"argument '{arg}' ({label}) is required by the tool, not the spec")
    if field.style is not None and (bind.get("style"), bind.get("explode")) != (
            field.style, field.explode):
        problems.append(f"argument '{arg}' ({label}) binds style/explode "
                        f"{bind.get('style')}/{bind.get('explode')}, spec says "
                        f"{field.style}/{field.explode}")
    return problems


def _show(kind: Kind) -> str:
    top, items = kind
    text = "any" if top is None else "|".join(sorted(top))
    if items is not None or (top is not None and "array" in top):
        text += f"<{'any' if items is None else '|'.join(sorted(items))}>"
    return text


def read_only_paths(schema: dict[str, Any], body_args: dict[str, str | None]) -> list[str]:
    """Every readOnly property a caller could still send in a (2020-12) input schema.

    The top-level properties that are parameters are exempt: a path parameter whose
    schema is a shared, readOnly ``Id`` is still how the resource is addressed.
    """
    found: list[str] = []
    res = Resolver(schema)

    def hidden(prop: Any) -> bool:
        if not isinstance(prop, dict):
            return False
        if "readOnly" in prop:
            return prop["readOnly"] is True
        target = res.deref(prop) if isinstance(prop.get("$ref"), str) else None
        return isinstance(target, dict) and target.get("readOnly") is True

    def walk(node: Any, at: str) -> None:
        if isinstance(node, list):
            for i, v in enumerate(node):
                walk(v, f"{at}/{i}")
        elif isinstance(node, dict):
            found.extend(f"{at}/properties/{name}"
                         for name, prop in (node.get("properties") or {}).items()
                         if hidden(prop))
            for key, value in node.items():
                if key not in ("examples", "default", "const", "enum"):
                    walk(value, f"{at}/{key}")

    for name in sorted(body_args):
        prop = schema["properties"].get(name)
        if body_args[name] is not None and hidden(prop):
            found.append(f"/properties/{name}")
        walk(prop, f"/properties/{name}")
    for name, definition in sorted((schema.get("$defs") or {}).items()):
        walk(definition, f"/$defs/{name}")
    return found
