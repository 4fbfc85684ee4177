"""Rewrite OpenAPI 3.0/3.1 schema objects as JSON Schema 2020-12.

* ``nullable: true`` (3.0) and ``type: ["null", T]`` (3.1) both become a type
  array with ``"null"`` last, so the same API written either way yields the same
  bytes.
* an ``enum`` without a ``type`` gets the type of its values.
* 3.0 boolean ``exclusiveMinimum``/``exclusiveMaximum`` become numbers; ``example``
  becomes ``examples``.
* OpenAPI-only keywords (``discriminator``, ``xml``, ``externalDocs``) and ``x-*``
  extensions are dropped: they are not JSON Schema and are not part of a tool.
* inputs leave out ``readOnly`` properties, outputs leave out ``writeOnly`` ones,
  at any depth and through ``allOf``; an output keeps a dropped name as ``true``
  (OpenAPI: a writeOnly property SHOULD NOT be in a response, not MUST NOT, and a
  closed object would refuse a response that still carries it).
* inputs carry no ``readOnly``/``writeOnly`` annotation: what is left of an input is
  a value the caller sends (Cloudflare's identifiers, ``readOnly`` and used as required
  path parameters, told clients that a value they must send is read-only).
* ``$ref``s point into the tool's own ``$defs`` (see ``defs.py``).
* inputs only (what the wire accepts, issue 11): ``nullable`` admits null only where
  OpenAPI 3.0.3's letter does (beside ``type``, never past an ``enum`` without null);
  ``format: int32``/``int64`` add the bounds they imply, ``format: byte`` the base64
  pattern; a ``discriminator``'s values
  are carried into its ``oneOf``/``anyOf`` branches (``enum`` on the property) before
  the keyword is dropped.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from ..errors import ToolcatError, fail
from ..jsontypes import TYPE_ORDER
from ..jsontypes import json_type as _json_type
from ..vocab.keywords import SUBSCHEMA_LIST, SUBSCHEMA_MAP, SUBSCHEMA_ONE
from ..vocab.patterns import BASE64_PATTERN
from ..vocab.pointers import LOCAL_DEFS, escape_token

Mode = Literal["input", "output"]

ONE, MAP, LIST = SUBSCHEMA_ONE, SUBSCHEMA_MAP, SUBSCHEMA_LIST
DROPPED = frozenset({"discriminator", "xml", "externalDocs", "nullable", "example", "$id",
                     "$schema", "$anchor", "$dynamicAnchor", "$comment", "definitions", "$defs",
                     "$vocabulary", "$recursiveAnchor"})
# 2019-09's recursive reference and 2020-12's dynamic one: both name the schema
# being defined (openai's CompoundFilter holds a list of itself).
SELF_REFS = ("$recursiveRef", "$dynamicRef")
_SUBSCHEMAS = ONE | MAP | LIST
# A schema without these keywords declares no property, here or through a part.
_COMPOSING = frozenset({"properties", "allOf", "oneOf", "anyOf", "$ref"})
_HIDDEN = {"input": "readOnly", "output": "writeOnly"}
# The keys through which a property may be hidden (``_is_hidden``).
_MARKS = {mode: frozenset({flag, "$ref", "allOf"}) for mode, flag in _HIDDEN.items()}
_ACCESS = frozenset({"readOnly", "writeOnly"})
_DROPPED_INPUT = DROPPED | _ACCESS
INT_BOUNDS = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}

# Resolves a local $ref to (def name, target schema, pointer of the target).
RefLookup = Callable[[str, str], tuple[str, Any, str]]
# id of each emitted schema node -> (the node, the spec pointer it came from): see
# Definitions.origins.
Origins = dict[int, tuple[Any, str]]
# What the rewriter does with a keyword of a schema object: copy it, leave it out, rewrite
# the schemas it holds, copy a type list.
COPY, DROP, SUB, TYPE = 0, 1, 2, 3


def keyword_kind(key: str, mode: Mode) -> int:
    """What becomes of ``key`` in a schema rewritten for ``mode``."""
    if key in (_DROPPED_INPUT if mode == "input" else DROPPED) or key.startswith("x-"):
        return DROP
    if key in _SUBSCHEMAS:
        return SUB
    return TYPE if key == "type" else COPY


class SchemaRewriter:
    """Rewrites one schema tree; collects the names of the $defs it points at."""

    def __init__(self, file: str, lookup: RefLookup, mode: Mode, is_30: bool,
                 home: str | None = None, origins: dict[str, str] | None = None,
                 record: Origins | None = None, kinds: dict[str, int] | None = None,
                 access: frozenset[str] | None = None) -> None:
        self.file = file
        self.recorded = record   # where each emitted node is recorded, if anywhere
        self.lookup = lookup
        self.mode = mode
        self.is_30 = is_30
        self.home = home      # the local $ref of the definition being rewritten, if any
        self.origins = origins   # pointers of a merged schema's properties (used once)
        self.refs: set[str] = set()
        # Whether a property may be hidden in this mode: not where the document holds
        # no key of the mode's flag (``access``: the flags it may hold; None: unknown).
        self._hides = access is None or _HIDDEN[mode] in access
        # keyword -> keyword_kind(keyword, mode): a catalog's rewriters share one
        self._kinds = {} if kinds is None else kinds
        # (walk, id of a raw schema) -> its names: a DAG of shared unions is walked
        # once per schema, not once per path (an anyOf of 3, 20 levels deep: 3**20).
        self._names_memo: dict[tuple[str, int], set[str]] = {}

    def record(self, out: dict[str, Any], loc: str) -> None:
        if self.recorded is not None:
            self.recorded[id(out)] = (out, loc)

    def rewrite(self, node: Any, loc: str) -> Any:
        if isinstance(node, bool):
            return node
        if not isinstance(node, dict):
            raise fail(self.file, loc, f"a schema must be an object, found {type(node).__name__}",
                       "replace it with a schema object")
        if "$recursiveRef" in node or "$dynamicRef" in node:
            for keyword in SELF_REFS:
                if keyword in node:
                    node = self._self_ref(node, keyword, loc)
        if "$ref" in node:
            return self._ref(node, loc)
        origins, self.origins = self.origins or {}, None
        out: dict[str, Any] = {}
        kinds = self._kinds
        for key, value in node.items():
            kind = kinds.get(key)
            if kind is None:
                kind = kinds[key] = keyword_kind(key, self.mode)
            if kind == COPY:
                out[key] = value
            elif kind == SUB:
                if key == "properties" and origins and isinstance(value, dict):
                    out[key] = {k: self.rewrite(v, origins.get(
                        k, f"{loc}/properties/{escape_token(k)}")) for k, v in value.items()}
                else:   # only a keyword that holds schemas needs its location (a
                    # keyword's name has no character to escape)
                    out[key] = self._keyword(key, value, f"{loc}/{key}")
            elif kind == TYPE:
                out[key] = list(value) if isinstance(value, list) else value
        if "example" in node and "examples" not in node:
            out["examples"] = [node["example"]]
        if "exclusiveMinimum" in node or "exclusiveMaximum" in node:
            _fix_exclusive(out, node)
        if self.mode == "input":
            if "format" in out:
                _format_bounds(out)
            if "discriminator" in node:
                self._discriminate(node, out)
        if "required" in out and isinstance(out["required"], list) and all(
                isinstance(r, str) for r in out["required"]):
            # 2020-12: unique. Sorted: the order carries no meaning, so reordering the
            # document changes no byte (issue 28 item 17).
            out["required"] = sorted(set(out["required"]))
        nullable = node.get("nullable") is True and self._nullable(node)
        kind_of = out.get("type")
        if nullable or not (isinstance(kind_of, str) or (kind_of is None and "enum" not in out)):
            _fix_type(out, nullable=nullable)   # else it would change nothing
        if self._hides and not _COMPOSING.isdisjoint(node):   # else nothing to hide
            self._hide_properties(node, out)
        if self.recorded is not None:
            self.recorded[id(out)] = (out, loc)
        return out

    def _annotation_dropped(self, key: str) -> bool:
        """readOnly/writeOnly in an input: every value left there is one the caller sends."""
        return self.mode == "input" and key in _ACCESS

    def _nullable(self, node: dict[str, Any]) -> bool:
        """``nullable: true`` admits null: in outputs always (looser, never narrower); in
        inputs only by OpenAPI 3.0.3's letter, and never in 3.1, which has no such
        keyword (openai's ``{$ref: ..., nullable: true}``: a 3.1 validator refuses null)."""
        if node.get("nullable") is not True:
            return False
        return self.mode == "output" or (self.is_30 and _strictly_nullable(node))

    def _keyword(self, key: str, value: Any, loc: str) -> Any:
        if key in ONE:
            return self.rewrite(value, loc)
        if key in MAP and isinstance(value, dict):
            return {k: self.rewrite(v, f"{loc}/{_escaped(k)}") for k, v in value.items()}
        if key in LIST and isinstance(value, list):
            return [self.rewrite(v, f"{loc}/{i}") for i, v in enumerate(value)]
        if key == "type" and isinstance(value, list):
            return list(value)
        return value

    def _discriminate(self, node: dict[str, Any], out: dict[str, Any]) -> None:
        """Put each branch's discriminator values on it, unless the branch fixes them."""
        disc = node.get("discriminator")
        if not isinstance(disc, dict) or not isinstance(disc.get("propertyName"), str):
            return
        prop = disc["propertyName"]
        mapping: dict[str, Any] = disc["mapping"] if isinstance(disc.get("mapping"), dict) else {}
        for key in ("oneOf", "anyOf"):
            raw, new = node.get(key), out.get(key)
            if not isinstance(raw, list) or not isinstance(new, list):
                continue
            out[key] = [self._tag_branch(r, n, prop, mapping) for r, n in zip(raw, new,
                                                                               strict=True)]

    def _tag_branch(self, raw: Any, new: Any, prop: str, mapping: dict[str, Any]) -> Any:
        if not (isinstance(raw, dict) and isinstance(raw.get("$ref"), str)
                and isinstance(new, dict) and "$ref" in new):
            return new
        ref = raw["$ref"]
        name, target, _ = self.lookup(ref, "")
        values = [v for v, r in mapping.items() if r in (ref, name, ref.rsplit("/", 1)[-1])]
        own = (target.get("properties") or {}).get(prop) if isinstance(target, dict) else None
        if not values and isinstance(own, dict) and ("const" in own or "enum" in own):
            return new
        # the mapping's values, even where the branch has an enum of its own: a value
        # the mapping does not list names no schema (DigitalOcean's by-tag actions
        # share a schema whose enum lists every action, and map only some)
        values = values or [ref.rsplit("/", 1)[-1]]
        return {**new, "properties": {prop: {"enum": sorted(values)}}}

    def _self_ref(self, node: dict[str, Any], keyword: str, loc: str) -> dict[str, Any]:
        """``$recursiveRef: '#'`` inside a definition is a ``$ref`` to that definition."""
        value = node[keyword]
        if self.home is None or value != "#":
            raise fail(self.file, f"{loc}/{escape_token(keyword)}",
                       f"{keyword} {value!r} outside a named schema is not supported",
                       "move the schema to components.schemas or use $ref")
        rest = {k: v for k, v in node.items() if k != keyword}
        return {**rest, "$ref": self.home}

    def _ref(self, node: dict[str, Any], loc: str) -> Any:
        ref = node["$ref"]
        if not isinstance(ref, str):
            raise fail(self.file, f"{loc}/$ref", f"$ref must be a string, found {ref!r}",
                       "quote the reference: in YAML an unquoted '#' starts a comment")
        if not ref.startswith("#"):
            raise fail(self.file, f"{loc}/$ref", f"$ref '{ref}' was not bundled",
                       "report this: toolcat should have bundled it")
        name, _, _ = self.lookup(ref, f"{loc}/$ref")
        self.refs.add(name)
        out: dict[str, Any] = {"$ref": LOCAL_DEFS + escape_token(name)}
        for key, value in node.items():
            if key == "$ref" or key in DROPPED or key.startswith("x-") \
                    or self._annotation_dropped(key):
                continue
            out[key] = (self._keyword(key, value, f"{loc}/{escape_token(key)}")
                        if key in _SUBSCHEMAS or key == "type" else value)
        self.record(out, loc)
        if self._nullable(node):
            return {"anyOf": [out, {"type": "null"}]}
        return out

    def _hide_properties(self, node: dict[str, Any], out: dict[str, Any]) -> None:
        """Drop readOnly (inputs) / writeOnly (outputs) properties, here and via allOf.

        A property is hidden when it says so itself or through its ``$ref`` (a
        shared ``Id`` schema marked readOnly). Names hidden by any ``allOf`` part,
        inline or referenced, also leave every ``required`` list, or the schema would
        demand a property it no longer declares; so do names hidden in the ``oneOf``
        or ``anyOf`` branches that declare them and required beside them (Cloudflare's
        DNS record, a oneOf of record types, requires ``created_on``, readOnly in every
        branch: the inputSchema required it with any value, where OpenAPI 3.0 says a
        readOnly property's ``required`` concerns responses only). In an input object
        open to other names, a dropped name stays, as ``false`` (never sent), or it
        would come back as an additional property of any value (Cloudflare's URI
        record sent its readOnly ``content`` as null).
        """
        if _COMPOSING.isdisjoint(node):   # no property to hide, here or in a part
            return
        hidden = self._hidden_names(node, frozenset())
        if not hidden:
            return
        raw_props = node.get("properties")
        raw_props = raw_props if isinstance(raw_props, dict) else {}
        props = out.get("properties")
        dropped = []
        if isinstance(props, dict):
            for name in sorted(hidden.intersection(props)):
                if self._is_hidden(raw_props.get(name), frozenset()):
                    del props[name]
                    dropped.append(name)
        if isinstance(props, dict) and self.mode == "input" \
                and out.get("additionalProperties") is not False \
                and out.get("unevaluatedProperties") is not False:
            # Gone from `properties`, an open object would still admit the name as an
            # additional property, of any value (an agent echoing `created_on` back).
            props.update(dict.fromkeys(dropped, False))
        elif isinstance(props, dict) and self.mode == "output":
            # A response may still carry a writeOnly property (SHOULD NOT, not MUST NOT):
            # the name stays allowed, or a closed object (here, or an ancestor's
            # unevaluatedProperties) refuses the whole answer.
            props.update(dict.fromkeys(dropped, True))
        for holder in [out, *[p for p in out.get("allOf", []) if isinstance(p, dict)]]:
            if isinstance(holder.get("required"), list):
                # A name that is not a string (warn mode) stays, for the meta-schema check.
                holder["required"] = [r for r in holder["required"]
                                      if not isinstance(r, str) or r not in hidden]

    def _names_once(self, kind: str, node: Any, seen: frozenset[str],
                    here: Callable[[dict[str, Any], frozenset[str]], set[str]]) -> set[str]:
        """``here(node)`` for the schema ``node`` stands for, once per schema (a DAG of
        shared references is walked once, not once per path); a cycle adds nothing."""
        if not isinstance(node, dict):
            return set()
        if "$ref" in node:
            node, seen = self._deref(node, seen)
            if not isinstance(node, dict):
                return set()
        key = (kind, id(node))
        if key not in self._names_memo:
            self._names_memo[key] = set()   # a cycle back here adds nothing
            self._names_memo[key] = here(node, seen)
        return self._names_memo[key]

    def _hidden_names(self, node: Any, seen: frozenset[str]) -> set[str]:
        return self._names_once("hidden", node, seen, self._hidden_here)

    def _hidden_here(self, node: dict[str, Any], seen: frozenset[str]) -> set[str]:
        names = set()
        if isinstance(node.get("properties"), dict):
            # a property without the flag, a $ref or allOf parts is not hidden: most are
            # not, and are told apart here without a call
            marks = _MARKS[self.mode]
            names = {name for name, sub in node["properties"].items()
                     if isinstance(sub, dict) and not marks.isdisjoint(sub)
                     and self._is_hidden(sub, seen)}
        for part in node.get("allOf") or []:
            names |= self._hidden_names(part, seen)
        for key in ("oneOf", "anyOf"):   # hidden where declared, in every branch
            branches = node.get(key)
            if not isinstance(branches, list) or not branches:
                continue
            parts: list[Any] = branches
            hidden = [self._hidden_names(part, seen) for part in parts]
            shown = [self._declared_names(part, seen) - h
                     for part, h in zip(parts, hidden, strict=True)]
            names |= set().union(*hidden) - set().union(*shown)
        return names

    def _declared_names(self, node: Any, seen: frozenset[str]) -> set[str]:
        """Property names a raw schema declares, here, via allOf and in its branches."""
        return self._names_once("declared", node, seen, self._declared_here)

    def _declared_here(self, node: dict[str, Any], seen: frozenset[str]) -> set[str]:
        names = set(node["properties"]) if isinstance(node.get("properties"), dict) else set()
        for key in ("allOf", "oneOf", "anyOf"):
            for part in node.get(key) or []:
                names |= self._declared_names(part, seen)
        return names

    def _is_hidden(self, sub: Any, seen: frozenset[str]) -> bool:
        """The property says readOnly/writeOnly itself, through its ``$ref``, or in one
        of its ``allOf`` parts (``allOf: [{$ref: Connection}, {readOnly: true}]``:
        every part holds for the whole, so the API refuses the property in a request)."""
        flag = _HIDDEN[self.mode]
        if isinstance(sub, dict) and flag in sub:
            return sub[flag] is True
        target, seen = self._deref(sub, seen)
        if not isinstance(target, dict):
            return False
        if flag in target:
            return target[flag] is True
        parts = target.get("allOf")
        return isinstance(parts, list) and any(self._is_hidden(p, seen) for p in parts)

    def _deref(self, node: Any, seen: frozenset[str]) -> tuple[Any, frozenset[str]]:
        """Follow ``$ref``s on a raw schema; a cycle or a broken one ends the walk."""
        while isinstance(node, dict) and isinstance(node.get("$ref"), str):
            ref = node["$ref"]
            if ref in seen or not ref.startswith("#"):
                return None, seen
            seen = seen | {ref}
            try:
                _, node, _ = self.lookup(ref, "")
            except ToolcatError:
                return None, seen   # reported with its location where the ref is rewritten
        return node, seen


def _escaped(token: str) -> str:
    """``escape_token``, without its two replacements for the usual name that needs none."""
    return escape_token(token) if "~" in token or "/" in token else token


def _fix_exclusive(out: dict[str, Any], node: dict[str, Any]) -> None:
    """3.0's boolean flags become 2020-12's numbers (3.1 documents use them too)."""
    for flag, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(node.get(flag), bool):
            if node[flag] and bound in node:
                out[flag] = out.pop(bound)
            else:
                out.pop(flag, None)




def _format_bounds(out: dict[str, Any]) -> None:
    """An int32/int64 value outside its range cannot be sent: say the range. A
    ``format: byte`` string (OpenAPI 3.0, Swagger 2.0: base64-encoded characters, a
    format JSON Schema does not know) admits base64 only: Kubernetes' CSR
    ``spec.request`` went out as any text."""
    fmt = out.get("format")
    if fmt == "byte":   # a pattern binds strings only
        if "pattern" not in out:
            out["pattern"] = BASE64_PATTERN
        elif out["pattern"] != BASE64_PATTERN:
            out["allOf"] = [*out.get("allOf", []), {"pattern": BASE64_PATTERN}]
        return
    bounds = INT_BOUNDS.get(fmt) if isinstance(fmt, str) else None
    if bounds is None:
        return
    low, high = bounds
    if _looser(out, "minimum", low, -1) and _looser(out, "exclusiveMinimum", low, -1):
        out["minimum"] = low
    if _looser(out, "maximum", high, 1) and _looser(out, "exclusiveMaximum", high, 1):
        out["maximum"] = high


def _looser(out: dict[str, Any], key: str, bound: int, sign: int) -> bool:
    """No ``key`` in ``out``, or one beyond ``bound`` (sign -1: below it, 1: above it)."""
    value = out.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return True
    return bool((value - bound) * sign > 0)


def _strictly_nullable(node: dict[str, Any]) -> bool:
    """Whether ``nullable: true`` admits null by the letter of OpenAPI 3.0.3: only beside
    an explicit ``type``, and not past an ``enum`` that lacks null ("other constraints
    retain their defined behavior"). Inputs follow the letter, which is what a
    validating API enforces (DigitalOcean ``reasoning_effort: null`` and a typeless
    ``stop: {nullable: true, oneOf: [...]}`` were refused); outputs keep the looser
    reading, so that a server sending null still passes outputSchema."""
    enum = node.get("enum")
    return "type" in node and not (isinstance(enum, list) and None not in enum)


def _fix_type(out: dict[str, Any], *, nullable: bool) -> None:
    types: list[str]
    raw = out.get("type")
    if isinstance(raw, str):
        types = [raw]
    elif isinstance(raw, list):
        types = [t for t in raw if isinstance(t, str)]
    elif isinstance(out.get("enum"), list) and out["enum"]:
        found = {_json_type(v) for v in out["enum"]}
        if "integer" in found and "number" in found:
            found.discard("integer")
        types = sorted(found, key=TYPE_ORDER.index)
    elif nullable:
        inner = {k: v for k, v in out.items() if k not in ("title", "description", "default")}
        if inner:
            for k in inner:
                del out[k]
            out["anyOf"] = [inner, {"type": "null"}]
        return
    else:
        return
    if nullable and "null" not in types:
        types.append("null")
    types = [t for t in dict.fromkeys(types) if t != "null"] + (["null"] if "null" in types
                                                                  else [])
    out["type"] = types[0] if len(types) == 1 else types
    if nullable and isinstance(out.get("enum"), list) and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
