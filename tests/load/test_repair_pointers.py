"""Warn mode's tuple ``items`` are named by their exact JSON pointers, found in one walk
that spells a pointer only for what it reports (issue 25: spelling every node's was
most of the walk's time on GitHub's 13 MB description)."""

from __future__ import annotations

from typing import Any

from toolcat.load.repairs import repair

TUPLE = [{"type": "string"}, {"type": "integer"}]


def _document() -> dict[str, Any]:
    schema = {"type": "array", "items": TUPLE}
    return {
        "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
        "paths": {"/a/{b}~c": {"get": {"parameters": [
            {"name": "b", "in": "path", "schema": schema}], "responses": {"200": {
                "description": "ok", "content": {"application/json": {"schema": {
                    "type": "object", "x-skip": {"items": TUPLE},
                    "properties": {"items": {"type": "array", "items": TUPLE},
                                   "a/b": schema}}}}}}}}},
        "components": {"schemas": {"items": {"type": "array", "items": TUPLE},
                                   "Lit": {"default": {"items": TUPLE}}}},
    }


def test_every_tuple_is_named_by_its_pointer() -> None:
    fixed, notes = repair(_document(), "spec.yaml")
    assert [n.location for n in notes] == sorted([
        "/components/schemas/items/items",
        "/paths/~1a~1{b}~0c/get/parameters/0/schema/items",
        "/paths/~1a~1{b}~0c/get/responses/200/content/application~1json/schema/"
        "properties/a~1b/items",
        "/paths/~1a~1{b}~0c/get/responses/200/content/application~1json/schema/"
        "properties/items/items",
    ])
    assert fixed["components"]["schemas"]["items"]["prefixItems"] == TUPLE


def test_a_tuple_reached_twice_is_repaired_once() -> None:
    """One schema object under two places (a YAML alias): both are reported, the shared
    copy is repaired once (the second pass used to raise KeyError: 'items')."""
    fixed, notes = repair(_document(), "spec.yaml")
    parameter = fixed["paths"]["/a/{b}~c"]["get"]["parameters"][0]["schema"]
    assert parameter == {"type": "array", "prefixItems": TUPLE}
    assert sum(n.location.endswith("/a~1b/items") for n in notes) == 1
