"""``outputSchema`` from the first documented 2xx JSON response.

MCP (2025-11-25) wants an object at the root. A response that is an object is
used as it is; anything else (an array, a scalar, a nullable object, a union) is
wrapped in one property, ``result``, and the binding records the wrapper so a
server puts the response body there.

The schema carries its own ``$defs`` under the size policy of ``defs.py``: at most
``OUTPUT_BUDGET`` bytes (compact JSON) where the response allows it, exact up to
the deepest reference level that fits, loosened (types only) one level beyond.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.jsonio import dumps
from generator.model import media
from generator.model.operations import Operation, resolve_object
from generator.normalise.defs import Definitions
from generator.vocab.pointers import escape_token, unescape_token

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


def build_outputs(defs: Definitions, op: Operation) -> Outputs:
    responses = op.node.get("responses") or {}
    for code in _success_codes(responses):
        resp, loc = resolve_object(defs, responses[code], f"{op.pointer}/responses/{code}")
        etag = any(h.lower() == "etag" for h in (resp.get("headers") or {}))
        content = resp.get("content") or {}
        json_types = [m for m in content if media.is_json(m)]
        if not json_types:
            return Outputs(None, media.choose(content), None, etag)
        ctype = min(json_types, key=lambda m: (media.preference(m), json_types.index(m)))
        raw = (content[ctype] or {}).get("schema")
        if raw is None:
            return Outputs(None, ctype, None, etag)
        where = f"{loc}/content/{escape_token(ctype)}/schema"
        schema, refs, wrapper = _object_root(defs, raw, where)
        if refs:
            used = len(dumps(schema, indent=False))
            closure, _ = defs.budgeted_closure(refs, "output", OUTPUT_BUDGET, used)
            schema = defs.relocated({**schema, "$defs": closure}, schema)
        return Outputs(schema, ctype, wrapper, etag)
    return Outputs(None, None, None, False)


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


