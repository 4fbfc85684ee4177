"""Per-tool ``$defs``: each tool schema carries exactly the definitions it reaches.

Every local ``$ref`` target of the document gets one stable name: ``X`` for
``#/components/schemas/X`` (made URI-safe), or a name spelled from the pointer for
any other target. A definition is rewritten once per mode and cached, so a spec
with a thousand tools sharing a schema rewrites it once; a tool's closure is a walk
over cached edges, safe on cycles (stripe has 92 schemas in cycles).

Size policy (outputs only). A response schema's closure can be enormous (a stripe
Checkout Session reaches 590 schemas, 730 KB). ``budgeted_closure`` keeps every
definition within the largest reference depth that fits the byte budget exact, and
replaces the definitions one reference deeper by *loosened* ones: only ``type``
(the set of JSON types the exact schema can accept, or no ``type`` at all when that
set is not known) and ``description``. A loosened schema accepts everything the
exact one accepts, so a response the API documents always validates; it only
stops describing deeper fields. Input schemas are never loosened.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from ..errors import fail
from ..jsonio import dumps
from ..jsontypes import TYPE_ORDER
from ..jsontypes import json_type as _json_type
from ..vocab.pointers import LOCAL_DEFS, escape_token, split_pointer, unescape_token
from .schema import Mode, SchemaRewriter

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


class Definitions:
    def __init__(self, document: dict[str, Any], file: str, is_30: bool,
                 access: frozenset[str] | None = None) -> None:
        self.document = document
        self.file = file
        self.is_30 = is_30
        # Which of readOnly/writeOnly the document may hold (None: not known); the
        # rewriter hides no property in a direction whose flag it holds nowhere.
        self.access = access
        self._names: dict[str, str] = {}      # ref -> def name
        self._pointers: dict[str, str] = {}   # def name -> pointer
        self._found: dict[str, tuple[str, Any, str]] = {}   # ref -> what lookup gives
        self._cache: dict[tuple[str, Mode], tuple[Any, frozenset[str]]] = {}
        self._loose: dict[tuple[str, Mode], dict[str, Any]] = {}
        # per mode, the bytes a def adds to a $defs mapping: exact, loosened
        self._weights: dict[Mode, tuple[dict[str, int], dict[str, int]]] = {
            "input": ({}, {}), "output": ({}, {})}
        # per mode, the defs rewritten with everything they reach (``levels``)
        self._complete: dict[Mode, set[str]] = {"input": set(), "output": set()}
        # id of every rewritten schema node -> (the node, kept alive so that its id
        # stays its own; the spec pointer it came from): lets a problem found in an
        # emitted schema be reported where the user can fix it.
        self.origins: dict[int, tuple[Any, str]] = {}
        # keyword -> what the rewriter does with it, per mode (schema.keyword_kind)
        self._kinds: dict[Mode, dict[str, int]] = {"input": {}, "output": {}}
        # Results of pure functions of a (shared) subschema, so a DAG of $refs costs
        # its size, not its number of paths: key -> (the schema, held so its id
        # stays unique; the result).
        self.memo: dict[tuple[Any, ...], tuple[Any, Any]] = {}
        # model/deep_names.py's walk, by (target pointer, depth, inside a union)
        self.deep_memo: dict[tuple[str, int, bool], dict[str, Any]] = {}
        schemas = document.get("components", {}).get("schemas", {})
        if isinstance(schemas, dict):
            self._name_components(schemas)

    def _name_components(self, schemas: dict[str, Any]) -> None:
        safe: dict[str, list[str]] = {}
        for name in schemas:
            safe.setdefault(_SAFE.sub("_", name), []).append(name)
        for clean, originals in safe.items():
            for original in originals:
                unique = clean if len(originals) == 1 else f"{clean}_{_short_hash(original)}"
                ref = "#/components/schemas/" + escape_token(original)
                self._names[ref] = unique
                self._pointers[unique] = ref[1:]

    def lookup(self, ref: str, loc: str) -> tuple[str, Any, str]:
        """Resolve a local ref: (def name, target node, target pointer); once per ref
        (the document does not change while tools are drafted), a failure each time,
        located at ``loc``."""
        found = self._found.get(ref)
        if found is None:
            found = self._found[ref] = self._resolve(ref, loc)
        return found

    def _resolve(self, ref: str, loc: str) -> tuple[str, Any, str]:
        name = self._names.get(ref)
        if name is None:
            tokens = split_pointer(ref[1:]) if ref != "#" else []
            name = "_".join(_SAFE.sub("_", t) for t in tokens) or "root"
            name = f"{name}_{_short_hash(ref)}"
            self._names[ref] = name
            self._pointers[name] = ref[1:]
        if _not_a_schema(self._pointers[name]):
            raise fail(self.file, loc, f"$ref '{ref}' names the document or one of its "
                       "top-level sections, not a schema", "point the reference at a schema")
        return name, self.node(self._pointers[name], loc, ref), self._pointers[name]

    def node(self, ptr: str, loc: str, ref: str = "") -> Any:
        node: Any = self.document
        for token in split_pointer(ptr):
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise fail(self.file, loc, f"$ref '{ref or '#' + ptr}' does not resolve",
                           "point the reference at an existing schema")
        return node

    def rewrite(self, schema: Any, loc: str, mode: Mode, home: str | None = None,
                origins: dict[str, str] | None = None) -> tuple[Any, frozenset[str]]:
        """Rewrite a schema (``home``: its own $ref if it is a def; ``origins``: where
        its properties lie, if it was merged); return it and the defs it uses."""
        rewriter = SchemaRewriter(self.file, self.lookup, mode, self.is_30, home, origins,
                                  self.origins, self._kinds[mode], self.access)
        return rewriter.rewrite(schema, loc), frozenset(rewriter.refs)

    def record(self, node: Any, loc: str) -> None:
        """Remember that emitted ``node`` was written at ``loc`` in the spec."""
        if isinstance(node, dict):
            self.origins[id(node)] = (node, loc)

    def origin(self, node: Any) -> str | None:
        """The spec pointer ``node`` was rewritten from, if it was."""
        found = self.origins.get(id(node))
        return found[1] if found is not None and found[0] is node else None

    def relocated(self, new: Any, old: Any) -> Any:
        """``new``, a copy of emitted ``old``, remembered where ``old`` came from."""
        where = self.origin(old)
        if where is not None:
            self.record(new, where)
        return new

    def definition(self, name: str, mode: Mode) -> tuple[Any, frozenset[str]]:
        key = (name, mode)
        if key not in self._cache:
            ptr = self._pointers[name]
            self._cache[key] = self.rewrite(self.node(ptr, ptr), ptr, mode, "#" + ptr)
        return self._cache[key]

    def closure(self, roots: frozenset[str], mode: Mode) -> dict[str, Any]:
        """Every def reachable from ``roots``, keyed and sorted by name: one mapping per
        set of roots, shared by the tools that reach it (as its entries are)."""
        key = ("closure", roots, mode)
        if key not in self.memo:
            self.memo[key] = (roots, self._closure(roots, mode))
        found: dict[str, Any] = self.memo[key][1]
        return found

    def _closure(self, roots: frozenset[str], mode: Mode) -> dict[str, Any]:
        seen: set[str] = set()
        todo = sorted(roots)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            todo.extend(sorted(self.definition(name, mode)[1] - seen))
        return {name: self.definition(name, mode)[0] for name in sorted(seen)}

    def levels(self, roots: frozenset[str], mode: Mode,
               budget: int | None = None) -> list[frozenset[str]]:
        """The defs reachable from ``roots`` by reference depth: ``levels[0]`` the roots,
        ``levels[d]`` the defs first reached ``d`` references deeper. Each def not yet
        rewritten is rewritten in name order within its level (so the first broken one
        found is the same whatever was drafted before); the levels themselves are set
        operations (stripe's 180 closures of up to 590 defs are 56,000 entries).

        With ``budget``, the walk stops at the first depth whose defs' exact bytes, with
        those above, pass it (``budgeted_closure`` keeps no depth from there exact, nor
        needs a deeper one) once every def of that depth is complete: rewritten with
        everything it reaches, by an earlier walk that ended without error. No def
        deeper is left to rewrite then, so no error is left to find, and the levels kept
        answer ``budgeted_closure`` as the whole list would."""
        cache = self._cache
        complete = self._complete[mode]
        reached = set(roots)
        level = frozenset(roots)
        found = []
        exact = 0
        while level:
            found.append(level)
            for name in sorted(n for n in level if (n, mode) not in cache):
                self.definition(name, mode)
            if budget is not None:
                if exact <= budget:
                    exact += sum(self._exact_weight(name, mode) for name in level)
                if exact > budget and level <= complete:
                    break
            following = set().union(*[cache[(name, mode)][1] for name in level])
            level = frozenset(following - reached)
            reached |= level
        complete.update(reached)   # each reached def's closure lies in reached or below
        return found

    def budgeted_closure(self, roots: frozenset[str], mode: Mode, budget: int,
                         used: int) -> tuple[dict[str, Any], int | None]:
        """The closure of ``roots``, loosened beyond the depth that fits ``budget``.

        ``used`` is the size of the schema that holds the ``$defs``. Returns the
        defs and the depth kept exact (None: everything is exact). The defs are one
        mapping per set of roots and depth kept, shared by the tools it serves (as its
        entries are): stripe's 424 outputs need 180 sets of up to 590 entries.
        """
        levels, exact, loose = self._layers(roots, mode, budget)
        if not levels:
            return {}, None
        # ``levels`` may stop where its bytes pass ``budget`` (``levels``): every depth
        # from there costs more than the budget, as it does in the whole list, so the
        # search below passes it and keeps the same depth.
        deepest = len(exact) - 2
        keep = deepest      # defs at depth <= keep stay exact, keep + 1 are loosened
        while keep > 0 and used + sum(exact[:keep + 1]) + loose[keep + 1] > budget:
            keep -= 1
        key = ("closure", roots, mode, keep)
        if key not in self.memo:
            kept = frozenset().union(*levels[:keep])   # depth d is levels[d - 1]
            loosened = levels[keep] if keep < len(levels) else frozenset()
            self.memo[key] = (roots, {
                name: self.definition(name, mode)[0] if name in kept
                else self.loosened(name, mode) for name in sorted(kept | loosened)})
        closure: dict[str, Any] = self.memo[key][1]
        return closure, None if keep == deepest else keep

    def _layers(self, roots: frozenset[str], mode: Mode, budget: int
                ) -> tuple[list[frozenset[str]], list[int], list[int]]:
        """``levels`` and the bytes of the defs at each depth, exact and loosened; once
        per set of roots (operations share them: stripe's 424 outputs have 180)."""
        key = ("layers", roots, mode, budget)
        if key not in self.memo:
            levels = self.levels(roots, mode, budget)
            exact = [0] * (len(levels) + 2)     # exact[d]: bytes of the defs at depth d
            loose = [0] * (len(levels) + 2)
            weights = self._weights[mode][1]
            for depth, level in enumerate(levels, 1):
                for name in sorted(level.difference(weights)):
                    weights[name] = len(dumps(self.loosened(name, mode), indent=False)) \
                        + len(name) + 4   # "name": and a comma
                exact[depth] = sum(self._exact_weight(name, mode) for name in level)
                loose[depth] = sum(map(weights.__getitem__, level))
            self.memo[key] = (roots, (levels, exact, loose))
        found: tuple[list[frozenset[str]], list[int], list[int]] = self.memo[key][1]
        return found

    def _exact_weight(self, name: str, mode: Mode) -> int:
        """The bytes def ``name`` adds to a ``$defs`` mapping, exact: ``"name":``, its
        compact JSON and a comma."""
        weights = self._weights[mode][0]
        found = weights.get(name)
        if found is None:
            found = weights[name] = len(dumps(self.definition(name, mode)[0],
                                              indent=False)) + len(name) + 4
        return found

    def loosened(self, name: str, mode: Mode) -> dict[str, Any]:
        """A schema that accepts at least what def ``name`` accepts: its types only."""
        key = (name, mode)
        if key not in self._loose:
            schema = self.definition(name, mode)[0]
            types = self._ceiling(schema, mode, frozenset({name}))
            out: dict[str, Any] = {}
            if types is not None:
                ordered = [t for t in TYPE_ORDER if t in types]
                out["type"] = ordered[0] if len(ordered) == 1 else ordered
            if isinstance(schema, dict) and isinstance(schema.get("description"), str):
                out["description"] = schema["description"]
            self._loose[key] = out
        return self._loose[key]

    def _ceiling(self, schema: Any, mode: Mode, seen: frozenset[str]) -> frozenset[str] | None:
        """JSON types ``schema`` may accept; None when any type may pass."""
        if schema is True or not isinstance(schema, dict):
            return None if schema is not False else frozenset()
        key = ("ceiling", id(schema), mode, seen)
        if key not in self.memo:
            self.memo[key] = (schema, self._ceiling_of(schema, mode, seen))
        result: frozenset[str] | None = self.memo[key][1]
        return result

    def _ceiling_of(self, schema: dict[str, Any], mode: Mode,
                    seen: frozenset[str]) -> frozenset[str] | None:
        found: frozenset[str] | None = None
        if isinstance(schema.get("type"), str | list):
            raw = schema["type"]
            found = _widen(frozenset([raw] if isinstance(raw, str) else raw))
        elif "const" in schema:
            found = _widen(frozenset({_json_type(schema["const"])}))
        elif isinstance(schema.get("enum"), list):
            found = _widen(frozenset(_json_type(v) for v in schema["enum"]))
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith(LOCAL_DEFS):
            target = unescape_token(ref[len(LOCAL_DEFS):])
            inner = None if target in seen else self._ceiling(
                self.definition(target, mode)[0], mode, seen | {target})
            found = _meet(found, inner)
        for keyword in ("anyOf", "oneOf"):
            parts = schema.get(keyword)
            if isinstance(parts, list):
                union: frozenset[str] | None = frozenset()
                for part in parts:
                    inner = self._ceiling(part, mode, seen)
                    union = None if union is None or inner is None else union | inner
                found = _meet(found, union)
        for part in schema.get("allOf") or []:
            found = _meet(found, self._ceiling(part, mode, seen))
        return found

    def resolve_shallow(self, schema: Any, loc: str) -> tuple[Any, str]:
        """Follow ``$ref``s at the top of a raw schema (for body/response roots)."""
        seen: set[str] = set()
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
            ref = schema["$ref"]
            if ref in seen:
                raise fail(self.file, loc, f"$ref '{ref}' refers to itself",
                           "break the reference cycle")
            seen.add(ref)
            _, schema, loc = self.lookup(ref, loc)
        return schema, loc






def _not_a_schema(ptr: str) -> bool:
    """The document, a top-level member (paths, info...) or a components map: a $ref
    there would embed a whole section as a schema."""
    tokens = split_pointer(ptr)
    return len(tokens) < 2 or (tokens[0] == "components" and len(tokens) == 2)


def _widen(types: frozenset[str]) -> frozenset[str]:
    """``integer`` is a kind of ``number``; keep only the wider name of the two."""
    return types - {"integer"} if "number" in types else types


def _meet(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    """Both constraints hold: the intersection (None means unconstrained)."""
    if a is None:
        return b
    if b is None:
        return a
    both = (a & b) | ({"integer"} if ("number" in a and "integer" in b) or
                      ("integer" in a and "number" in b) else set())
    return frozenset(both)




def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:8]
