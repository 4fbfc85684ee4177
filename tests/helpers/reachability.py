"""An independent reading of what a spec lets a caller send, compared with a catalog.

It imports nothing of ``generator.normalise`` or ``generator.model`` and resolves
local ``#/...`` references itself, so a generator bug cannot hide by agreeing with
its own reading. Types are compared as sets of JSON types, array items likewise to
any depth, on the catalog's vocabulary (``integer|null``, ``array<string>``,
``any``): objects collapse to ``object``, enums to their values' types, ``integer``
stays apart from ``number``. Per operation: every parameter is an argument with the
binding's location, wire name and style (reserved headers: listed as ignored); the
content type is the documented preference; an exactly flattenable object body is
flattened and one that would lose values travels whole; every body field (own and
``allOf``, not readOnly) is an argument; nothing else is; no readOnly property is
left in an input schema at any depth.

``taught_only`` (hand-picked specs): a shape the walk was not taught (a field not of
one JSON type plus null, an unknown media type, an undecidable body) raises
``Untaught`` naming operation and field; off (the corpus), it is compared as a type
set. ``overrides``: the catalog may split operations, omit fields, add ``ifMatch``
and change required-ness; off, one tool per operation and the spec's required-ness.
Exclusions are honoured either way.
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
# Bodies carried whole as one string argument (text, or bytes as base64), by media type;
# the walk is taught these two, the corpus brings every other one.
RAW_MEDIA = ("text/plain", "application/octet-stream")
RAW = 6   # the rank of every other media type: the body is one string argument
# Keywords of an object body that flattening loses nothing of.
PLAIN = frozenset({"type", "properties", "required", "allOf", "description", "title",
                   "example", "examples", "readOnly", "writeOnly", "deprecated", "nullable",
                   "xml", "externalDocs", "$comment"})
# Keywords that let a body hold what no named field can carry.
OPEN = ("oneOf", "anyOf", "not", "if", "additionalProperties", "patternProperties",
        "unevaluatedProperties")

# (top-level JSON types, None: any; the item Kind when the value can only be an array)
Kind = tuple[frozenset[str] | None, Any]
ANY: Kind = (None, None)


class Untaught(Exception):
    """The walk met a shape it has not been taught to compare."""


# -- references ----------------------------------------------------------------------------

def _ptr(*tokens: str) -> str:
    return "".join("/" + t.replace("~", "~0").replace("/", "~1") for t in tokens)


def lookup(root: Any, ref: str, where: str) -> Any:
    """Resolve a local ``#/...`` reference inside ``root``."""
    if not isinstance(ref, str) or not ref.startswith("#"):
        raise Untaught(f"{where}: $ref {ref!r} is not local to the document")
    node = root
    for raw in ref[1:].split("/")[1:] if ref != "#" else []:
        token = raw.replace("~1", "/").replace("~0", "~")
        try:
            node = node[token] if isinstance(node, dict) else node[int(token)]
        except (KeyError, IndexError, ValueError, TypeError):
            raise Untaught(f"{where}: $ref {ref!r} does not resolve") from None
    return node


def deref(root: Any, node: Any, where: str) -> Any:
    """Follow a chain of ``$ref`` (for parameters, bodies, path items, schemas)."""
    seen: set[str] = set()
    while isinstance(node, dict) and isinstance(node.get("$ref"), str):
        if node["$ref"] in seen:
            raise Untaught(f"{where}: $ref cycle at {node['$ref']!r}")
        seen.add(node["$ref"])
        node = lookup(root, node["$ref"], where)
    return node


# -- types as sets ---------------------------------------------------------------------------

_VALUE_TYPES = {type(None): "null", bool: "boolean", int: "integer", float: "number",
                str: "string", list: "array"}


def _value_type(value: Any) -> str:
    return _VALUE_TYPES.get(type(value), "object")


def _both(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    if a is None or b is None:
        return b if a is None else a
    out = set(a & b)
    if ("number" in a and "integer" in b) or ("integer" in a and "number" in b):
        out.add("integer")
    return frozenset(out)


def _types(schema: Any, root: Any, where: str, seen: frozenset[str]) -> frozenset[str] | None:
    """The JSON types ``schema`` accepts; None: any. A recursive ``$ref`` adds nothing."""
    if schema is True:
        return None
    if schema is False:
        return frozenset()
    if not isinstance(schema, dict):
        raise Untaught(f"{where}: schema {schema!r} is not an object")
    raw = schema.get("type")
    found = frozenset([raw] if isinstance(raw, str) else raw) if isinstance(
        raw, str | list) else None
    if "const" in schema:
        found = _both(found, frozenset({_value_type(schema["const"])}))
    elif isinstance(schema.get("enum"), list) and schema["enum"]:
        found = _both(found, frozenset(_value_type(v) for v in schema["enum"]))
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        found = _both(found, _types(lookup(root, ref, where), root, where, seen | {ref}))
    for key in ("anyOf", "oneOf"):
        if isinstance(schema.get(key), list):
            union: frozenset[str] | None = frozenset()
            for i, part in enumerate(schema[key]):
                inner = _types(part, root, f"{where}/{key}/{i}", seen)
                union = None if union is None or inner is None else union | inner
            found = _both(found, union)
    for i, part in enumerate(schema.get("allOf") or []):
        found = _both(found, _types(part, root, f"{where}/allOf/{i}", seen))
    # 3.0's nullable by 3.0.3's letter (what a validating API does): beside a type, and
    # not past an enum without null; never in 3.1, which has no such keyword (openai
    # writes it 900 times there, and a 3.1 validator ignores it).
    enum = schema.get("enum")
    is_31 = isinstance(root, dict) and str(root.get("openapi", "")).startswith("3.1")
    if schema.get("nullable") is True and found is not None and "type" in schema and not (
            isinstance(enum, list) and None not in enum) and not is_31:
        found = found | {"null"}
    if found is not None and "number" in found:
        found = found - {"integer"}
    return found


def kind(schema: Any, root: Any, where: str, seen: frozenset[str] = frozenset()) -> Kind:
    """Types at the top and, when the value can only be an array, the items' Kind."""
    top = _types(schema, root, where, seen)
    if top is None or top - {"null"} != {"array"}:
        return top, None
    found = _items(schema, root, where, seen)
    if found is None:
        return top, ANY
    return top, kind(found[0], root, f"{where}/items", found[1])


def _items(schema: Any, root: Any, where: str,
           seen: frozenset[str]) -> tuple[Any, frozenset[str]] | None:
    """The ``items`` of an array schema, through ``$ref`` and combinators."""
    if not isinstance(schema, dict):
        return None
    if "items" in schema:
        return schema["items"], seen
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref not in seen:
        return _items(lookup(root, ref, where), root, where, seen | {ref})
    found = [f for key in ("allOf", "anyOf", "oneOf") for part in schema.get(key) or []
             if _types(part, root, where, seen) != {"null"}
             and (f := _items(part, root, where, seen)) is not None]
    return found[0] if len(found) == 1 else None


def show(value: Kind) -> str:
    """A Kind on the catalog's vocabulary: ``integer|null``, ``array<string>``, ``any``."""
    top, items = value
    if top is None:
        return "any"
    names = ["array<" + show(items) + ">" if t == "array" and items is not None else t
             for t in sorted(top - {"null"})]
    return "|".join(names + ["null"] * ("null" in top)) or "nothing"


def _taught(value: Kind) -> bool:
    """One JSON type (perhaps nullable), down to the items: what the walk was taught."""
    top, items = value
    return top is not None and len(top - {"null"}) == 1 and (items is None or _taught(items))


# -- what the spec lets a caller send --------------------------------------------------------

@dataclass(frozen=True)
class Field:
    location: str          # path | query | header | cookie | body
    wire: str | None       # None: the whole request body
    kind: Kind
    required: bool
    where: str             # JSON pointer into the spec, for messages
    style: str | None = None
    explode: bool | None = None


@dataclass
class Expected:
    """Everything one operation accepts, read from the spec alone."""

    key: str               # "PUT /channels/{id}"
    params: list[Field] = field(default_factory=list)
    ignored_headers: list[str] = field(default_factory=list)
    media: str | None = None
    whole: Field | None = None                 # the body as one argument
    fields: list[Field] = field(default_factory=list)   # the body's fields, flattened
    read_only: list[str] = field(default_factory=list)  # body fields a caller cannot set
    verdict: str = "whole"  # flat: must flatten; whole: must not; either: both are exact
    reason: str = ""        # why the body is not "flat"


def operations(document: dict[str, Any], taught_only: bool = True) -> Iterator[Expected]:
    for path, raw_item in (document.get("paths") or {}).items():
        item_at = _ptr("paths", path)
        item = deref(document, raw_item, item_at)
        for method in METHODS:
            if isinstance(item.get(method), dict):
                yield _operation(document, item, path, method, f"{item_at}/{method}",
                                 taught_only)


def _operation(doc: dict[str, Any], item: dict[str, Any], path: str, method: str, at: str,
               taught_only: bool) -> Expected:
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
        style = explode = None
        if schema is None and isinstance(param.get("content"), dict) and param["content"]:
            media = next(iter(param["content"]))
            schema = param["content"][media].get("schema")
            schema_at = f"{where}/content{_ptr(media)}/schema"
        else:
            style = param.get("style", "form" if location in ("query", "cookie") else "simple")
            explode = param.get("explode", style == "form")
        value = _field_kind({} if schema is None else schema, doc, expected.key, name,
                            schema_at, taught_only)
        expected.params.append(Field(location, name, value, location == "path" or (
            param.get("required") is True), where, style, explode))
    if "requestBody" in op:
        _request_body(doc, op["requestBody"], f"{at}/requestBody", expected, taught_only)
    return expected


def _field_kind(schema: Any, doc: Any, key: str, name: str, where: str,
                taught_only: bool) -> Kind:
    try:
        value = kind(schema, doc, where)
    except Untaught as exc:
        raise Untaught(f"{key}: field '{name}': {exc}") from None
    if taught_only and not _taught(value):
        raise Untaught(f"{key}: field '{name}': type {show(value)} is not one JSON type "
                       f"({where})")
    return value


# The documented preference: JSON, other JSON, JSON Patch (an array of operations, so
# after the JSON types that carry an object), a wildcard, form, multipart, the rest.
_RANKS = {"application/json": 0, "text/json": 1, "application/json-patch+json": 2,
          "*/*": 3, "application/*": 3, FORM: 4, MULTIPART: 5}


def _rank(media: str) -> int:
    base = media.split(";", maxsplit=1)[0].strip().lower()
    return _RANKS.get(base, 1 if base.endswith("+json") else RAW)


def _request_body(doc: dict[str, Any], raw: Any, at: str, expected: Expected,
                  taught_only: bool) -> None:
    body, key = deref(doc, raw, at), expected.key
    content = body.get("content") or {}
    if not content:
        if taught_only:
            raise Untaught(f"{key}: request body without content ({at})")
        return
    media = expected.media = min(content, key=_rank)   # ties: the first listed
    schema = (content[media] or {}).get("schema")
    where = f"{at}/content{_ptr(media)}/schema"
    required = body.get("required") is True
    raw_media = _rank(media) == RAW
    if taught_only:
        if raw_media and media.split(";")[0].strip().lower() not in RAW_MEDIA:
            raise Untaught(f"{key}: request body media type {media!r} ({at}/content)")
        for other, entry in content.items():
            if (entry or {}).get("schema") != schema:
                # A field only one media type carries would be unreachable through the other.
                raise Untaught(f"{key}: media types {media!r} and {other!r} carry different "
                               f"schemas ({at}/content)")
        if schema is None and not raw_media:
            raise Untaught(f"{key}: {media} request body without a schema ({where})")
    if raw_media:
        expected.whole = Field("body", None, (frozenset({"string"}), None), required, where)
        return
    schema = {} if schema is None else schema
    expected.verdict, expected.reason, props, needed = _shape(doc, schema, where, frozenset())
    if taught_only and expected.verdict == "either":
        raise Untaught(f"{key}: request body that may or may not flatten: {expected.reason} "
                       f"({where})")
    strict = taught_only and expected.verdict == "whole"
    expected.whole = Field("body", None, _field_kind(schema, doc, key, "(body)", where, strict),
                           required, where)
    for name, (prop, prop_at) in props.items():
        if _read_only(doc, prop, prop_at):
            expected.read_only.append(name)
            continue
        value = _field_kind(prop, doc, key, name, prop_at,
                            taught_only and expected.verdict == "flat")
        if media == MULTIPART and isinstance(prop, dict) and prop.get("format") == "binary":
            value = (frozenset({"string"}) | (value[0] or frozenset()) & {"null"}, None)
        style, explode = _form_encoding(content[media], media, name, value[0])
        expected.fields.append(Field("body", name, value, required and name in needed, prop_at,
                                     style, explode))


def _form_encoding(entry: Any, media: str, name: str,
                   kinds: frozenset[str] | None) -> tuple[str | None, bool | None]:
    """A form-urlencoded field's style/explode: its encoding's, else OpenAPI's default;
    ``("json", None)`` for a field written as its JSON text: OpenAPI 3.0.4/3.1.1 ("URL
    Encoded Form with JSON Values"): with none of style, explode, allowReserved, the
    field follows its contentType, whose default for an object is application/json."""
    if media.split(";", maxsplit=1)[0].strip().lower() != FORM:
        return None, None
    encoding = ((entry or {}).get("encoding") or {}).get(name) or {}
    if not any(key in encoding for key in ("style", "explode", "allowReserved")):
        ctype = encoding.get("contentType")
        if isinstance(ctype, str):
            bare = ctype.split(";", maxsplit=1)[0].strip().lower()
            as_json = bare == "application/json" or bare.endswith("+json")
        else:
            as_json = kinds is not None and "object" in kinds and "array" not in kinds
        if as_json:
            return "json", None
    style = encoding.get("style", "form")
    return style, encoding.get("explode", style == "form")


Shape = tuple[str, str, dict[str, tuple[Any, str]], set[str]]


def _shape(doc: Any, raw: Any, where: str, seen: frozenset[str], part: bool = False) -> Shape:
    """flat | whole | either, why, the own and ``allOf`` properties, the required names."""
    if isinstance(raw, dict) and isinstance(raw.get("$ref"), str):
        if raw["$ref"] in seen:
            return "either", "the body schema is recursive", {}, set()
        seen = seen | {raw["$ref"]}
    schema = deref(doc, raw, where)
    if not isinstance(schema, dict):
        return "whole", "the body schema is not an object", {}, set()
    for key in OPEN:
        if key in schema and schema[key] is not False:
            return "whole", f"the body schema has {key}", {}, set()
    if schema.get("nullable") is True or isinstance(schema.get("type"), list):
        return "whole", "the body may be null or more than an object", {}, set()
    if schema.get("type", "object") != "object":
        return "whole", f"the body is of type {schema['type']}", {}, set()
    if "properties" not in schema and "allOf" not in schema:
        # A bare object is a map; a bare allOf part (only `required`) flattens either way.
        return ("either" if part else "whole"), "an object schema without properties", {}, set()
    extra = sorted(k for k in schema if not k.startswith("x-") and k not in PLAIN
                   and k not in OPEN)   # OPEN ones are False here: closed
    verdict, reason = ("either", f"the body schema has {extra}") if extra else ("flat", "")
    if part and schema.get("additionalProperties") is False:
        verdict, reason = "either", "a closed allOf part"
    props = {name: (prop, f"{where}/properties{_ptr(name)}")
             for name, prop in (schema.get("properties") or {}).items()}
    needed = set(schema.get("required") or [])
    for i, raw_part in enumerate(schema.get("allOf") or []):
        inner = _shape(doc, raw_part, f"{where}/allOf/{i}", seen, part=True)
        if inner[0] == "whole":
            return inner
        if inner[0] == "either":
            verdict, reason = inner[0], inner[1]
        for name, (prop, prop_at) in inner[2].items():
            if name in props and props[name][0] != prop:
                return "whole", (f"body field '{name}' is declared twice differently "
                                 f"({props[name][1]} and {prop_at})"), {}, set()
            props.setdefault(name, (prop, prop_at))
        needed |= inner[3]
    if not part and schema.get("additionalProperties") is not False:
        # required yet given no schema: still a field a caller must be able to send
        for name in sorted(n for n in needed if isinstance(n, str) and n not in props):
            props[name] = ({}, f"{where}/required")
    return verdict, reason, props, needed


def _read_only(doc: Any, prop: Any, where: str, seen: frozenset[str] = frozenset()) -> bool:
    """readOnly on the property, on what it refers to (``$ref``), or on any of its
    ``allOf`` parts (every part holds for the whole: DigitalOcean's
    ``allOf: [{$ref: Connection}, {readOnly: true}]``)."""
    if not isinstance(prop, dict):
        return False
    if "readOnly" in prop:
        return prop["readOnly"] is True
    if isinstance(prop.get("$ref"), str):
        if prop["$ref"] in seen:
            return False
        return _read_only(doc, lookup(doc, prop["$ref"], where), where, seen | {prop["$ref"]})
    parts = prop.get("allOf")
    return isinstance(parts, list) and any(_read_only(doc, p, where, seen) for p in parts)


# -- the comparison ----------------------------------------------------------------------------

Wires = dict[tuple[str, str | None], tuple[str, dict[str, Any]]]


def compare(document: dict[str, Any], catalog: dict[str, Any], *, taught_only: bool = True,
            overrides: bool = True) -> list[str]:
    """Every way ``catalog`` fails to let a caller send what ``document`` accepts."""
    problems: list[str] = []
    by_route: dict[str, list[dict[str, Any]]] = {}
    for entry in catalog["tools"]:
        by_route.setdefault("{method} {path}".format(**entry["binding"]), []).append(entry)
    excluded = {e["operation"] for e in catalog.get("exclusions", [])}
    seen_routes = set()
    for expected in operations(document, taught_only):
        seen_routes.add(expected.key)
        entries = by_route.get(expected.key, [])
        names = [e["tool"]["name"] for e in entries]
        if expected.key in excluded:
            if entries:
                problems.append(f"{expected.key}: excluded, yet tools {names} bind it")
            continue
        if not entries:
            problems.append(f"{expected.key}: no tool binds this operation and it is not "
                            "excluded")
            continue
        if len(entries) > 1 and not overrides:
            problems.append(f"{expected.key}: tools {names} bind it; only an override "
                            "splits an operation")
        problems += _compare_operation(expected, entries, overrides)
    for route, entries in sorted(by_route.items()):
        if route not in seen_routes:
            problems.append(f"{route}: tools {[e['tool']['name'] for e in entries]} bind an "
                            "operation the spec does not have")
    return problems


def _compare_operation(expected: Expected, entries: list[dict[str, Any]],
                       overrides: bool) -> list[str]:
    problems = []
    key = expected.key
    wired: list[tuple[dict[str, Any], Wires]] = [(e, {
        (b["in"], b["name"]): (arg, b) for arg, b in e["binding"]["arguments"].items()})
        for e in entries]
    names = "/".join(e["tool"]["name"] for e in entries)
    carried_whole = any(("body", None) in wires for _, wires in wired)
    carried_flat = any(loc == "body" and wire is not None for _, w in wired for loc, wire in w)
    if expected.verdict == "whole" and carried_flat:
        problems.append(f"{names} ({key}): the body is flattened although {expected.reason}: "
                        "what does not fit a field is unreachable")
    flat = expected.verdict == "flat" or (expected.verdict == "either" and not carried_whole)
    body = expected.fields if flat else [f for f in [expected.whole] if f is not None]
    for entry, wires in wired:
        tool, binding = entry["tool"], entry["binding"]
        name = tool["name"]
        if binding.get("requestContentType") != expected.media:
            problems.append(f"{name} ({key}): request content type "
                            f"{binding.get('requestContentType')!r}, spec body is "
                            f"{expected.media!r}")
        for param in expected.params:
            # Parameters address the resource: every tool of the operation needs them all.
            problems += _check_field(name, key, param, tool, wires, overrides)
        ignored = {(i["in"], i["name"]) for i in binding.get("ignoredParameters", [])}
        problems += [f"{name} ({key}): reserved header '{header}' is neither an argument "
                     "nor in ignoredParameters" for header in expected.ignored_headers
                     if ("header", header) not in ignored]
        problems += [f"{name} ({key}): readOnly body field '{ro}' is argument "
                     f"'{wires[('body', ro)][0]}'" for ro in expected.read_only
                     if ("body", ro) in wires]
        body_args = {arg: b["name"] for arg, b in binding["arguments"].items()
                     if b["in"] == "body"}
        problems += [f"{name} ({key}): readOnly property left in inputSchema at {p}"
                     for p in read_only_paths(tool["inputSchema"], body_args)]
    omitted = {f for e in entries for f in e["binding"].get("omittedFields", {})} \
        if overrides else set()
    for body_field in body:
        carriers = [(e, w) for e, w in wired if ("body", body_field.wire) in w]
        label = _label(body_field)
        if not carriers and body_field.wire not in omitted:
            problems.append(f"{names} ({key}): {label} is not an argument "
                            f"(spec: {body_field.where})")
        if carriers and body_field.wire in omitted:
            problems.append(f"{key}: {label} is omitted, yet an argument")
        for entry, wires in carriers:
            problems += _check_field(entry["tool"]["name"], key, body_field, entry["tool"],
                                     wires, overrides)
    wanted = {(f.location, f.wire) for f in [*expected.params, *body]}
    for entry, wires in wired:
        for wire, (arg, _) in sorted(wires.items(), key=str):
            if wire in wanted or (overrides and wire == ("header", "If-Match")
                                  and arg == IF_MATCH_ARGUMENT):
                continue   # an override may add ifMatch where the spec is silent
            if wire[0] == "body" and wire[1] in expected.read_only:
                continue   # reported above
            problems.append(f"{entry['tool']['name']} ({key}): argument '{arg}' "
                            f"({wire[0]} '{wire[1]}') is not in the spec")
    return problems


def _check_field(tool_name: str, key: str, spec_field: Field, tool: dict[str, Any],
                 wires: Wires, overrides: bool) -> list[str]:
    label = _label(spec_field)
    found = wires.get((spec_field.location, spec_field.wire))
    if found is None:
        return [f"{tool_name} ({key}): {label} is not an argument (spec: {spec_field.where})"]
    argument, bind = found
    says = f"{tool_name} ({key}): argument '{argument}' ({label})"
    problems = []
    if (spec_field.location, (spec_field.wire or "").lower()) == ("header", "if-match") and \
            argument != IF_MATCH_ARGUMENT:
        problems.append(f"{tool_name} ({key}): If-Match is argument '{argument}', not "
                        f"'{IF_MATCH_ARGUMENT}'")
    schema = tool["inputSchema"]
    prop = (schema.get("properties") or {}).get(argument)
    have = "(not in inputSchema.properties)" if prop is None else show(
        kind(prop, schema, f"catalog: {tool_name}/inputSchema/properties/{argument}"))
    want = show(spec_field.kind)
    if have != want:
        problems.append(f"{says} is {have}, spec says {want} (spec: {spec_field.where})")
    required = argument in tool["inputSchema"].get("required", [])
    if not overrides and required != spec_field.required:   # overrides may change it
        problems.append(f"{says} is required by the {'tool' if required else 'spec'}, not "
                        f"by the {'spec' if required else 'tool'}")
    if spec_field.style == "json":
        ctype = str(bind.get("contentType") or "").split(";", maxsplit=1)[0].strip().lower()
        if bind.get("style") is not None or not (ctype == "application/json"
                                                 or ctype.endswith("+json")):
            problems.append(f"{says} binds style {bind.get('style')}, contentType "
                            f"{bind.get('contentType')}, spec says its JSON text")
    elif spec_field.style is not None and (bind.get("style"), bind.get("explode")) != (
            spec_field.style, spec_field.explode):
        problems.append(f"{says} binds style/explode {bind.get('style')}/"
                        f"{bind.get('explode')}, spec says "
                        f"{spec_field.style}/{spec_field.explode}")
    return problems


def _label(spec_field: Field) -> str:
    if spec_field.location != "body":
        return f"{spec_field.location} parameter '{spec_field.wire}'"
    return "the whole body" if spec_field.wire is None else f"body field '{spec_field.wire}'"


def read_only_paths(schema: dict[str, Any], body_args: dict[str, str | None]) -> list[str]:
    """Every readOnly property a caller could still send in a (2020-12) input schema;
    not parameters: one whose shared schema is a readOnly ``Id`` still addresses."""
    found: list[str] = []

    def hidden(prop: Any) -> bool:   # readOnly on the property wins over its target's
        target = deref(schema, prop, "") if isinstance(prop, dict) and (
            "readOnly" not in prop) else prop
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
