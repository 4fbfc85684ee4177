"""The read's walk answers whether a document holds ``readOnly``/``writeOnly`` at all
(parse/limits.py, ``check_tree_refs``): normalise/schema.py skips the hidden-names walk
in a direction whose flag is nowhere (Stripe has neither, GitHub no ``writeOnly``).
The answer is about the file as read: after an overlay it is not known."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from toolcat.normalise.defs import Definitions
from toolcat.parse.inputs import Inputs
from toolcat.parse.limits import TreeFacts, check_tree_refs
from toolcat.pipeline import load_spec, spec_verdict

PROP = {"type": "object", "properties": {"id": {"type": "string"}, "name": {"type": "string"}}}


def _with(schema: Any) -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": {"A": schema}}}


SHAPES: dict[str, tuple[Any, bool, bool]] = {
    "none": (_with(PROP), False, False),
    "readOnly property": (_with({**PROP, "properties": {"id": {"readOnly": True}}}),
                          True, False),
    "writeOnly deep in a list": (_with({"allOf": [{"oneOf": [{"writeOnly": True}]}]}),
                                 False, True),
    "in a literal value": (_with({"example": {"readOnly": 1}, "x-a": [{"writeOnly": 0}]}),
                           True, True),
    "a property named so": (_with({"properties": {"readOnly": {}}}), True, False),
    "a bare list": ([{"writeOnly": True}], False, True),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_read_walk_finds_each_flag_anywhere(shape: str) -> None:
    tree, read_only, write_only = SHAPES[shape]
    facts = check_tree_refs(tree, "spec.json")
    assert (facts.read_only, facts.write_only) == (read_only, write_only), shape


def test_a_walk_that_does_not_look_answers_maybe(tmp_path: Path) -> None:
    """A reader that builds TreeFacts without the two flags (the YAML fast path's walk)
    says "maybe" for both: the hidden-names walk then runs as before."""
    path = tmp_path / "spec.json"
    path.write_text("{}")
    run = Inputs()
    data = run(path)
    run.note_facts(data, TreeFacts(True, False, False))
    assert run.access(data) == frozenset({"readOnly", "writeOnly"})
    run.note_facts(data, TreeFacts(True, False, False, False, True))
    assert run.access(data) == frozenset({"writeOnly"})


def _input_of_a(path: Path, overlays: tuple[Path, ...] = ()) -> tuple[Any, Any]:
    run = Inputs()
    spec = load_spec(path, known_valid=spec_verdict(path), overlays=overlays, read=run)
    defs = Definitions(spec.document, str(path), False, spec.access)
    return spec.access, defs.definition("A", "input")[0]


def test_the_answer_reaches_the_rewriter(tmp_path: Path) -> None:
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(_with({**PROP, "properties": {
        "id": {"type": "string", "readOnly": True}, "name": {"type": "string"}}})))
    access, schema = _input_of_a(path)
    assert access == frozenset({"readOnly"})
    assert sorted(schema["properties"]) == ["id", "name"]
    assert schema["properties"]["id"] is False, "a readOnly property was not hidden"
    path.write_text(json.dumps(_with(PROP)))
    assert _input_of_a(path) == (frozenset(), PROP)


def test_a_flag_an_overlay_writes_still_hides(tmp_path: Path) -> None:
    """The file as read has no readOnly; the overlay adds one: the rewriter must look."""
    path = tmp_path / "spec.json"
    path.write_text(json.dumps(_with(PROP)))
    overlay = tmp_path / "overlay.yaml"
    overlay.write_text("overlay: 1.0.0\ninfo: {title: o, version: '1'}\nactions:\n"
                       "  - target: $.components.schemas.A.properties.id\n"
                       "    update: {readOnly: true}\n")
    access, schema = _input_of_a(path, (overlay,))
    assert access is None, "the read's answer outlived the overlay"
    assert schema["properties"]["id"] is False, "the overlay's readOnly property was sent"
