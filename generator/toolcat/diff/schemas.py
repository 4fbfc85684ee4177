"""Structural comparison of two JSON Schemas, classified by who reads them.

Arguments (``input``) are written by callers: a schema that accepts less than
before breaks them, one that accepts more does not. Outputs (``output``) are
read by callers: a property that goes away or changes type breaks them, a new
one does not; likewise a new enum value is compatible on either side (callers
are expected to tolerate new values as they tolerate new properties).
``$ref``s are followed into each side's own ``$defs``, so
``{"$ref": "#/$defs/Int32"}`` and ``{"type": "integer", "format": "int32"}``
compare equal, and a reference cycle is compared once.

Every keyword that differs is reported: the ones this module understands are
classified; any other is reported as breaking, naming the keyword, so that a
change nobody classified is looked at rather than passed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from ..jsonio import dumps
from ..jsontypes import json_type

Direction = Literal["input", "output"]
BREAKING, COMPATIBLE = "breaking", "compatible"

LOWER_BOUNDS = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties",
                "minContains")
UPPER_BOUNDS = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties",
                "maxContains")
RESTRICTIONS = ("pattern", "multipleOf", "uniqueItems")
WIRE_FORMATS = ("format", "contentEncoding", "contentMediaType")
DOCUMENTATION = ("description", "title", "examples", "deprecated", "readOnly", "writeOnly",
                 "$comment")
VARIANTS = ("anyOf", "oneOf")
HANDLED = frozenset({"type", "enum", "const", "default", "properties", "required",
                     "dependentRequired",
                     "additionalProperties", "items", "prefixItems", "allOf", "$ref", "$defs",
                     *VARIANTS, *LOWER_BOUNDS, *UPPER_BOUNDS, *RESTRICTIONS, *WIRE_FORMATS,
                     *DOCUMENTATION})
_DEFS_PREFIX = "#/$defs/"


@dataclass(frozen=True)
class Found:
    """One difference at ``path`` (property names, ``[]`` for items, ``{}`` for map values)."""

    path: tuple[str, ...]
    kind: str
    severity: str
    detail: str


SHOW_WIDTH = 60


def show(value: Any) -> str:
    """A JSON value as one short line, never cut inside a value: nested objects and
    arrays are elided whole (``{...3 keys}``, ``[...2 items]``), deepest first, until it
    fits; what still does not fit is named by its shape."""
    for depth in (None, 2, 1, 0):
        text = _shown(value, depth)
        if len(text) <= SHOW_WIDTH:
            return text
    return _elided(value)


def _shown(value: Any, depth: int | None) -> str:
    if isinstance(value, dict | list) and depth is not None and depth <= 0:
        return _elided(value)
    inner = None if depth is None else depth - 1
    if isinstance(value, dict):
        return "{" + ",".join(f"{dumps(k, indent=False).decode()}:{_shown(v, inner)}"
                              for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_shown(v, inner) for v in value) + "]"
    return dumps(value, indent=False).decode()


def _elided(value: Any) -> str:
    if isinstance(value, dict):
        return f"{{...{len(value)} key{'s' if len(value) != 1 else ''}}}"
    if isinstance(value, list):
        return f"[...{len(value)} item{'s' if len(value) != 1 else ''}]"
    if isinstance(value, str):
        return f"a string of {len(value)} characters"
    return dumps(value, indent=False).decode()




def _covers(wider: frozenset[str] | None, narrower: frozenset[str] | None) -> bool:
    """Every value of type ``narrower`` is of type ``wider`` (None: any type)."""
    if wider is None:
        return True
    if narrower is None:
        return False
    return all(t in wider or (t == "integer" and "number" in wider) for t in narrower)


def _names(types: frozenset[str] | None) -> str:
    return "any" if types is None else "|".join(sorted(types)) or "nothing"


def _key(value: Any) -> str:
    return dumps(value, indent=False).decode()


class SchemaDiff:
    """Compare ``old`` and ``new`` (each a root with its own ``$defs``) in one direction."""

    def __init__(self, old: dict[str, Any], new: dict[str, Any], direction: Direction):
        self.old_root, self.new_root = old, new
        self.old_defs: dict[str, Any] = old.get("$defs") or {}
        self.new_defs: dict[str, Any] = new.get("$defs") or {}
        self.direction = direction
        self._memo: dict[tuple[str, str, str, str], list[Found]] = {}
        self._same: dict[str, bool] = {}
        self._active: set[tuple[str | None, str | None]] = set()

    def run(self) -> list[Found]:
        strip = _without_defs
        return list(self.compare(strip(self.old_root), strip(self.new_root), ()))

    # --- severities: the one place that knows who reads the schema ---------------------

    def _narrowed(self) -> str:
        """An input that accepts less breaks callers; an output that returns less does not."""
        return BREAKING if self.direction == "input" else COMPATIBLE

    def _widened(self) -> str:
        return COMPATIBLE if self.direction == "input" else BREAKING

    def _prop_kind(self, what: str) -> str:
        return f"argument-{what}" if self.direction == "input" else f"output-property-{what}"

    # --- resolution ------------------------------------------------------------------

    def _resolve(self, schema: Any, defs: dict[str, Any]) -> tuple[Any, str | None]:
        """Follow ``$ref``s into ``defs``; siblings of a ``$ref`` apply as well."""
        target: str | None = None
        seen: set[str] = set()
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
            ref = schema["$ref"]
            name = ref[len(_DEFS_PREFIX):] if ref.startswith(_DEFS_PREFIX) else None
            if name is None or name not in defs or name in seen:
                return schema, target     # compared as written: the $ref strings differ
            seen.add(name)
            target = name
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            resolved = defs[name]
            schema = {**resolved, **siblings} if isinstance(resolved, dict) and siblings \
                else resolved
        return schema, target

    def types(self, schema: Any, defs: dict[str, Any]) -> frozenset[str] | None:
        """The JSON types a schema admits; None when it does not restrict them."""
        schema, _ = self._resolve(schema, defs)
        if schema is False:
            return frozenset()
        if not isinstance(schema, dict):
            return None
        found: frozenset[str] | None = None
        if "type" in schema:
            raw = schema["type"]
            found = frozenset(raw if isinstance(raw, list) else [raw])
        elif "const" in schema:
            found = frozenset({json_type(schema["const"])})
        elif isinstance(schema.get("enum"), list):
            found = frozenset(json_type(v) for v in schema["enum"])
        else:
            for key in VARIANTS:
                if isinstance(schema.get(key), list):
                    branches = [self.types(b, defs) for b in schema[key]]
                    if any(b is None for b in branches):
                        return None
                    found = frozenset().union(*[b for b in branches if b is not None])
        if found is not None and "number" in found:
            found = found - {"integer"}
        return found

    # --- the comparison ----------------------------------------------------------------

    def compare(self, old: Any, new: Any, path: tuple[str, ...]) -> Iterator[Found]:
        if old == new and self._same_closure(old):
            return
        old_r, old_ref = self._resolve(old, self.old_defs)
        new_r, new_ref = self._resolve(new, self.new_defs)
        pair = (old_ref, new_ref)
        if (old_ref or new_ref) and pair in self._active:
            return                  # a reference cycle: this pair is being compared above
        # One definition is used in many places: compare each pair of references once.
        memo_key = (old_ref, _key(_siblings(old)), new_ref, _key(_siblings(new))) \
            if old_ref and new_ref else None
        relative = self._memo.get(memo_key) if memo_key else None
        if relative is None:
            self._active.add(pair)
            try:
                relative = list(self._compare_resolved(old_r, new_r))
            finally:
                self._active.discard(pair)
            if memo_key:
                self._memo[memo_key] = relative
        for found in relative:
            yield Found(path + found.path, found.kind, found.severity, found.detail)

    def _same_closure(self, schema: Any) -> bool:
        """Every definition ``schema`` reaches is the same on both sides."""
        return all(self._same_def(name) for name in _refs(schema))

    def _same_def(self, name: str) -> bool:
        if name not in self._same:
            self._same[name] = True          # a cycle back here adds nothing new
            old, new = self.old_defs.get(name), self.new_defs.get(name)
            self._same[name] = old is not None and old == new and self._same_closure(old)
        return self._same[name]

    def _compare_resolved(self, old: Any, new: Any) -> Iterator[Found]:
        if old == new and self._same_closure(old):
            return
        if not isinstance(old, dict) or not isinstance(new, dict):
            yield from self._booleans(old, new)
            return
        old_t, new_t = self.types(old, self.old_defs), self.types(new, self.new_defs)
        retyped = self._types_speak(old, new) and old_t != new_t
        if retyped:
            yield self._type_change(old_t, new_t)
            if old_t is not None and new_t is not None and not _covers(old_t, new_t) \
                    and not _covers(new_t, old_t) and not (old_t & new_t):
                return              # a different type altogether: its parts are not comparable
        yield from self._enum(old, new)
        yield from self._formats(old, new)
        yield from self._bounds(old, new)
        yield from self._documentation(old, new)
        yield from self._object(old, new)
        yield from self._array(old, new)
        yield from self._variants(old, new)
        yield from self._all_of(old, new)
        yield from self._unclassified(old, new, retyped)

    def _booleans(self, old: Any, new: Any) -> Iterator[Found]:
        """``true``/``false`` schemas (or a malformed value): compared by what they accept."""
        old_t = self.types(old, self.old_defs)
        new_t = self.types(new, self.new_defs)
        if old_t != new_t:
            yield self._type_change(old_t, new_t)
        elif old != new:
            yield Found((), "schema-changed", BREAKING,
                        f"schema {show(old)} -> {show(new)} (unclassified; review it)")

    def _types_speak(self, old: dict[str, Any], new: dict[str, Any]) -> bool:
        """False where the enum or the variants themselves say what changed."""
        if "type" in old or "type" in new:
            return True
        if ("enum" in old or "const" in old) and ("enum" in new or "const" in new):
            return False
        return not any(isinstance(old.get(k), list) and isinstance(new.get(k), list)
                       for k in VARIANTS)

    def _type_change(self, old: frozenset[str] | None, new: frozenset[str] | None) -> Found:
        text = f"type {_names(old)} -> {_names(new)}"
        if _covers(new, old):
            return Found((), "type-changed", self._widened(), f"{text} (widened)")
        if _covers(old, new):
            return Found((), "type-changed", self._narrowed(), f"{text} (narrowed)")
        return Found((), "type-changed", BREAKING, text)

    def _enum(self, old: dict[str, Any], new: dict[str, Any]) -> Iterator[Found]:
        old_v, new_v = _values(old), _values(new)
        if old_v == new_v:
            return
        if old_v is None and new_v is not None:
            yield Found((), "enum-restricted", self._narrowed(),
                        f"now limited to {_listing(new_v.values())}")
        elif new_v is None and old_v is not None:
            yield Found((), "enum-lifted", COMPATIBLE,
                        f"no longer limited to {_listing(old_v.values())}")
        elif old_v is not None and new_v is not None:
            removed = [v for k, v in old_v.items() if k not in new_v]
            added = [v for k, v in new_v.items() if k not in old_v]
            if removed:
                yield Found((), "enum-value-removed", self._narrowed(),
                            f"enum value{_s(removed)} {_listing(removed)} removed")
            if added:
                yield Found((), "enum-value-added", COMPATIBLE,
                            f"enum value{_s(added)} {_listing(added)} added")

    def _formats(self, old: dict[str, Any], new: dict[str, Any]) -> Iterator[Found]:
        for key in WIRE_FORMATS:
            was, now = old.get(key), new.get(key)
            if was == now:
                continue
            if was is None:
                severity = self._narrowed()
            elif now is None:
                severity = self._widened()
            else:
                severity = BREAKING
            yield Found((), "format-changed", severity, f"{key} {show(was)} -> {show(now)}")

    def _bounds(self, old: dict[str, Any], new: dict[str, Any]) -> Iterator[Found]:
        for key in (*LOWER_BOUNDS, *UPPER_BOUNDS, *RESTRICTIONS):
            was, now = old.get(key), new.get(key)
            if was == now:
                continue
            tighter = _tighter(key, was, now)
            # Callers obey an argument's constraints; an output's constraints only describe.
            severity = BREAKING if tighter and self.direction == "input" else COMPATIBLE
            how = "tightened" if tighter else "loosened"
            yield Found((), "constraint-changed", severity,
                        f"{key} {show(was)} -> {show(now)} ({how})")
        if old.get("default") != new.get("default"):
            yield Found((), "default-changed", COMPATIBLE,
                        f"default {show(old.get('default'))} -> {show(new.get('default'))}")

    def _documentation(self, old: dict[str, Any], new: dict[str, Any]) -> Iterator[Found]:
        for key in DOCUMENTATION:
            if old.get(key) == new.get(key):
                continue
            if key in ("description", "title"):
                change = "added" if key not in old else "removed" if key not in new \
                    else "changed"
                yield Found((), f"{key}-changed", COMPATIBLE, f"{key} {change}")
            else:
                yield Found((), "documentation-changed", COMPATIBLE,
                            f"{key} {show(old.get(key))} -> {show(new.get(key))}")

    def _object(self, old: dict[str, Any], new: dict[str, Any]) -> Iterator[Found]:
        old_p: dict[str, Any] = old.get("properties") or {}
        new_p: dict[str, Any] = new.get("properties") or {}
        old_req, new_req = set(old.get("required") or ()), set(new.get("required") or ())
        for name in sorted(set(old_p) | set(new_p) | old_req | new_req):
            where = (name,)
            if name in old_p and name not in new_p:
                yield Found(where, self._prop_kind("removed"), BREAKING, "removed")
                continue
            if name in new_p and name not in old_p:
                if self.direction == "input" and name in new_req:
                    yield Found(where, "required-argument-added", BREAKING,
                                "added as a required argument")
                else:
                    yield Found(where, self._prop_kind("added"), COMPATIBLE,
                                "added" + (" (optional)" if self.direction == "input" else ""))
                continue
            if name in old_p:
                yield from self.compare(old_p[name], new_p[name], where)
            if name in new_req and name not in old_req:
                yield Found(where, self._prop_kind("now-required"), self._narrowed(),
                            "now required" if self.direction == "input"
                            else "now always present")
            elif name in old_req and name not in new_req:
                yield Found(where, self._prop_kind("now-optional"), self._widened(),
                            "now optional" if self.direction == "input"
                            else "no longer always present")
        yield from self._additional(old, new)
        yield from self._dependencies(old, new, old_req, new_req)

    def _dependencies(self, old: dict[str, Any], new: dict[str, Any], old_req: set[str],
                      new_req: set[str]) -> Iterator[Found]:
        """``dependentRequired`` (toolcat's "no body, or a whole one"): a pair "when
        ``x`` is given, ``y`` is too" narrows what is accepted only where ``y`` was not
        required anyway, and its removal widens only where ``y`` is not required now."""
        was, now = old.get("dependentRequired", {}), new.get("dependentRequired", {})
        if not (isinstance(was, dict) and isinstance(now, dict)):
            if was != now:
                yield Found((), "schema-changed", BREAKING, f"dependentRequired {show(was)} "
                            f"-> {show(now)} (unclassified; review it)")
            return
        # toolcat states "any of these given: all the required ones too" through one
        # representative (or, before, every pair): what a name brings is every required
        # name the rule lists, not only the names on its own line
        was_all = {n for v in was.values() if isinstance(v, list) for n in v}
        now_all = {n for v in now.values() if isinstance(v, list) for n in v}
        for name in sorted(set(was) | set(now)):
            before = was_all - {name} if name in was else set()
            after = now_all - {name} if name in now else set()
            added = sorted(after - before - old_req)
            removed = sorted(before - after - new_req)
            if added:
                yield Found((name,), "dependent-required-added", self._narrowed(),
                            f"when given, now needs {', '.join(added)}")
            if removed:
                yield Found((name,), "dependent-required-removed", self._widened(),
                            f"when given, no longer needs {', '.join(removed)}")

    def _additional(self, old: dict[str, Any], new: dict[str, Any]) -> Iterator[Found]:
        was, now = old.get("additionalProperties", True), new.get("additionalProperties", True)
        if isinstance(was, dict) and isinstance(now, dict):
            yield from self.compare(was, now, ("{}",))
            return
        if was == now:
            return
        # How much a map accepts: nothing extra < values of one schema < anything.
        rank = {False: 0, True: 2}
        old_rank = rank.get(was, 1) if isinstance(was, bool) else 1
        new_rank = rank.get(now, 1) if isinstance(now, bool) else 1
        severity = self._narrowed() if new_rank < old_rank else self._widened()
        yield Found((), "additional-properties-changed",
                    severity if self.direction == "input" else COMPATIBLE,
                    f"additionalProperties {show(was)} -> {show(now)}")

    def _array(self, old: dict[str, Any], new: dict[str, Any]) -> Iterator[Found]:
        if "items" in old or "items" in new:
            yield from self.compare(old.get("items", {}), new.get("items", {}), ("[]",))
        old_p, new_p = old.get("prefixItems") or [], new.get("prefixItems") or []
        for index, (was, now) in enumerate(zip(old_p, new_p, strict=False)):
            yield from self.compare(was, now, (f"[{index}]",))
        if len(old_p) != len(new_p):
            yield Found((), "schema-changed", BREAKING,
                        f"prefixItems {len(old_p)} -> {len(new_p)} positions "
                        "(unclassified; review it)")

    def _variants(self, old: dict[str, Any], new: dict[str, Any]) -> Iterator[Found]:
        for key in VARIANTS:
            was, now = old.get(key), new.get(key)
            if not isinstance(was, list) or not isinstance(now, list) or was == now:
                continue
            # Branches present on both sides unchanged are set aside; the rest pair by order.
            old_keys = {self._branch_key(b, self.old_defs) for b in was}
            new_keys = {self._branch_key(b, self.new_defs) for b in now}
            old_left = [b for b in was if self._branch_key(b, self.old_defs) not in new_keys]
            new_left = [b for b in now if self._branch_key(b, self.new_defs) not in old_keys]
            for a, b in zip(old_left, new_left, strict=False):
                yield from self.compare(a, b, (f" ({key} {now.index(b) + 1})",))
            for branch in old_left[len(new_left):]:
                yield Found((), "variant-removed", self._narrowed(),
                            f"{key} branch {self._describe(branch, self.old_defs)} removed")
            for branch in new_left[len(old_left):]:
                yield Found((), "variant-added", self._widened(),
                            f"{key} branch {self._describe(branch, self.new_defs)} added")

    def _branch_key(self, branch: Any, defs: dict[str, Any]) -> str:
        return _key(_expand(branch, defs, 3))

    def _describe(self, branch: Any, defs: dict[str, Any]) -> str:
        resolved, ref = self._resolve(branch, defs)
        return ref or _names(self.types(resolved, defs))

    def _all_of(self, old: dict[str, Any], new: dict[str, Any]) -> Iterator[Found]:
        was, now = old.get("allOf") or [], new.get("allOf") or []
        for index, (a, b) in enumerate(zip(was, now, strict=False)):
            yield from self.compare(a, b, (f" (allOf {index + 1})",))
        if len(was) != len(now):
            yield Found((), "schema-changed", BREAKING,
                        f"allOf {len(was)} -> {len(now)} parts (unclassified; review it)")

    def _unclassified(self, old: dict[str, Any], new: dict[str, Any], retyped: bool
                      ) -> Iterator[Found]:
        for key in sorted((set(old) | set(new)) - HANDLED):
            if old.get(key) != new.get(key):
                yield Found((), "schema-changed", BREAKING,
                            f"{key} {show(old.get(key))} -> {show(new.get(key))} "
                            "(unclassified; review it)")
        for key in VARIANTS:
            # A union that appears or goes away is explained by the type change, if any.
            if not retyped and isinstance(old.get(key), list) != isinstance(new.get(key), list):
                yield Found((), "schema-changed", BREAKING,
                            f"{key} {'added' if key in new else 'removed'} "
                            "(unclassified; review it)")


def compare_schemas(old: dict[str, Any], new: dict[str, Any], direction: Direction
                    ) -> list[Found]:
    return SchemaDiff(old, new, direction).run()


def _without_defs(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in schema.items() if k != "$defs"}


def _siblings(schema: Any) -> Any:
    return {k: v for k, v in schema.items() if k != "$ref"} if isinstance(schema, dict) \
        else schema


def _refs(schema: Any) -> Iterator[str]:
    """Names of the definitions a schema refers to directly."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str):
                yield value[len(_DEFS_PREFIX):] if value.startswith(_DEFS_PREFIX) else value
            else:
                yield from _refs(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from _refs(value)


def _expand(schema: Any, defs: dict[str, Any], depth: int) -> Any:
    """A schema with ``$ref``s inlined a few levels deep: enough to tell branches apart."""
    if isinstance(schema, list):
        return [_expand(v, defs, depth) for v in schema]
    if not isinstance(schema, dict):
        return schema
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith(_DEFS_PREFIX) and depth > 0:
        target = defs.get(ref[len(_DEFS_PREFIX):])
        if isinstance(target, dict):
            merged = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
            return _expand(merged, defs, depth - 1)
    return {k: _expand(v, defs, depth) for k, v in schema.items()}


def _values(schema: dict[str, Any]) -> dict[str, Any] | None:
    """enum (or const) values keyed by their canonical JSON, so 1 and true stay apart."""
    if isinstance(schema.get("enum"), list):
        return {_key(v): v for v in schema["enum"]}
    if "const" in schema:
        return {_key(schema["const"]): schema["const"]}
    return None


def _listing(values: Iterable[Any]) -> str:
    shown = [show(v) for v in values]
    return ", ".join(shown[:8]) + (f" and {len(shown) - 8} more" if len(shown) > 8 else "")


def _s(items: list[Any]) -> str:
    return "s" if len(items) != 1 else ""


def _tighter(key: str, was: Any, now: Any) -> bool:
    if now is None:
        return False
    if was is None:
        return True
    if key == "uniqueItems":
        return bool(now) and not bool(was)
    try:
        if key in LOWER_BOUNDS:
            return bool(now > was)
        if key in UPPER_BOUNDS:
            return bool(now < was)
    except TypeError:
        pass
    return True                         # a different pattern or multipleOf: assume tighter
