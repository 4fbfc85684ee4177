"""An independent reading of what a spec lets a caller send, and a comparison with a catalog.

This module deliberately does not import the generator's normalise or model code:
it walks the OpenAPI document with its own small resolver for local ``#/...``
references, so a bug in the generator cannot hide itself by agreeing with its own
reading. Types are compared at the catalog's ceiling (see the ErsatzTV parity
decision): ``string``, ``integer``, ``number``, ``boolean``, ``object`` and
``array<T>``, each optionally ``|null``. Every object model collapses to
``object`` and every enum to the type of its values; ``integer`` and ``number``
stay distinct.

A shape this walk was not taught raises ``Untaught`` naming the operation and the
field, so a new construct fails the test instead of being compared as nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
PARAM_LOCATIONS = ("path", "query", "header", "cookie")
# OpenAPI 3: header parameters with these names SHALL be ignored; HTTP sets them.
RESERVED_HEADERS = frozenset({"accept", "content-type", "authorization"})
IF_MATCH_ARGUMENT = "ifMatch"
FORM = "application/x-www-form-urlencoded"
MULTIPART = "multipart/form-data"
# Bodies carried whole as one string argument: text, or bytes (base64).
RAW_MEDIA = ("text/plain", "application/octet-stream")
# Words that describe a schema without constraining its type.
_ANNOTATIONS = frozenset({"description", "title", "default", "example", "examples",
                          "deprecated", "readOnly", "writeOnly", "format", "pattern",
                          "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                          "minLength", "maxLength", "minItems", "maxItems", "uniqueItems",
                          "multipleOf", "$comment", "externalDocs", "xml", "discriminator",
                          "contentEncoding", "contentMediaType", "minProperties",
                          "maxProperties", "required"})


class Untaught(Exception):
    """The walk met a shape it has not been taught to compare."""


# -- references ----------------------------------------------------------------------------

def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def lookup(root: Any, ref: str, where: str) -> Any:
    """Resolve a local ``#/...`` reference inside ``root``."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        raise Untaught(f"{where}: $ref {ref!r} is not local to the document")
    node = root
    for raw in ref[1:].split("/")[1:] if ref != "#" else []:
        token = _unescape(raw)
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise Untaught(f"{where}: $ref {ref!r} does not resolve")
    return node


def deref(root: Any, node: Any, where: str) -> Any:
    """Follow a chain of ``$ref`` (for parameters, bodies, path items, schemas)."""
    seen: set[str] = set()
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if ref in seen:
            raise Untaught(f"{where}: $ref cycle at {ref!r}")
        seen.add(ref)
        node = lookup(root, ref, where)
    return node


# -- types at the catalog's ceiling ----------------------------------------------------------

def _value_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def _is_null(schema: Any) -> bool:
    return isinstance(schema, dict) and (schema.get("type") in ("null", ["null"]) or schema in (
        {"const": None}, {"enum": [None]}))


def kind(schema: Any, root: Any, where: str, _seen: frozenset[str] = frozenset()) -> str:
    """``schema`` on the catalog's vocabulary: e.g. ``integer|null``, ``array<string>``."""
    base, nullable = _kind(schema, root, where, _seen)
    return f"{base}|null" if nullable else base


def _kind(schema: Any, root: Any, where: str, seen: frozenset[str]) -> tuple[str, bool]:
    if not isinstance(schema, dict):
        raise Untaught(f"{where}: schema {schema!r} is not an object")
    nullable = schema.get("nullable") is True          # OpenAPI 3.0
    if "$ref" in schema:
        ref = schema["$ref"]
        if ref in seen:
            raise Untaught(f"{where}: recursive $ref {ref!r} in a type this walk compares")
        base, inner_null = _kind(lookup(root, ref, where), root, where, seen | {ref})
        return base, nullable or inner_null
    for combo in ("anyOf", "oneOf"):
        if combo in schema:
            return _union(schema[combo], root, f"{where}/{combo}", seen, nullable)
    if "allOf" in schema:
        parts = schema["allOf"]
        if len(parts) == 1 and "type" not in schema:   # a $ref with siblings, 3.0 style
            base, inner_null = _kind(parts[0], root, f"{where}/allOf/0", seen)
            return base, nullable or inner_null
        if all(_object_like(deref(root, p, where)) for p in parts):
            return "object", nullable
        raise Untaught(f"{where}: allOf of non-object parts")
    types = schema.get("type")
    if isinstance(types, str):
        types = [types]
    if isinstance(types, list):
        nullable = nullable or "null" in types
        types = [t for t in types if t != "null"]
        if len(types) > 1:
            raise Untaught(f"{where}: a union of non-null types {types}")
        if not types:
            raise Untaught(f"{where}: a schema that only allows null")
        base = types[0]
    elif isinstance(schema.get("enum"), list) and schema["enum"]:
        values = schema["enum"]
        nullable = nullable or None in values
        found = {_value_type(v) for v in values if v is not None}
        if found == {"integer", "number"}:
            found = {"number"}
        if len(found) != 1:
            raise Untaught(f"{where}: enum mixes value types {sorted(found)}")
        base = found.pop()
    elif "const" in schema:
        if schema["const"] is None:
            raise Untaught(f"{where}: a schema that only allows null")
        base = _value_type(schema["const"])
    elif any(k in schema for k in ("properties", "additionalProperties")):
        base = "object"
    elif "items" in schema:
        base = "array"
    else:
        raise Untaught(f"{where}: a schema without a type ({sorted(schema)})")
    if isinstance(schema.get("enum"), list) and None in schema["enum"]:
        nullable = True
    if base == "array":
        items = schema.get("items")
        if not isinstance(items, dict):
            raise Untaught(f"{where}: an array without an items schema")
        return f"array<{kind(items, root, f'{where}/items', seen)}>", nullable
    return base, nullable


def _union(parts: Any, root: Any, where: str, seen: frozenset[str],
           nullable: bool) -> tuple[str, bool]:
    if not isinstance(parts, list):
        raise Untaught(f"{where}: not a list")
    kinds = set()
    for i, part in enumerate(parts):
        if _is_null(part):
            nullable = True
            continue
        base, inner_null = _kind(part, root, f"{where}/{i}", seen)
        kinds.add(base)
        nullable = nullable or inner_null
    if len(kinds) != 1:
        raise Untaught(f"{where}: a union of {len(kinds)} non-null types {sorted(kinds)}")
    return kinds.pop(), nullable


def _object_like(schema: Any) -> bool:
    if not isinstance(schema, dict):
        return False
    types = schema.get("type")
    return types == "object" or (types is None and any(
        k in schema for k in ("properties", "allOf", "additionalProperties")))


# -- what the spec lets a caller send --------------------------------------------------------

@dataclass(frozen=True)
class Field:
    location: str          # path | query | header | cookie | body
    wire: str | None       # None: the whole request body
    kind: str
    where: str             # JSON pointer into the spec, for messages


@dataclass
class Expected:
    """Everything one operation accepts, read from the spec alone."""

    key: str               # "PUT /channels/{id}"
    params: list[Field] = field(default_factory=list)
    body: list[Field] = field(default_factory=list)
    read_only: list[str] = field(default_factory=list)   # body fields a caller cannot set
    ignored_headers: list[str] = field(default_factory=list)
    media: str | None = None


def _ptr(*tokens: str) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens)


def operations(document: dict[str, Any]) -> Iterator[Expected]:
    for path, raw_item in (document.get("paths") or {}).items():
        item_at = _ptr("paths", path)
        item = deref(document, raw_item, item_at)
        for method in METHODS:
            if isinstance(item.get(method), dict):
                yield _operation(document, item, path, method, f"{item_at}/{method}")


def _operation(doc: dict[str, Any], item: dict[str, Any], path: str, method: str,
               at: str) -> Expected:
    op = item[method]
    expected = Expected(f"{method.upper()} {path}")
    merged: dict[tuple[str, str], tuple[dict[str, Any], str]] = {}
    for owner, owner_at in ((item, at.rsplit("/", 1)[0]), (op, at)):
        for i, raw in enumerate(owner.get("parameters") or []):
            where = f"{owner_at}/parameters/{i}"
            param = deref(doc, raw, where)
            merged[(param["name"], param["in"])] = (param, where)
    for (name, location), (param, where) in merged.items():
        if location not in PARAM_LOCATIONS:
            raise Untaught(f"{expected.key}: parameter '{name}' in {location!r} ({where})")
        if location == "header" and name.lower() in RESERVED_HEADERS:
            expected.ignored_headers.append(name)
            continue
        schema, schema_at = param.get("schema"), f"{where}/schema"
        if schema is None and isinstance(param.get("content"), dict) and param["content"]:
            media = next(iter(param["content"]))
            schema = param["content"][media].get("schema")
            schema_at = f"{where}/content{_ptr(media)}/schema"
        if schema is None:
            raise Untaught(f"{expected.key}: parameter '{name}' has no schema ({where})")
        expected.params.append(Field(location, name, _field_kind(schema, doc, expected.key,
                                                                 name, schema_at), where))
    if "requestBody" in op:
        _request_body(doc, op["requestBody"], f"{at}/requestBody", expected)
    return expected


def _field_kind(schema: Any, doc: Any, key: str, name: str, where: str) -> str:
    try:
        return kind(schema, doc, where)
    except Untaught as exc:
        raise Untaught(f"{key}: field '{name}': {exc}") from None


def _choose_media(content: dict[str, Any], key: str, where: str) -> str:
    def rank(media: str) -> int:
        base = media.split(";", maxsplit=1)[0].strip().lower()
        if base == "application/json":
            return 0
        if base == "text/json" or base.endswith("+json"):
            return 1
        order = (FORM, MULTIPART, *RAW_MEDIA)
        return 2 + order.index(base) if base in order else 99
    chosen = min(content, key=lambda m: (rank(m), list(content).index(m)))
    if rank(chosen) == 99:
        raise Untaught(f"{key}: request body media type {chosen!r} ({where})")
    return chosen


def _request_body(doc: dict[str, Any], raw: Any, at: str, expected: Expected) -> None:
    body = deref(doc, raw, at)
    content = body.get("content") or {}
    if not content:
        raise Untaught(f"{expected.key}: request body without content ({at})")
    media = _choose_media(content, expected.key, f"{at}/content")
    expected.media = media
    schema = content[media].get("schema") if isinstance(content[media], dict) else None
    for other, entry in content.items():
        if (entry or {}).get("schema") != schema:
            # A field only one media type carries would be unreachable through the other.
            raise Untaught(f"{expected.key}: media types {media!r} and {other!r} carry "
                           f"different schemas ({at}/content)")
    where = f"{at}/content{_ptr(media)}/schema"
    if media.split(";")[0].strip().lower() in RAW_MEDIA:
        expected.body.append(Field("body", None, "string", where))
        return
    if schema is None:
        raise Untaught(f"{expected.key}: {media} request body without a schema ({where})")
    target = deref(doc, schema, where)
    if _flattens(target):
        for name, prop, prop_at in _properties(doc, target, where, expected.key):
            if _read_only(doc, prop, prop_at):
                expected.read_only.append(name)
                continue
            expected.body.append(Field("body", name,
                                       _field_kind(prop, doc, expected.key, name, prop_at),
                                       prop_at))
        return
    expected.body.append(Field("body", None,
                               _field_kind(schema, doc, expected.key, "(body)", where), where))


def _flattens(schema: Any) -> bool:
    """An object body whose fields become arguments: closed to extras, not nullable."""
    if not isinstance(schema, dict) or not _object_like(schema):
        return False
    if schema.get("nullable") is True or isinstance(schema.get("type"), list):
        return False
    if any(k in schema for k in ("oneOf", "anyOf", "not", "if")):
        return False
    if schema.get("additionalProperties", False) is not False:
        return False   # a map: extra keys travel only in a whole-body argument
    return "properties" in schema or "allOf" in schema


def _read_only(doc: Any, prop: Any, where: str) -> bool:
    """readOnly on the property, or on what it refers to (``$ref``, a one-part allOf)."""
    seen: set[str] = set()
    while isinstance(prop, dict):
        if prop.get("readOnly") is True:
            return True
        if isinstance(prop.get("$ref"), str) and prop["$ref"] not in seen:
            seen.add(prop["$ref"])
            prop = lookup(doc, prop["$ref"], where)
        elif isinstance(prop.get("allOf"), list) and len(prop["allOf"]) == 1:
            prop = prop["allOf"][0]
        else:
            return False
    return False


def _properties(doc: Any, schema: dict[str, Any], where: str,
                key: str) -> list[tuple[str, Any, str]]:
    """Own and ``allOf`` properties of an object body, each once."""
    found: dict[str, tuple[Any, str]] = {}
    for name, prop in (schema.get("properties") or {}).items():
        found[name] = (prop, f"{where}/properties{_ptr(name)}")
    for i, raw in enumerate(schema.get("allOf") or []):
        part_at = f"{where}/allOf/{i}"
        part = deref(doc, raw, part_at)
        if not _flattens(part):
            raise Untaught(f"{key}: request body allOf part that is not a plain object "
                           f"({part_at})")
        for name, prop, prop_at in _properties(doc, part, part_at, key):
            if name in found and found[name][0] != prop:
                raise Untaught(f"{key}: body field '{name}' declared twice differently "
                               f"({found[name][1]} and {prop_at})")
            found.setdefault(name, (prop, prop_at))
    return [(name, prop, at) for name, (prop, at) in found.items()]


# -- the comparison ----------------------------------------------------------------------------

def _tool_kind(tool: dict[str, Any], argument: str) -> str:
    schema = tool["inputSchema"]
    prop = (schema.get("properties") or {}).get(argument)
    if prop is None:
        return "(not in inputSchema.properties)"
    try:
        return kind(prop, schema, f"{tool['name']}/inputSchema/properties/{argument}")
    except Untaught as exc:
        raise Untaught(f"catalog: {exc}") from None


def compare(document: dict[str, Any], catalog: dict[str, Any]) -> list[str]:
    """Every way ``catalog`` fails to let a caller send what ``document`` accepts."""
    problems: list[str] = []
    by_route: dict[str, list[dict[str, Any]]] = {}
    for entry in catalog["tools"]:
        binding = entry["binding"]
        by_route.setdefault(f"{binding['method']} {binding['path']}", []).append(entry)
    excluded = {e["operation"] for e in catalog.get("exclusions", [])}
    seen_routes = set()
    for expected in operations(document):
        seen_routes.add(expected.key)
        entries = by_route.get(expected.key, [])
        if expected.key in excluded:
            if entries:
                problems.append(f"{expected.key}: excluded, yet tools "
                                f"{[e['tool']['name'] for e in entries]} bind it")
            continue
        if not entries:
            problems.append(f"{expected.key}: no tool binds this operation and it is not "
                            "excluded")
            continue
        problems += _compare_operation(expected, entries)
    for route, entries in sorted(by_route.items()):
        if route not in seen_routes:
            problems.append(f"{route}: tools {[e['tool']['name'] for e in entries]} bind an "
                            "operation the spec does not have")
    return problems


def _by_wire(entry: dict[str, Any]) -> dict[tuple[str, str | None], str]:
    return {(b["in"], b["name"]): arg for arg, b in entry["binding"]["arguments"].items()}


def _compare_operation(expected: Expected, entries: list[dict[str, Any]]) -> list[str]:
    problems = []
    for entry in entries:
        tool, binding = entry["tool"], entry["binding"]
        name = tool["name"]
        wires = _by_wire(entry)
        if binding.get("requestContentType") != expected.media:
            problems.append(f"{name} ({expected.key}): request content type "
                            f"{binding.get('requestContentType')!r}, spec body is "
                            f"{expected.media!r}")
        for param in expected.params:
            # Parameters address the resource: every tool of the operation needs them all.
            problems += _check_field(name, expected.key, param, tool, wires)
        ignored = {(i["in"], i["name"]) for i in binding.get("ignoredParameters", [])}
        for header in expected.ignored_headers:
            if ("header", header) not in ignored:
                problems.append(f"{name} ({expected.key}): reserved header '{header}' is "
                                "neither an argument nor in ignoredParameters")
        for ro in expected.read_only:
            if ("body", ro) in wires:
                problems.append(f"{name} ({expected.key}): readOnly body field '{ro}' is "
                                f"argument '{wires[('body', ro)]}'")
    omitted = {f for e in entries for f in e["binding"].get("omittedFields", {})}
    for body_field in expected.body:
        carriers = [e for e in entries if ("body", body_field.wire) in _by_wire(e)]
        label = _label(body_field)
        if not carriers and body_field.wire not in omitted:
            names = [e["tool"]["name"] for e in entries]
            problems.append(f"{'/'.join(names)} ({expected.key}): {label} is not an "
                            f"argument (spec: {body_field.where})")
        if carriers and body_field.wire in omitted:
            problems.append(f"{expected.key}: {label} is omitted, yet an argument")
        for entry in carriers:
            problems += _check_field(entry["tool"]["name"], expected.key, body_field,
                                     entry["tool"], _by_wire(entry))
    wanted = {(f.location, f.wire) for f in [*expected.params, *expected.body]}
    for entry in entries:
        for wire, arg in sorted(_by_wire(entry).items(), key=str):
            if wire in wanted or (wire == ("header", "If-Match") and arg == IF_MATCH_ARGUMENT):
                continue   # an override may add ifMatch where the spec is silent
            if wire[0] == "body" and wire[1] in expected.read_only:
                continue   # reported above
            problems.append(f"{entry['tool']['name']} ({expected.key}): argument '{arg}' "
                            f"({wire[0]} '{wire[1]}') is not in the spec")
    return problems


def _check_field(tool_name: str, key: str, spec_field: Field, tool: dict[str, Any],
                 wires: dict[tuple[str, str | None], str]) -> list[str]:
    label = _label(spec_field)
    argument = wires.get((spec_field.location, spec_field.wire))
    if argument is None:
        return [f"{tool_name} ({key}): {label} is not an argument (spec: {spec_field.where})"]
    problems = []
    if (spec_field.location, (spec_field.wire or "").lower()) == ("header", "if-match") and \
            argument != IF_MATCH_ARGUMENT:
        problems.append(f"{tool_name} ({key}): If-Match is argument '{argument}', not "
                        f"'{IF_MATCH_ARGUMENT}'")
    have = _tool_kind(tool, argument)
    if have != spec_field.kind:
        problems.append(f"{tool_name} ({key}): argument '{argument}' ({label}) is {have}, "
                        f"spec says {spec_field.kind} (spec: {spec_field.where})")
    return problems


def _label(spec_field: Field) -> str:
    if spec_field.location != "body":
        return f"{spec_field.location} parameter '{spec_field.wire}'"
    return "the whole body" if spec_field.wire is None else f"body field '{spec_field.wire}'"
