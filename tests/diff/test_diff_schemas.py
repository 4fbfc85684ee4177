"""The structural schema comparison on its own: references, cycles, unions, maps, unknowns."""

from __future__ import annotations

from typing import Any

import pytest
from toolcat.diff.schemas import compare_schemas

B, C = "breaking", "compatible"


def found(old: dict[str, Any], new: dict[str, Any], direction: str = "input"
          ) -> set[tuple[str, str, str]]:
    return {(".".join(f.path), f.severity, f.kind)
            for f in compare_schemas(old, new, direction)}  # type: ignore[arg-type]


def root(props: dict[str, Any], defs: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "object", "properties": props}
    if defs:
        out["$defs"] = defs
    return out


NODE = {"type": "object", "properties": {"label": {"type": "string"},
                                         "next": {"$ref": "#/$defs/Node"}}}


def test_a_ref_and_its_inline_equal_compare_equal() -> None:
    inline = root({"n": {"type": "integer", "format": "int32"}})
    by_ref = root({"n": {"$ref": "#/$defs/Int32"}},
                  {"Int32": {"type": "integer", "format": "int32"}})
    assert found(inline, by_ref) == set()
    assert found(by_ref, inline) == set()


def test_a_recursive_definition_is_compared_once_and_ends() -> None:
    old = root({"head": {"$ref": "#/$defs/Node"}}, {"Node": NODE})
    changed = {**NODE, "properties": {**NODE["properties"], "label": {"type": "integer"}}}
    new = root({"head": {"$ref": "#/$defs/Node"}}, {"Node": changed})
    assert found(old, new) == {("head.label", B, "type-changed")}
    assert found(old, old) == set()


def test_a_definition_renamed_but_equal_is_no_change() -> None:
    old = root({"head": {"$ref": "#/$defs/Node"}}, {"Node": NODE})
    renamed = {**NODE, "properties": {**NODE["properties"], "next": {"$ref": "#/$defs/Item"}}}
    new = root({"head": {"$ref": "#/$defs/Item"}}, {"Item": renamed})
    assert found(old, new) == set()


def test_integer_to_number_widens_and_back_narrows() -> None:
    integer, number = root({"n": {"type": "integer"}}), root({"n": {"type": "number"}})
    assert found(integer, number) == {("n", C, "type-changed")}
    assert found(number, integer) == {("n", B, "type-changed")}
    assert found(number, integer, "output") == {("n", C, "type-changed")}


@pytest.mark.parametrize(("direction", "added", "removed"), [("input", C, B), ("output", B, C)])
def test_union_branches(direction: str, added: str, removed: str) -> None:
    two = root({"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}})
    three = root({"v": {"anyOf": [{"type": "string"}, {"type": "integer"},
                                  {"type": "boolean"}]}})
    assert found(two, three, direction) == {("v", added, "variant-added")}
    assert found(three, two, direction) == {("v", removed, "variant-removed")}


def test_a_changed_branch_is_compared_inside() -> None:
    old = root({"v": {"oneOf": [{"type": "string"}, root({"a": {"type": "integer"}})]}})
    new = root({"v": {"oneOf": [{"type": "string"}, root({"a": {"type": "string"}})]}})
    assert found(old, new) == {("v. (oneOf 2).a", B, "type-changed")}


def test_maps_and_arrays() -> None:
    old = root({"tags": {"type": "object", "additionalProperties": {"type": "string"}},
                "ids": {"type": "array", "items": {"type": "integer"}}})
    new = root({"tags": {"type": "object", "additionalProperties": {"type": "integer"}},
                "ids": {"type": "array", "items": {"type": "string"}}})
    assert found(old, new) == {("tags.{}", B, "type-changed"), ("ids.[]", B, "type-changed")}
    closed = root({"x": {"type": "object", "additionalProperties": False}})
    open_ = root({"x": {"type": "object"}})
    assert found(open_, closed) == {("x", B, "additional-properties-changed")}
    assert found(closed, open_) == {("x", C, "additional-properties-changed")}


def test_an_unknown_keyword_is_reported_as_breaking_by_name() -> None:
    old = root({"x": {"type": "string", "not": {"const": "a"}}})
    new = root({"x": {"type": "string", "not": {"const": "b"}}})
    changes = compare_schemas(old, new, "input")
    assert [(c.kind, c.severity) for c in changes] == [("schema-changed", B)]
    assert changes[0].detail.startswith('not {"const":"a"} -> {"const":"b"}')


def test_nested_required_property_added_is_breaking_for_input_only() -> None:
    old = root({"o": root({"a": {"type": "string"}})})
    new = root({"o": {**root({"a": {"type": "string"}, "b": {"type": "string"}}),
                      "required": ["b"]}})
    assert found(old, new) == {("o.b", B, "required-argument-added")}
    assert found(old, new, "output") == {("o.b", C, "output-property-added")}


def test_dependent_required_is_classified_by_what_it_adds() -> None:
    """toolcat's "no body, or a body with its required fields" (dependentRequired)."""
    props = {"name": {"type": "string"}, "note": {"type": "string"}}
    free = {"type": "object", "properties": props}
    tied = {**free, "dependentRequired": {"note": ["name"]}}
    always = {**free, "required": ["name"]}
    assert found(free, tied) == {("note", B, "dependent-required-added")}
    assert found(tied, free) == {("note", C, "dependent-required-removed")}
    assert found(free, tied, "output") == {("note", C, "dependent-required-added")}
    # A body made optional: name was always needed, now only with a body field.
    assert found(always, tied) == {("name", C, "argument-now-optional")}
    assert found(tied, always) == {("name", B, "argument-now-required")}
    odd = {**free, "dependentRequired": ["name"]}
    assert found(free, odd) == {("", B, "schema-changed")}
