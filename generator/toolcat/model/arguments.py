"""Tool arguments: parameters and request-body fields, flattened into one object.

Path, query, header and cookie parameters and the properties of an object body
become properties of ``inputSchema``; a body that is not a plain object (an array,
a map, a ``oneOf``, text or bytes) is carried whole as one argument. Names that
collide (``StartTime`` and ``StartTime<``; a path ``id`` and a body ``id``) are
settled by ``argument_names.py`` independently of spec order; the binding keeps
every wire name, so nothing is lost and nothing overwrites anything.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..errors import fail
from ..normalise.defs import Definitions
from ..normalise.merge import merged_object
from ..vocab.mcp import IF_MATCH
from ..vocab.pointers import LOCAL_DEFS, escape_token, unescape_token
from . import deep_names, media, wire
from .argument_names import Wanted, assign
from .naming import argument_name
from .operations import Operation, resolve_object
from .shapes import mapping
from .types import ArgumentBinding

# HTTP decides these from the binding; OpenAPI 3 says such parameters SHALL be ignored.
RESERVED_HEADERS = frozenset({"accept", "content-type", "authorization"})
_DEFAULT_STYLE = {"path": ("simple", False), "query": ("form", True),
                  "header": ("simple", False), "cookie": ("form", True)}


@dataclass
class Candidate:
    wire: str | None
    location: str
    schema: Any
    required: bool
    binding: dict[str, Any]


@dataclass(frozen=True)
class Inputs:
    schema: dict[str, Any]
    bindings: tuple[ArgumentBinding, ...]
    ignored: tuple[dict[str, str], ...]
    content_type: str | None
    defs: frozenset[str]
    body_required: bool = False     # the spec requires a body (send {} when no field is given)


def _param(defs: Definitions, param: dict[str, Any], loc: str,
           located: frozenset[str] = frozenset(),
           credentials: frozenset[str] = frozenset()) -> tuple[Candidate, set[str]]:
    """One parameter's argument. An exploded form object's members must not take the name
    of any parameter of its location (``located``, its own name aside) nor of an apiKey the
    operation's security sends there (``credentials``). Only an object needs them:
    computing them for every parameter cost N² for N parameters (issue 28 item 12).

    Once per parameter object and location (and, for such an object, its neighbours'
    names): a parameter shared through ``$ref`` (GitHub's ``owner``, ``per_page``: 3,526
    uses of 582) is the same argument in every operation. Its schema is shared, as the
    ``$defs`` entries are: nothing after drafting writes into a tool's schema in place.
    """
    spec_key = ("param_spec", id(param), loc)   # what the argument depends on, once
    if spec_key not in defs.memo:
        defs.memo[spec_key] = (param, _param_spec(defs, param, loc))
    spec: _ParamSpec = defs.memo[spec_key][1]
    key = ("param", id(param), loc, spec.spread and located, spec.spread and credentials)
    if key not in defs.memo:
        defs.memo[key] = (param, _param_of(defs, param, spec, located, credentials))
    found: tuple[Candidate, frozenset[str]] = defs.memo[key][1]
    return found[0], set(found[1])


@dataclass(frozen=True)
class _ParamSpec:
    """What a parameter says about its schema and serialisation, before any rewriting."""

    raw_schema: Any
    loc: str                   # the pointer of its schema
    extra: dict[str, Any]      # the binding's content_type, or style/explode/allowReserved
    target: Any                # the schema, its top-level $refs followed
    spread: bool               # an exploded form object: its members are query/cookie names
    resolved: bool = True      # False: following its $refs failed (``target`` unknown)


def _param_spec(defs: Definitions, param: dict[str, Any], loc: str) -> _ParamSpec:
    location = param["in"]
    extra: dict[str, Any] = {}
    raw_schema = param.get("schema")
    if raw_schema is None and isinstance(param.get("content"), dict) and param["content"]:
        ctype = next(iter(param["content"]))
        raw_schema = param["content"][ctype].get("schema", {})
        extra["content_type"] = ctype
        return _ParamSpec(raw_schema, f"{loc}/content/{escape_token(ctype)}/schema", extra,
                          None, False)
    loc = f"{loc}/schema"
    style = param.get("style", _DEFAULT_STYLE.get(location, ("simple", False))[0])
    extra["style"] = style
    extra["explode"] = param.get("explode", style == "form")
    if param.get("allowReserved") is True:
        extra["allow_reserved"] = True
    try:
        target = defs.resolve_shallow(raw_schema, loc)[0] if raw_schema is not None else None
    except Exception:   # raised again where it was: after rewriting, which locates it better
        return _ParamSpec(raw_schema, loc, extra, None, True, resolved=False)
    kinds = wire.json_kinds(target)
    spread = extra["style"] == "form" and extra["explode"] and location in (
        "query", "cookie") and (kinds is None or "object" in kinds)
    return _ParamSpec(raw_schema, loc, extra, target, bool(spread))


def _param_of(defs: Definitions, param: dict[str, Any], spec: _ParamSpec,
              located: frozenset[str], credentials: frozenset[str]
              ) -> tuple[Candidate, frozenset[str]]:
    location, raw_schema, loc, extra = param["in"], spec.raw_schema, spec.loc, spec.extra
    schema, refs = defs.rewrite(raw_schema if raw_schema is not None else {}, loc, "input")
    schema = defs.relocated(_describe(schema, param), schema)
    required = location == "path" or param.get("required") is True
    if "content_type" not in extra:   # a JSON-encoded value is never empty on the wire
        target = spec.target if spec.resolved else defs.resolve_shallow(raw_schema, loc)[0]
        taken = ((located - {param["name"]} - _member_names(defs, raw_schema, loc, 0))
                 | credentials
                 if spec.spread else frozenset())
        schema = defs.relocated(wire.parameter_schema(schema, target, location,
                                                      param.get("allowEmptyValue") is True,
                                                      required, taken, extra["style"]),
                                schema)
        if extra["style"] == "deepObject":
            schema = _deep_names(defs, schema, raw_schema, loc)
    return Candidate(param["name"], location, schema, required, extra), refs


def _deep_names(defs: Definitions, schema: Any, raw: Any, loc: str) -> Any:
    """``schema`` with the names rule of deepObject below its top (deep_names.py)."""
    below = deep_names.constraint(raw, loc, defs.resolve_shallow, defs.deep_memo)
    if below is None or not isinstance(schema, dict):
        return schema
    return defs.relocated({**schema, "allOf": [*schema.get("allOf", []), below]}, schema)


def _member_names(defs: Definitions, raw: Any, loc: str, depth: int) -> frozenset[str]:
    """The property names an object schema declares, through ``$ref`` and
    ``allOf``/``oneOf``/``anyOf``."""
    if raw is None or depth > 8:
        return frozenset()
    schema, where = defs.resolve_shallow(raw, loc)
    if not isinstance(schema, dict):
        return frozenset()
    props = schema.get("properties")
    names = frozenset(props) if isinstance(props, dict) else frozenset()
    for key in ("allOf", "oneOf", "anyOf"):
        branches = schema.get(key)
        for i, branch in enumerate(branches if isinstance(branches, list) else []):
            names |= _member_names(defs, branch, f"{where}/{key}/{i}", depth + 1)
    return names


def _describe(schema: Any, source: dict[str, Any]) -> Any:
    if not isinstance(schema, dict):
        return schema
    out = dict(schema)
    for key in ("description", "deprecated"):
        if key in source and key not in out:
            out[key] = source[key]
    if "example" in source and "examples" not in out:
        out["examples"] = [source["example"]]
    return out


@dataclass(frozen=True)
class Body:
    candidates: list[Candidate]
    content_type: str | None
    refs: set[str]
    required: bool = False                       # requestBody.required
    spec_required: frozenset[str] = frozenset()  # wire names the body schema requires


def _body(defs: Definitions, op: Operation) -> Body:
    if "requestBody" not in op.node:
        return Body([], None, set())
    body, loc = resolve_object(defs, op.node["requestBody"], f"{op.pointer}/requestBody",
                               "a request body")
    content = mapping(defs.file, body.get("content"), f"{loc}/content", "'content'")
    ctype = media.choose(content)
    if ctype is None:
        return Body([], None, set())
    required = body.get("required") is True
    loc = f"{loc}/content/{escape_token(ctype)}"
    entry = mapping(defs.file, content[ctype], loc, "a media type object")
    raw = entry.get("schema")
    target = defs.resolve_shallow(raw, f"{loc}/schema")[0] if raw is not None else None
    structured = media.is_json(ctype) or media.is_form(ctype) or media.is_multipart(ctype)
    if not structured or (media.is_wildcard(ctype) and media.is_string_schema(target)):
        rewritten, refs = (defs.rewrite(target, f"{loc}/schema", "input")
                           if isinstance(target, dict) else (None, frozenset()))
        schema = media.raw_body_schema(ctype, rewritten)
        used = set(refs) if _has_ref(schema) else set()
        return Body([Candidate(None, "body", _describe(schema, body), required, {})], ctype, used,
                    required)
    raw = raw if raw is not None else {}
    flat = merged_object(defs, raw, f"{loc}/schema")
    if flat is None:
        schema, refs = defs.rewrite(raw, f"{loc}/schema", "input")
        described = defs.relocated(_closed_top(defs, _describe(schema, body)), schema)
        if media.is_form(ctype):   # form-urlencoded
            described = defs.relocated(wire.form_members(described), schema)
        return Body([Candidate(None, "body", described, required, {})], ctype, set(refs),
                    required)
    schema, refs = defs.rewrite(flat.schema, f"{loc}/schema", "input", origins=flat.origins)
    needed = _required(schema) if required else set()
    encoding = entry.get("encoding")
    encoding = encoding if isinstance(encoding, dict) else {}
    out = []
    raw_props = flat.schema.get("properties")
    raw_props = raw_props if isinstance(raw_props, dict) else {}
    form = media.is_form(ctype) or media.is_multipart(ctype)
    for name, prop in (schema.get("properties") or {}).items():
        if prop is False:
            continue   # a readOnly field: never an argument (nor sent: the top is closed)
        part = _binary_parts(prop) if media.is_multipart(ctype) else prop
        target = defs.resolve_shallow(raw_props.get(name), f"{loc}/schema")[0] if form else None
        as_json = media.is_form(ctype) and _json_form_field(encoding.get(name), target)
        if form and name in needed and not as_json:
            part = defs.relocated(wire.form_field_schema(part, target,
                                                         media.is_multipart(ctype)), part)
        extra = _encoding(ctype, encoding.get(name), as_json)
        if media.is_form(ctype) and extra.get("style") == "deepObject":
            part = defs.relocated(wire.deep_object_field_schema(part, target), part)
            part = _deep_names(defs, part, raw_props.get(name), f"{loc}/schema")
        out.append(Candidate(name, "body", part, name in needed, extra))
    out += [Candidate(name, "body", {"description": UNDECLARED}, name in needed,
                      _encoding(ctype, encoding.get(name)))
            for name in _required_undeclared(schema)]
    spec_required = frozenset(_required(schema))
    return Body(out, ctype, set(refs), required, spec_required)


def _required(schema: dict[str, Any]) -> set[str]:
    """The names a rewritten object schema requires (anything else there is left to
    the meta-schema check, which refuses it with its location)."""
    names = schema.get("required")
    return {r for r in names if isinstance(r, str)} if isinstance(names, list) else set()


def _closed_top(defs: Definitions, schema: Any) -> Any:
    """A whole body (a union the fields cannot be taken from) limited, at its top, to
    the names its branches declare, as a body split into arguments is (the inputSchema's
    ``additionalProperties: false``): an object schema that only omits
    ``additionalProperties`` admits any other name by the letter of JSON Schema, so
    drawn or guessed names (openai ``create_response`` ``{"": null}``, a readOnly field
    echoed back) went out as fields the document does not declare. A branch open on
    purpose (``additionalProperties``, ``patternProperties``, a free-form object) keeps
    the body open."""
    if not isinstance(schema, dict) or schema.get("unevaluatedProperties") is False \
            or schema.get("additionalProperties") is False:
        return schema   # closed by the document already
    names, is_open = _top_names(defs, schema, 0, frozenset())
    if is_open or not names or "propertyNames" in schema:
        return schema
    return {**schema, "propertyNames": {"enum": sorted(names)}}


_OPENERS = ("patternProperties", "not", "if", "dependentSchemas", "$dynamicRef",
            "$recursiveRef")


def _top_names(defs: Definitions, schema: Any, depth: int,
               seen: frozenset[str]) -> tuple[set[str], bool]:
    """Top-level names an (emitted) input schema declares, through ``$defs`` references
    and allOf/anyOf/oneOf; ``open`` when an object may carry others."""
    if depth > 16 or not isinstance(schema, dict):
        return set(), schema is not False
    kind = schema.get("type")
    kinds = {kind} if isinstance(kind, str) else set(kind) if isinstance(kind, list) else None
    if kinds is not None and "object" not in kinds:
        return set(), False   # never an object: propertyNames does not bind it
    names: set[str] = set()
    subs = False
    is_open = any(k in schema for k in _OPENERS) or schema.get(
        "additionalProperties", False) is not False or schema.get(
        "unevaluatedProperties", False) is not False
    ref = schema.get("$ref")
    if isinstance(ref, str):
        if not ref.startswith(LOCAL_DEFS):
            return set(), True
        name = unescape_token(ref[len(LOCAL_DEFS):])
        if name in seen:
            return set(), True
        found, open_ref = _top_names(defs, defs.definition(name, "input")[0], depth + 1,
                                     seen | {name})
        names |= found
        is_open = is_open or open_ref
        subs = True
    if isinstance(schema.get("properties"), dict):
        names |= {n for n, sub in schema["properties"].items() if sub is not False}
    if isinstance(schema.get("required"), list):
        names |= {r for r in schema["required"] if isinstance(r, str)}
    for key in ("allOf", "anyOf", "oneOf"):
        for part in schema.get(key) or []:
            found, open_part = _top_names(defs, part, depth + 1, seen)
            names |= found
            is_open = is_open or open_part
            subs = True
    if not names and not subs:
        return names, True   # a free-form object
    return names, is_open


UNDECLARED = "Required by the API; the document gives it no schema, so any value."


def _required_undeclared(schema: dict[str, Any]) -> list[str]:
    """Names the body requires but declares no property for (DigitalOcean's uptime
    check requires ``method``): in an object open to other names, an argument of any
    value, or no call could ever send the body the API requires."""
    if schema.get("additionalProperties") is False:
        return []   # closed: no body can satisfy it (the document's fault, not ours)
    props = schema.get("properties") or {}
    return sorted(r for r in _required(schema) if r not in props)


def _has_ref(node: Any) -> bool:
    if isinstance(node, dict):
        return "$ref" in node or any(_has_ref(v) for v in node.values())
    return isinstance(node, list) and any(_has_ref(v) for v in node)


_STYLE_KEYS = ("style", "explode", "allowReserved")


def _json_form_field(entry: Any, target: Any) -> bool:
    """A form-urlencoded field written as one JSON value (``address={"city":...}``).

    OpenAPI 3.0.4 / 3.1.1 (4.7.15.2.1 / 4.8.15.2.1, "URL Encoded Form with JSON
    Values"): an Encoding Object without ``style``, ``explode`` and ``allowReserved``
    is the equivalent of ``content`` with its ``contentType``, whose default for an
    object is ``application/json``: an object field without them is its JSON text.
    (Lichess' ``grouping`` was spread into its members, nested ones as JSON.)
    """
    entry = entry if isinstance(entry, dict) else {}
    if any(k in entry for k in _STYLE_KEYS):
        return False
    if isinstance(entry.get("contentType"), str):
        return media.is_json(entry["contentType"])
    kinds = wire.json_kinds(target)
    return kinds is not None and "object" in kinds and "array" not in kinds


def _encoding(ctype: str, entry: Any, as_json: bool = False) -> dict[str, Any]:
    """How one form field is serialised: the spec's ``encoding``, else OpenAPI's default.

    form-urlencoded fields get style/explode (default ``form``/true), so a server
    never guesses how to write an array, except an object field written as JSON
    (``as_json``, see ``_json_form_field``), which gets its content type instead;
    multipart parts only when the spec sets them.
    """
    entry = entry if isinstance(entry, dict) else {}
    extra: dict[str, Any] = {}
    if as_json:
        return {"content_type": entry.get("contentType") or "application/json"}
    if isinstance(entry.get("contentType"), str):
        extra["content_type"] = entry["contentType"]
    if media.is_form(ctype) or "style" in entry or "explode" in entry:
        style = entry.get("style", "form")
        extra["style"] = style
        extra["explode"] = entry.get("explode", style == "form")
        if entry.get("allowReserved") is True:
            extra["allow_reserved"] = True
    return extra


def _binary_parts(prop: Any) -> Any:
    """A multipart file part travels in JSON arguments as a base64 string."""
    if not isinstance(prop, dict):
        return prop
    if prop.get("type") == "array" and isinstance(prop.get("items"), dict):
        return {**prop, "items": _binary_parts(prop["items"])}
    kind = prop.get("contentMediaType")
    binary = prop.get("format") == "binary" or (
        isinstance(kind, str) and not media.is_text(kind) and not media.is_json(kind)
        and "contentEncoding" not in prop)
    if not binary:
        return prop
    out = {k: v for k, v in prop.items() if k != "format"}
    types = out.get("type")
    out["type"] = ["string", "null"] if isinstance(types, list) and "null" in types else "string"
    out["contentEncoding"] = "base64"
    out["pattern"] = wire.BASE64_PATTERN
    return out


def build_inputs(defs: Definitions, op: Operation,
                 credentials: Mapping[str, frozenset[str]] | None = None) -> Inputs:
    """``credentials``: per location, the apiKey names the operation's security sends."""
    credentials = credentials or {}
    candidates: list[Candidate] = []
    ignored: list[dict[str, str]] = []
    refs: set[str] = set()
    names: dict[str, set[str]] = {}   # the parameter names of each location
    for param, _ in op.parameters:
        names.setdefault(param["in"], set()).add(param["name"])
    located = {where: frozenset(found) for where, found in names.items()}
    for param, loc in op.parameters:
        if param["in"] == "header" and param["name"].lower() in RESERVED_HEADERS:
            ignored.append({"in": "header", "name": param["name"],
                            "reason": "set by the binding (OpenAPI: such parameters are "
                                      "ignored)"})
            continue
        if param["in"] not in _DEFAULT_STYLE:
            raise fail(defs.file, f"{loc}/in", f"unknown parameter location {param['in']!r}",
                       "use path, query, header or cookie")
        cand, used = _param(defs, param, loc, located[param["in"]],
                            credentials.get(param["in"], frozenset()))
        candidates.append(cand)
        refs |= used
    body = _body(defs, op)
    candidates.extend(body.candidates)
    refs |= body.refs
    inputs = _assemble(defs, op, candidates, ignored, body.content_type, refs)
    schema = defs.relocated(wire.body_rules(inputs.schema, inputs.bindings, body.spec_required,
                                            body.required), inputs.schema)
    return Inputs(schema, inputs.bindings, inputs.ignored, inputs.content_type, inputs.defs,
                  body.required)


def _assemble(defs: Definitions, op: Operation, candidates: list[Candidate],
              ignored: list[dict[str, str]], ctype: str | None, refs: set[str]) -> Inputs:
    wanted = [Wanted(_argument(c), c.location, c.wire) for c in candidates]
    chosen = assign(wanted)
    if isinstance(chosen, tuple):
        first = candidates[chosen[0]]
        raise fail(defs.file, op.pointer, f"{first.location} parameter '{first.wire}' is "
                   "declared twice", "keep one of the two declarations")
    names = dict(zip(chosen, candidates, strict=True))
    bindings = [ArgumentBinding(n, c.location, c.wire, **c.binding) for n, c in names.items()]
    props = {n: c.schema for n, c in sorted(names.items())}
    schema: dict[str, Any] = {"type": "object", "properties": props,
                              "required": sorted(n for n, c in names.items() if c.required),
                              "additionalProperties": False}
    if not schema["required"]:
        del schema["required"]
    return Inputs(schema, tuple(sorted(bindings, key=lambda b: b.argument)), tuple(ignored),
                  ctype, frozenset(refs))


def _argument(cand: Candidate) -> str:
    if cand.wire is None:
        return "body"
    if cand.location == "header" and cand.wire.lower() == "if-match":
        return IF_MATCH
    return argument_name(cand.wire)
