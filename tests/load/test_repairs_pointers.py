"""Warn mode's tuple ``items`` are found wherever they are, at their exact pointers.

``repairs._tuples`` spells a node's pointer only when it holds a tuple (the walk
visits every node of a 13 MB document); the pointer must still be escaped token by
token, count list indexes, and skip what is no schema (examples, extensions, names).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.fixtures import write_spec
from toolcat.load.repairs import TUPLE, _any_tuple, _tuples, repair
from toolcat.parse.inputs import Inputs
from toolcat.parse.limits import check_tree_refs
from toolcat.pipeline import load_spec, spec_verdict


def tuple_items() -> dict[str, Any]:
    return {"type": "array", "items": [{"type": "string"}]}


def document() -> dict[str, Any]:
    return {
        "openapi": "3.0.3",
        "paths": {"/a/{b}~c": {"get": {"parameters": [
            {"name": "x", "in": "query", "schema": {"type": "string"}},
            {"name": "y", "in": "query", "schema": tuple_items()}]}}},
        "components": {"schemas": {
            "Pair": {"allOf": [{"type": "object"}, {"properties": {"p": tuple_items()}}]},
            # a property named "items" whose schema is an object: a name, no tuple
            "Named": {"properties": {"items": {"type": "object"}}},
            "Example": {"example": {"items": [1, 2]}, "x-doc": {"items": [1]}},
            "Deep/One": {"items": {"items": [{"type": "integer"}]}},
        }},
    }


def test_each_tuple_found_at_its_escaped_pointer() -> None:
    fixed, notes = repair(document(), "spec.json")
    found = [(n.location, n.message) for n in notes]
    assert found == [
        ("/components/schemas/Deep~1One/items/items", TUPLE),
        ("/components/schemas/Pair/allOf/1/properties/p/items", TUPLE),
        ("/paths/~1a~1{b}~0c/get/parameters/1/schema/items", TUPLE),
    ]
    pair = fixed["components"]["schemas"]["Pair"]["allOf"][1]["properties"]["p"]
    assert pair == {"type": "array", "prefixItems": [{"type": "string"}]}


def test_no_tuple_no_note() -> None:
    doc = {"openapi": "3.0.3", "paths": {},
           "components": {"schemas": {"A": {"items": {"type": "string"}}}}}
    fixed, notes = repair(doc, "spec.json")
    assert notes == []
    assert fixed is doc


def test_a_tuple_reached_twice_is_repaired_once() -> None:
    """A YAML alias (``schema: *pair``) is one node at two pointers: both are noted,
    and the node is read as prefixItems (it was an internal error, KeyError 'items')."""
    pair = tuple_items()
    doc = {"openapi": "3.0.3", "components": {"schemas": {"A": pair, "B": {"allOf": [pair]}}}}
    fixed, notes = repair(doc, "spec.yaml")
    assert [n.location for n in notes] == ["/components/schemas/A/items",
                                           "/components/schemas/B/allOf/0/items"]
    assert fixed["components"]["schemas"]["A"] == {"type": "array",
                                                   "prefixItems": [{"type": "string"}]}
    assert fixed["components"]["schemas"]["B"]["allOf"][0] is fixed["components"]["schemas"]["A"]


PAIR = [{"type": "string"}, {"type": "integer"}]


def _literals_document() -> dict[str, Any]:
    schema = {"type": "array", "items": PAIR}
    return {
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "paths": {"/a/{b}~c": {"get": {"parameters": [
            {"name": "b", "in": "path", "schema": schema}], "responses": {"200": {
                "description": "ok", "content": {"application/json": {"schema": {
                    "type": "object", "x-skip": {"items": PAIR},
                    "properties": {"items": {"type": "array", "items": PAIR},
                                   "a/b": schema}}}}}}}}},
        "components": {"schemas": {"items": {"type": "array", "items": PAIR},
                                   "Lit": {"default": {"items": PAIR}}}},
    }


def test_literals_and_extensions_are_skipped_names_are_not() -> None:
    fixed, notes = repair(_literals_document(), "spec.yaml")
    assert [n.location for n in notes] == sorted([
        "/components/schemas/items/items",
        "/paths/~1a~1{b}~0c/get/parameters/0/schema/items",
        "/paths/~1a~1{b}~0c/get/responses/200/content/application~1json/schema/"
        "properties/a~1b/items",
        "/paths/~1a~1{b}~0c/get/responses/200/content/application~1json/schema/"
        "properties/items/items",
    ])
    assert fixed["components"]["schemas"]["items"]["prefixItems"] == PAIR


def _only(schema: dict[str, Any], at: str = "schemas") -> dict[str, Any]:
    return {"openapi": "3.0.3", "components": {at: {"A": schema}}}


SHAPES = {
    "tuples at escaped pointers": document(),
    "literals, extensions and names": _literals_document(),
    "no tuple": _only({"items": {"type": "string"}}),
    "a tuple only in an example": _only({"example": {"items": PAIR}}),
    "a tuple only in an extension": _only({"x-doc": {"items": PAIR}}),
    "a tuple only in an enum": _only({"enum": [{"items": PAIR}]}),
    "a schema named items with a tuple": _only({"items": PAIR}, "schemas"),
    "a property named items, no tuple": _only({"properties": {"items": {"type": "object"}}}),
    "a tuple under a named property": _only({"properties": {"p": {"items": PAIR}}}),
    "a tuple in a list of lists": {"x": [[{"items": PAIR}]]},
    "a tuple at the top": {"items": PAIR},
    "a tuple under a name of a names map": _only({"properties": {"items": {"items": PAIR}}}),
    "a names map with a member named items": _only({"properties": {"items": PAIR}}),
    "a list at the top": [{"items": PAIR}],  # type: ignore[dict-item]
    "not a container": "text",  # type: ignore[dict-item]
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_quick_probe_agrees_with_the_walk(shape: str) -> None:
    found: list[str] = []
    _tuples(SHAPES[shape], "", False, found)
    assert _any_tuple(SHAPES[shape]) == bool(found), f"{shape}: the walk found {found}"


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_read_walk_agrees_with_the_walk(shape: str) -> None:
    """A JSON file's read answers the probe's question in its own walk (parse/limits.py,
    ``check_tree_refs``): the pipeline then skips the probe when the answer is no."""
    found: list[str] = []
    _tuples(SHAPES[shape], "", False, found)
    assert check_tree_refs(SHAPES[shape], "spec.json").tuples == bool(found), (
        f"{shape}: the walk found {found}")


@pytest.mark.parametrize("name", ["spec.json", "spec.yaml"])
def test_a_spec_read_through_the_run_is_repaired(name: str, tmp_path: Path) -> None:
    """End to end: the read's answer (JSON: ``check_tree_refs``; YAML: the fast path's
    walk, parse/yaml_fast.py) reaches ``repair`` through the bundle, and a yes still
    repairs (a no must never hide a tuple)."""
    path = write_spec(tmp_path, {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                                 "paths": {}, **_only(tuple_items())}, name)
    run = Inputs()
    spec = load_spec(path, known_valid=spec_verdict(path), read=run)
    assert run.tuples(run(path.resolve())) is True, "the read did not answer"
    assert spec.document["components"]["schemas"]["A"] == {
        "type": "array", "prefixItems": [{"type": "string"}]}
    assert [p.location for p, _ in spec.validated().counted] == [
        "/components/schemas/A/items"]


def test_a_tuple_an_overlay_writes_is_repaired(tmp_path: Path) -> None:
    """The read's answer is about the file as read: after an overlay, ``repair`` asks."""
    path = tmp_path / "spec.json"
    path.write_text(json.dumps({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                                "paths": {}, **_only({"type": "string"})}))
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions:\n"
                       "  - target: $.components.schemas\n"
                       "    update: {B: {type: array, items: [{type: string}]}}\n")
    run = Inputs()
    spec = load_spec(path, known_valid=spec_verdict(path), overlays=(overlay,), read=run)
    assert run.tuples(run(path.resolve())) is False
    assert spec.document["components"]["schemas"]["B"] == {
        "type": "array", "prefixItems": [{"type": "string"}]}
