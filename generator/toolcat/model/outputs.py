"""``outputSchema`` from every documented 2xx JSON response.

Whether a tool has one is decided by the first 2xx response (in code order): when it
has no JSON body, neither has the tool. Otherwise every 2xx response and every JSON
media type it lists is covered (a 202 beside a 200, ``application/vnd.x+json``
beside ``application/json``): one distinct schema is used as it is, several become
an ``anyOf``. ``responseContentType`` stays the one type a caller asks for.

MCP (2025-11-25) wants an object at the root. A response that is an object (or a
union of objects) is used as it is; anything else (an array, a scalar, a nullable
object, a union with a non-object) is wrapped in one property, ``result``, and the
binding records the wrapper (``outputWrapper: "result"``) so a server puts the
response body there.

The schema carries its own ``$defs`` under the size policy of ``defs.py``: at most
``OUTPUT_BUDGET`` bytes (compact JSON) where the response allows it, exact up to
the deepest reference level that fits, loosened (types only) one level beyond.
Loosened definitions may all look alike (``{"type": "object"}``), so a ``oneOf``
in a loosened schema becomes ``anyOf``: looser, never narrower.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..jsonio import dumps
from ..normalise.defs import Definitions
from ..vocab.pointers import escape_token, unescape_token
from . import media
from .operations import Operation, resolve_object
from .shapes import mapping

WRAPPER = "result"
# Bytes of compact JSON one outputSchema may use before deep $defs are loosened.
OUTPUT_BUDGET = 12_000


@dataclass(frozen=True)
class Outputs:
    schema: dict[str, Any] | None
    content_type: str | None
    wrapper: str | None
    etag: bool


def _success_codes(responses: dict[str, Any]) -> list[str]:
    codes = [c for c in responses if c.startswith("2")]
    return sorted(codes, key=lambda c: (c.upper() == "2XX", c))


def _json_types(content: dict[str, Any]) -> list[str]:
    return sorted((m for m in content if media.is_json(m)), key=media.rank)


def _response(defs: Definitions, op: Operation, code: str) -> tuple[dict[str, Any], str]:
    return resolve_object(defs, op.node["responses"][code], f"{op.pointer}/responses/{code}",
                          "a response")


def _content(defs: Definitions, node: dict[str, Any], where: str) -> dict[str, Any]:
    return mapping(defs.file, node.get("content"), f"{where}/content", "'content'")


def build_outputs(defs: Definitions, op: Operation) -> Outputs:
    responses = mapping(defs.file, op.node.get("responses"), f"{op.pointer}/responses",
                        "'responses'")
    codes = _success_codes(responses)
    if not codes:
        return Outputs(None, None, None, False)
    first, first_at = _response(defs, op, codes[0])
    headers = mapping(defs.file, first.get("headers"), f"{first_at}/headers", "'headers'")
    etag = any(h.lower() == "etag" for h in headers)
    content = _content(defs, first, first_at)
    kinds = _json_types(content)
    if not kinds:
        return Outputs(None, media.choose(content), None, etag)
    ctype = kinds[0]
    shapes: dict[bytes, tuple[Any, str]] = {}   # distinct raw schemas, first place seen
    for code in codes:
        resp, where = _response(defs, op, code)
        content = _content(defs, resp, where)
        for kind in _json_types(content):
            entry_at = f"{where}/content/{escape_token(kind)}"
            raw = mapping(defs.file, content[kind], entry_at, "a media type object").get(
                "schema")
            if raw is None:      # any JSON at all: nothing to promise
                return Outputs(None, ctype, None, etag)
            shapes.setdefault(dumps(raw, indent=False),
                              (raw, f"{where}/content/{escape_token(kind)}/schema"))
    schema, refs, wrapper = (_object_root(defs, *next(iter(shapes.values())))
                             if len(shapes) == 1 else _union_root(defs, list(shapes.values())))
    if refs:
        used = len(dumps(schema, indent=False))
        closure, exact_depth = defs.budgeted_closure(refs, "output", OUTPUT_BUDGET, used)
        schema = defs.relocated({**schema, "$defs": closure}, schema)
        if exact_depth is not None:
            schema = defs.relocated(_loosened_any_of(defs, schema), schema)
    return Outputs(schema, ctype, wrapper, etag)


def _union_root(defs: Definitions, shapes: list[tuple[Any, str]]
                ) -> tuple[dict[str, Any], frozenset[str], str | None]:
    """Several distinct 2xx shapes: an ``anyOf`` of them, wrapped unless all are objects."""
    branches, refs = [], frozenset[str]()
    objects = True
    for raw, where in shapes:
        rewritten, used = defs.rewrite(raw, where, "output")
        branches.append(rewritten)
        refs |= used
        objects = objects and _is_object(defs.resolve_shallow(raw, where)[0])
    if objects:
        return {"type": "object", "anyOf": branches}, refs, None
    return ({"type": "object", "properties": {WRAPPER: {"anyOf": branches}},
             "required": [WRAPPER]}, refs, WRAPPER)


_NAMED = frozenset({"properties", "patternProperties", "$defs", "dependentSchemas"})


def _any_of(node: Any, names: bool = False) -> Any:
    """Every ``oneOf`` as ``anyOf`` (for a schema whose deep definitions were loosened).

    ``names``: ``node`` maps names to schemas (a property may be called ``oneOf``)."""
    if isinstance(node, list):
        return [_any_of(v) for v in node]
    if not isinstance(node, dict):
        return node
    if names:
        return {k: _any_of(v) for k, v in node.items()}
    return {("anyOf" if k == "oneOf" else k): _any_of(v, k in _NAMED) for k, v in node.items()}


def _loosened_any_of(defs: Definitions, schema: dict[str, Any]) -> dict[str, Any]:
    """``_any_of(schema)``, each ``$defs`` entry and each member of the root converted
    once per catalog: the entries are the catalog's shared definitions (the same objects
    in every tool that uses them), as the members of a root taken from one are (stripe's
    Customer is the root of 20 tools), and stay shared once converted."""
    out = {}
    for key, value in schema.items():
        if key == "$defs" and isinstance(value, dict):
            out[key] = _shared_defs_any_of(defs, value)
        else:
            out["anyOf" if key == "oneOf" else key] = _shared_any_of(defs, value, key in _NAMED)
    return out


def _shared_defs_any_of(defs: Definitions, shared: dict[str, Any]) -> dict[str, Any]:
    """The converted ``$defs`` mapping, once per mapping (``budgeted_closure`` shares one
    between the tools of a set of roots)."""
    key = ("any_of_defs", id(shared))
    if key not in defs.memo:
        defs.memo[key] = (shared, {name: _shared_any_of(defs, entry)
                                   for name, entry in shared.items()})
    converted: dict[str, Any] = defs.memo[key][1]
    return converted


def _shared_any_of(defs: Definitions, entry: Any, names: bool = False) -> Any:
    if not isinstance(entry, dict | list):
        return entry
    key = ("any_of", id(entry), names)
    if key not in defs.memo:
        defs.memo[key] = (entry, _any_of(entry, names))
    return defs.memo[key][1]


def _object_root(defs: Definitions, raw: Any,
                 loc: str) -> tuple[dict[str, Any], frozenset[str], str | None]:
    target, _ = defs.resolve_shallow(raw, loc)
    rewritten, refs = defs.rewrite(raw, loc, "output")
    if _is_object(target):
        if isinstance(raw, dict) and "$ref" in raw and set(raw) == {"$ref"}:
            name = rewritten["$ref"].rsplit("/", 1)[1]
            body, inner = defs.definition(unescape_token(name), "output")
            # The root def stays in $defs only when something refers back to it.
            return defs.relocated({**body, "type": "object"}, body), inner, None
        return defs.relocated({**rewritten, "type": "object"}, rewritten), refs, None
    wrapped = {"type": "object", "properties": {WRAPPER: rewritten}, "required": [WRAPPER]}
    return wrapped, refs, WRAPPER


def _is_object(schema: Any) -> bool:
    if not isinstance(schema, dict) or schema.get("nullable") is True:
        return False
    kind = schema.get("type")
    if kind == "object":
        return True
    return kind is None and "properties" in schema and not any(
        k in schema for k in ("oneOf", "anyOf", "not", "enum", "const"))


