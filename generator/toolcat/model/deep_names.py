"""What a deepObject value must be at every depth for the bracket convention to carry it.

deepObject writes a nested value as one more ``[member]`` per level (the runtime's
``_deep_pairs``), so a member name with ``[`` or ``]``, at any depth, would be read as
another level (Stripe's ``lines[0][metadata][a]b]``: its metadata maps are open), and
the runtime refuses to send it. The top level is ruled by ``wire`` (``propertyNames``,
open members scalar); this module mirrors the document's declared structure below it,
as one constraint added beside the argument's schema:

* every object position whose names are open (``additionalProperties`` not ``false``)
  gets ``propertyNames`` without brackets;
* a position the document leaves open (a member or items schema that says nothing) holds
  a scalar, as at the top: OpenAPI defines deepObject for scalar members, the convention
  serves the nesting a document declares, and a free-form value could nest names no
  schema can rule at every depth.

The mirror lists only what constrains something, so a closed structure adds nothing.
Inside ``anyOf``/``oneOf`` branches only the names rule is mirrored (a name with a
bracket is unsendable whichever branch the value takes; "scalar" is not true of another
branch's member). A recursive reference is followed once; below it, and deeper than
``LIMIT`` levels, the runtime's refusal is the guard.

A referenced definition is walked once per depth and branch kind (``memo``, kept per
catalog): a ``$ref`` DAG costs its size, not its number of paths (issue 28 item 11:
an ``anyOf`` DAG 18 deep took 7 s and 214 MB walked as a tree). A result that met a
recursive reference depends on the path that reached it and is not kept.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..vocab.pointers import escape_token
from .wire import DEEP_OBJECT_NAME, json_kinds, open_below, says_nothing

Resolve = Callable[[Any, str], tuple[Any, str]]
# (target pointer, depth, inside a union) -> the walk's result there
Memo = dict[tuple[str, int, bool], dict[str, Any]]
LIMIT = 12
SCALAR: dict[str, Any] = {"not": {"type": ["object", "array"]}}


class _Walk:
    """One deepObject value's walk: ``memo`` shared across walks, ``cuts`` counts the
    recursive references met (a result that met one is not memoised)."""

    def __init__(self, resolve: Resolve, memo: Memo) -> None:
        self.resolve = resolve
        self.memo = memo
        self.cuts = 0


def constraint(schema: Any, loc: str, resolve: Resolve,
               memo: Memo | None = None) -> dict[str, Any] | None:
    """The constraint for the levels below a deepObject value's top; None when the
    declared structure needs none. ``memo``: results by definition, shared by the
    walks of one catalog (the results are shared too: never mutated)."""
    walk = _Walk(resolve, {} if memo is None else memo)
    below = _without_top_names(_walk(walk, schema, loc, 0, frozenset(), False))
    target = resolve(schema, loc)[0] if isinstance(schema, dict) else schema
    for key in ("additionalProperties", "items"):
        if open_below(target, key):   # wire's rule made these scalar already
            below.pop(key, None)
    if "additionalProperties" not in below and isinstance(below.get("properties"), dict):
        below["properties"] = {k: c for k, c in below["properties"].items() if c is not True}
        if not below["properties"]:
            below.pop("properties")
    return below or None


def _walk(walk: _Walk, node: Any, loc: str, depth: int, seen: frozenset[str],
          union: bool) -> dict[str, Any]:
    if depth > LIMIT:
        return {}
    if isinstance(node, dict) and isinstance(node.get("$ref"), str):
        if node["$ref"] in seen:
            walk.cuts += 1
            return {}
        seen = seen | {node["$ref"]}
        node, loc = walk.resolve(node, loc)
        key = (loc, depth, union)
        if key in walk.memo:
            return walk.memo[key]
        cuts = walk.cuts
        out = _walk_node(walk, node, loc, depth, seen, union)
        if walk.cuts == cuts:
            walk.memo[key] = out
        return out
    return _walk_node(walk, node, loc, depth, seen, union)


def _walk_node(walk: _Walk, node: Any, loc: str, depth: int, seen: frozenset[str],
               union: bool) -> dict[str, Any]:
    if not isinstance(node, dict):
        return {}
    out: dict[str, Any] = {}
    kinds = json_kinds(node)
    props = node.get("properties")
    props = props if isinstance(props, dict) else {}
    addl = node.get("additionalProperties")
    may_object = (kinds is None and (props or "additionalProperties" in node)) or (
        kinds is not None and "object" in kinds)
    if may_object and addl is not False:
        out["propertyNames"] = {"pattern": DEEP_OBJECT_NAME}
    members: dict[str, Any] = {
        name: _member(walk, sub, f"{loc}/properties/{escape_token(name)}", depth, seen,
                      union) for name, sub in props.items()}
    if may_object and addl is not False:
        rest = _member(walk, addl, f"{loc}/additionalProperties", depth, seen, union)
        if rest:   # it binds every member the mirror does not list: list them all
            out["additionalProperties"] = rest
            members = {name: c or True for name, c in members.items()}
    members = {name: c for name, c in members.items() if c}
    if members:
        out["properties"] = members
    if kinds is None or "array" in kinds:
        items = node.get("items")
        if isinstance(items, dict) or (items is None and kinds is not None):
            c = _member(walk, items, f"{loc}/items", depth, seen, union)
            if c:
                out["items"] = c
    if _PARTS.isdisjoint(node):   # most schemas: no part to walk
        return out
    found = [c for key in ("allOf", "anyOf", "oneOf")
             for i, sub in enumerate(node.get(key) or [])
             if (c := _walk(walk, sub, f"{loc}/{key}/{i}", depth, seen,
                            union or key != "allOf"))]
    # one definition reached twice (a memoised result) is one constraint, not two
    parts = list({id(c): c for c in found}.values())
    if parts:
        out["allOf"] = parts
    return out


_PARTS = frozenset({"allOf", "anyOf", "oneOf"})


def _member(walk: _Walk, node: Any, loc: str, depth: int, seen: frozenset[str],
            union: bool) -> dict[str, Any]:
    """The constraint on one member or item: scalar where the document says nothing."""
    if says_nothing(node):
        return {} if union else dict(SCALAR)
    return _walk(walk, node, loc, depth + 1, seen, union)


def _without_top_names(node: dict[str, Any],
                       done: dict[int, dict[str, Any]] | None = None) -> dict[str, Any]:
    """The names rule of the value's own top level is wire's: dropped here, in the
    ``allOf`` parts (the same level) too; once per shared part (``done``, by identity)."""
    done = {} if done is None else done
    if id(node) not in done:
        out = {k: v for k, v in node.items() if k not in ("propertyNames", "allOf")}
        parts = [p for p in (_without_top_names(p, done) for p in node.get("allOf", [])) if p]
        if parts:
            out["allOf"] = list({id(p): p for p in parts}.values())
        done[id(node)] = out
    return done[id(node)]
