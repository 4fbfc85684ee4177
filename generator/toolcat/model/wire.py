"""What the wire demands beyond the spec's schema: constraints a value needs to be sendable.

A value can be valid for a parameter's schema and still not make the request the
schema describes. The inputSchema says so, so that every call it admits is a
request the API's own document accepts (issue 11, measured by tests/oracle):

* a path value that is an empty string or an empty list leaves an empty segment
  (``DELETE /api/session/`` is a different resource): ``minLength: 1`` /
  ``minItems: 1``;
* a path value, list item, object member name or member value that is a dot segment
  (``.`` or ``..``) is removed by the HTTP client or a normalising server (RFC 3986
  5.2.4): ``delete_repo {"user": "..", "repo": ".."}`` reached ``DELETE /api``. In every
  style, ``not: {enum: [".", ".."]}`` on the value, its items, members and member names
  (``DOT_SEGMENTS``; the runtime refuses them too);
* a required header or cookie string that is empty is read as absent by many servers
  (and by Prism): ``minLength: 1``, as for path and query values;
* a query value that is empty (``name=``) is only allowed with ``allowEmptyValue``:
  ``minLength: 1`` / ``minItems: 1`` otherwise;
* an empty list cannot be sent in a header or a cookie, or as a required query
  parameter (form/explode drops it from the URL): ``minItems: 1``; nor an empty object
  (plex's required ``prefs`` query object sent as ``{}`` left no parameter at all):
  ``minProperties: 1``; an object's members need a name and a value that is not
  null (``{"": null}`` sends nothing either), added in ``allOf`` as for list items;
* a required parameter (every path parameter) cannot be ``null``: RFC 6570, which
  OpenAPI's styles follow, sends nothing for an undefined value, which leaves an empty
  path segment (cloudflare's untyped ``account_id``: ``/accounts//devices``) or a
  missing required parameter: ``null`` leaves the schema's ``type`` list, or
  ``not: {type: null}`` is added in ``allOf`` where the schema has no type;
* a form-exploded object query or cookie parameter writes each member as its own
  ``name=value``: a member named like another parameter of that location (openai's
  free-form ``metadata`` beside ``limit`` and ``order``) would be read as that parameter:
  ``propertyNames: {not: {enum: [...]}}`` (names the object itself declares stay: a
  document that declares both is at fault); the names of the apiKey credentials the
  operation's security sends in that location count as parameters (a cookie member
  ``sid`` beside an apiKey cookie ``sid`` shadowed the tool's own key);
* a ``null`` item of a list parameter has no serialisation (RFC 6570 drops it or sends an
  empty value), nor, where empty values are refused, an empty string item:
  ``items: {not: {type: null}}`` (``minLength: 1`` too), added beside the schema in
  ``allOf`` so that it binds only when the value is a list;
* deepObject (a parameter, or a form field's ``encoding``) writes each member as
  ``name[member]=value``, nested values by the bracket convention (the runtime's
  ``_deep_pairs``): a member name with ``[`` or ``]`` would be read as another nesting
  (plex's free-form ``prefs`` drawn as ``prefs[a]b]``): ``propertyNames`` without them,
  ``DEEP_OBJECT_NAME``. A member whose type the document leaves open is a scalar here
  too, as in every other style: OpenAPI defines deepObject for scalar members, and the
  convention serves the nesting a document declares, not names drawn at any depth;
* a header value is visible Latin-1 text without control characters or surrounding
  white space (RFC 9110 field-value): ``HEADER_PATTERN``; a cookie value is RFC 6265
  cookie-octets: ``COOKIE_PATTERN``;
* a required text or binary body cannot be empty (an empty body is no body):
  ``minLength: 1``;
* bytes travel as base64 (``contentEncoding: base64``, a binary body or multipart
  file part), which JSON Schema does not check: ``BASE64_PATTERN`` (RFC 4648, padded),
  or ``"0"`` is admitted and cannot be decoded into a request;
* an optional body whose schema has required properties means "no body, or a body
  with those": ``dependentRequired`` from every body argument to one representative
  (the first required one by name), and from it to the other required ones: any body
  argument brings them all, in size linear in the arguments (``body_dependencies``;
  every pair listed grew as N²: 4,000 required fields gave a 364 MB catalog);
* a required body whose fields are all optional: ``binding.bodyRequired`` says a
  caller sends ``{}`` when no body argument is given.
Integer ``format: int32``/``int64`` bounds are added where schemas are rewritten
(``generator/normalise/schema.py``), at any depth.
"""

from __future__ import annotations

from typing import Any

from ..vocab.patterns import BASE64_PATTERN, DOT_SEGMENTS
from .types import ArgumentBinding

__all__ = ["BASE64_PATTERN", "COOKIE_PATTERN", "DEEP_OBJECT_NAME", "HEADER_PATTERN"]

# Every pattern ends in `$(?!\n)`: Python's `$` (jsonschema's, the runtime's) also
# matches before a final newline, ECMA-262's does not; the lookahead makes both agree.
# RFC 9110 field-value: visible ASCII and obs-text (Latin-1), inner spaces and tabs.
HEADER_PATTERN = r"^(?:[!-~\x80-\xff](?:[\t -~\x80-\xff]*[!-~\x80-\xff])?)?$(?!\n)"
# RFC 4648 base64 with padding (BASE64_PATTERN): generator/vocab/patterns.py, shared with
# normalise (`format: byte`).
# RFC 6265 cookie-octet: no control characters, white space, DQUOTE, comma, ; or \.
COOKIE_PATTERN = r"^[!#-+\--:<-\[\]-~]*$(?!\n)"
# A deepObject member name: no brackets, which the bracket convention reads as nesting.
DEEP_OBJECT_NAME = r"^[^\[\]]*$(?!\n)"


def json_kinds(target: Any) -> set[str] | None:
    """The JSON types a resolved spec schema allows; None when it does not say."""
    return _kinds(target)


def _kinds(target: Any) -> set[str] | None:
    """The JSON types a resolved spec schema allows; None when it does not say."""
    if not isinstance(target, dict):
        return None
    kind = target.get("type")
    if isinstance(kind, str):
        return {kind}
    if isinstance(kind, list):
        return {k for k in kind if isinstance(k, str)}
    return None


def _may_be_null(target: Any) -> bool:
    """Whether a resolved spec schema may admit ``null`` (no type, a ``null`` type, or
    ``nullable``)."""
    kinds = _kinds(target)
    return kinds is None or "null" in kinds or (
        isinstance(target, dict) and target.get("nullable") is True)


def _not_null(out: dict[str, Any]) -> None:
    kind = out.get("type")
    if isinstance(kind, list) and "null" in kind:
        rest = [k for k in kind if k != "null"]
        if rest:
            out["type"] = rest[0] if len(rest) == 1 else rest
    elif kind is None:
        out["allOf"] = [*out.get("allOf", []), {"not": {"type": "null"}}]


_NESTED = ("object", "array")
_SAYS_MORE = frozenset({"properties", "patternProperties", "allOf", "anyOf", "oneOf", "not",
                        "$ref", "enum", "const"})


def says_nothing(node: Any) -> bool:
    """A schema that leaves the JSON type open: absent, ``true``, ``{}`` or only
    annotations (no ``type``, no combinator, no reference)."""
    if node is None or node is True:
        return True
    return isinstance(node, dict) and "type" not in node and _SAYS_MORE.isdisjoint(node)


def open_below(target: Any, key: str) -> bool:
    """A list parameter's items (``key="items"``) or an object parameter's members
    (``"additionalProperties"``) whose type the document leaves open: it declares no
    members, combinator or reference, and the schema under ``key`` says nothing."""
    if target is None:
        return True
    if not isinstance(target, dict) or not _SAYS_MORE.isdisjoint(target):
        return False
    return says_nothing(target.get(key))


def _below(target: Any, key: str) -> dict[str, Any]:
    """What a member (``additionalProperties``) or item (``items``) of a parameter or
    deepObject field may be: not null (RFC 6570 drops it), and a scalar where the
    document leaves its type open (``open_below``)."""
    return {"not": {"type": ["null", *_NESTED] if open_below(target, key) else "null"}}


NOT_DOT_SEGMENT: dict[str, Any] = {"not": {"enum": list(DOT_SEGMENTS)}}


def _not_dot_segment(out: dict[str, Any]) -> dict[str, Any]:
    """``out`` that admits no dot segment (a path value, item or member)."""
    if "not" in out:
        return {**out, "allOf": [*out.get("allOf", []), NOT_DOT_SEGMENT]}
    return {**out, **NOT_DOT_SEGMENT}


def parameter_schema(schema: Any, target: Any, location: str, allow_empty: bool,
                     required: bool = False, taken: frozenset[str] = frozenset(),
                     style: str | None = None) -> Any:
    """``schema`` (rewritten) with the constraints its location needs on the wire;
    ``taken``: the names of the other parameters in its location that a form-exploded
    object's members (each its own ``name=value``) must not use. A list item or object
    member whose type the document leaves open is a scalar: no style writes a nested
    value the document does not declare (plex's free-form ``prefs``, cloudflare's untyped
    ``account_id``); deepObject members are named without brackets."""
    if not isinstance(schema, dict):
        return schema
    kinds = _kinds(target)
    may_string = kinds is None or "string" in kinds
    may_array = kinds is None or "array" in kinds
    may_object = kinds is None or "object" in kinds
    out = dict(schema)
    path = location == "path"
    if (required or path) and _may_be_null(target):
        _not_null(out)
    empty_ok = location == "query" and allow_empty
    if may_string and (path or (location == "query" and not empty_ok)
                       or (required and location in ("header", "cookie"))):
        _at_least_one(out, "minLength")
    if may_string and path:
        out = _not_dot_segment(out)
    if may_array and not empty_ok:   # an optional exploded query list may be omitted instead
        _at_least_one(out, "minItems")
    if may_object and not empty_ok:   # {} sends nothing (form, deepObject) or an empty value
        _at_least_one(out, "minProperties")
    if may_object:   # a member needs a name, and a null member is dropped (RFC 6570)
        names: dict[str, Any] = {"minLength": 1}
        refused = taken | frozenset(DOT_SEGMENTS) if path else taken
        if refused:   # exploded, a member named like another parameter would be read as it
            names["not"] = {"enum": sorted(refused)}
        if style == "deepObject":
            names["pattern"] = DEEP_OBJECT_NAME
        member = _below(target, "additionalProperties")
        out["allOf"] = [*out.get("allOf", []), {
            "propertyNames": names,
            "additionalProperties": _not_dot_segment(member) if path else member}]
    if may_array:
        item: dict[str, Any] = _below(target, "items")
        if location not in ("header", "cookie") and not empty_ok:
            item["minLength"] = 1
        out["allOf"] = [*out.get("allOf", []), {"items": _not_dot_segment(item) if path
                                                else item}]
    if may_string and location in ("header", "cookie"):
        pattern = HEADER_PATTERN if location == "header" else COOKIE_PATTERN
        if "pattern" in out and out["pattern"] != pattern:
            out["allOf"] = [*out.get("allOf", []), {"pattern": pattern}]
        else:
            out["pattern"] = pattern
    return out


def body_rules(schema: dict[str, Any], bindings: tuple[ArgumentBinding, ...],
               spec_required: frozenset[str], body_required: bool) -> dict[str, Any]:
    """The inputSchema with the body's presence rules (see the module docstring)."""
    body = {b.wire_name: b.argument for b in bindings if b.location == "body"}
    props = schema.get("properties", {})
    out = dict(schema)
    if None in body and body_required:
        whole = body[None]
        prop = props.get(whole)
        if isinstance(prop, dict) and prop.get("type") == "string":
            out["properties"] = {**props, whole: {**prop,
                                                  "minLength": _least(prop.get("minLength", 0))}}
    needed = sorted(body[w] for w in spec_required if w in body)
    if not body_required and needed:
        rules = body_dependencies([arg for w, arg in body.items() if w is not None], needed)
        if rules:
            out["dependentRequired"] = rules
    return out


def body_dependencies(arguments: list[str], needed: list[str]) -> dict[str, list[str]]:
    """"Any of ``arguments`` given: all of ``needed`` too", linear in size: each argument
    needs the representative (the first of ``needed`` by name), which needs the rest;
    sorted, so bytes do not follow the document's order."""
    if not needed:
        return {}
    first, *rest = sorted(set(needed))
    rules = {arg: [first] for arg in sorted(set(arguments) | set(needed)) if arg != first}
    if rest:
        rules[first] = rest
    return dict(sorted(rules.items()))


def form_field_schema(schema: Any, target: Any, multipart: bool) -> Any:
    """A required form field's schema with what it takes to write anything at all.

    form-urlencoded writes an empty list as no pair (exploded) or as ``name=``, one
    empty item (not exploded), and an empty object as no pair at all (form or
    deepObject); a multipart body writes a list as one part per item (RFC 7578 4.3), so
    none for ``[]``. The field is then missing from a body whose schema requires it
    (Stripe's ``post_account_sessions`` ``components: {}``,
    ``post_treasury_financial_accounts`` ``supported_currencies: []``):
    ``minItems: 1``, and outside multipart (where an object is a JSON part)
    ``minProperties: 1`` with members that write something (a name, a value that is
    not null: ``{"": null}`` is no pair either), as for object parameters."""
    if not isinstance(schema, dict):
        return schema
    kinds = _kinds(target)
    out = dict(schema)
    if kinds is None or "array" in kinds:
        _at_least_one(out, "minItems")
    if not multipart and (kinds is None or "object" in kinds):
        _at_least_one(out, "minProperties")
        out["allOf"] = [*out.get("allOf", []), {"propertyNames": {"minLength": 1},
                                                 "additionalProperties": {"not": {"type": "null"}}}]
    return out


def deep_object_field_schema(schema: Any, target: Any) -> Any:
    """A form field written by deepObject (its ``encoding``) with the member rules of a
    deepObject parameter: names without brackets, open members scalar."""
    if not isinstance(schema, dict):
        return schema
    kinds = _kinds(target)
    out = dict(schema)
    if kinds is None or "object" in kinds:
        out["allOf"] = [*out.get("allOf", []), {
            "propertyNames": {"pattern": DEEP_OBJECT_NAME},
            "additionalProperties": _below(target, "additionalProperties")}]
    if kinds is None or "array" in kinds:
        out["allOf"] = [*out.get("allOf", []), {"items": _below(target, "items")}]
    return out


def form_members(schema: Any) -> Any:
    """A form-urlencoded body carried whole (a union): its members are the fields, a
    list exploded into one ``name=item`` per item, so a list item cannot be an object or
    a list (no form rule writes it; an object member itself travels as JSON text).
    Lichess' ``broadcast_round_update``: a branch open to other names admitted
    ``syncUrl: [{...}]``."""
    if not isinstance(schema, dict):
        return schema
    scalar_items = {"additionalProperties": {"items": {"not": {"type": list(_NESTED)}}}}
    return {**schema, "allOf": [*schema.get("allOf", []), scalar_items]}


def _least(value: Any) -> Any:
    """``max(1, value)`` for a count; a value of another type (warn mode lets a document
    the validator rejects through) stays, for the meta-schema check to refuse, located."""
    return max(1, value) if isinstance(value, int) and not isinstance(value, bool) else value


def _at_least_one(schema: dict[str, Any], key: str) -> None:
    schema[key] = _least(schema.get(key, 0))
