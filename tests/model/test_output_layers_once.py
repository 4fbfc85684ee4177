"""Operations that share an output's definitions size them once (issue 25).

``budgeted_closure`` needs each reachable definition's depth and size; stripe's 424
output schemas reach 180 distinct sets of root definitions, and each set was walked
again for every operation. Work is counted, not timed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.counting import counting
from helpers.fixtures import generate, write_spec
from toolcat.errors import ToolcatError
from toolcat.model.outputs import OUTPUT_BUDGET
from toolcat.normalise.defs import Definitions

OPERATIONS = 6


def _spec() -> dict[str, Any]:
    ok = {"200": {"description": "ok", "content": {"application/json": {"schema": {
        "$ref": "#/components/schemas/A"}}}}}
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {f"/p{i}": {"get": {"operationId": f"p{i}", "responses": ok}}
                      for i in range(OPERATIONS)},
            "components": {"schemas": {
                "A": {"type": "object", "properties": {"b": {"$ref": "#/components/schemas/B"}}},
                "B": {"type": "object", "properties": {"n": {"type": "integer"}}}}}}


def test_shared_output_definitions_are_layered_once(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    calls = counting(monkeypatch, Definitions, "levels")
    catalog = generate(write_spec(tmp_path, _spec(), "spec.json"), validate=False)
    schemas = [t["tool"]["outputSchema"] for t in catalog["tools"]]
    assert len(schemas) == OPERATIONS
    assert all(s == schemas[0] for s in schemas)
    assert set(schemas[0]["$defs"]) == {"B"}   # A, the root, is inlined
    assert calls[0] == 1, calls


def test_the_first_broken_definition_of_a_level_is_the_one_reported(tmp_path: Path) -> None:
    """Definitions are rewritten level by level, in name order within a level, so of two
    broken ones the same is reported whatever the order of the document's keys."""
    spec = _spec()
    broken = {"type": "object", "properties": {"v": {"$ref": 5}}}
    spec["components"]["schemas"] = {
        "A": {"type": "object", "properties": {
            "z": {"$ref": "#/components/schemas/Z"}, "c": {"$ref": "#/components/schemas/C"}}},
        "Z": broken, "C": broken}
    with pytest.raises(ToolcatError) as caught:
        generate(write_spec(tmp_path, spec, "spec.json"), validate=False)
    assert {p.location for p in caught.value.problems} == {
        "/components/schemas/C/properties/v/$ref"}


def _obj(**refs: str) -> dict[str, Any]:
    return {"type": "object", "properties": {
        k: {"$ref": f"#/components/schemas/{v}"} for k, v in refs.items()}}


def _deep_defs(**extra: Any) -> Definitions:
    """``Big`` alone passes the output budget; ``A`` and ``A2`` both reach it."""
    schemas = {"Big": {**_obj(n="Leaf"), "description": "x" * (OUTPUT_BUDGET + 1)},
               "Leaf": {"type": "object", "properties": {"v": {"type": "integer"}}},
               "A": _obj(big="Big"), "A2": _obj(big="Big"),
               "Mid": _obj(n="Leaf"), "A3": _obj(m="Mid"), "A4": _obj(m="Mid"), **extra}
    return Definitions({"openapi": "3.0.3", "components": {"schemas": schemas}},
                       "spec.json", True)


def test_levels_stop_past_the_budget_once_the_rest_is_known() -> None:
    """Past the depth whose bytes pass the budget, a walk whose deepest level is all
    rewritten (by an earlier closure, with everything below it) stops; the closure kept
    is the one the whole walk gives."""
    warmed = _deep_defs()
    warmed.budgeted_closure(frozenset({"A"}), "output", OUTPUT_BUDGET, 10)
    assert warmed.levels(frozenset({"A2"}), "output", OUTPUT_BUDGET) == [
        frozenset({"A2"}), frozenset({"Big"})]
    assert _deep_defs().levels(frozenset({"A2"}), "output", OUTPUT_BUDGET) == [
        frozenset({"A2"}), frozenset({"Big"}), frozenset({"Leaf"})]
    warmed.budgeted_closure(frozenset({"A3"}), "output", OUTPUT_BUDGET, 10)
    for roots in ("A2", "A4"):   # past the budget; within it (walked whole)
        for used in (10, OUTPUT_BUDGET):
            assert warmed.budgeted_closure(frozenset({roots}), "output", OUTPUT_BUDGET,
                                           used) == _deep_defs().budgeted_closure(
                frozenset({roots}), "output", OUTPUT_BUDGET, used), (roots, used)


def test_a_broken_definition_past_the_budget_is_still_found() -> None:
    """A level past the budget that holds a definition no walk completed is walked on:
    a broken definition below it is reported, as the whole walk reports it."""
    defs = _deep_defs(R=_obj(big="Big", m="M"), M=_obj(x="Broken"),
                      Broken={"type": "object", "properties": {"v": {"$ref": 5}}})
    defs.budgeted_closure(frozenset({"A"}), "output", OUTPUT_BUDGET, 10)
    with pytest.raises(ToolcatError) as caught:
        defs.budgeted_closure(frozenset({"R"}), "output", OUTPUT_BUDGET, 10)
    assert {p.location for p in caught.value.problems} == {
        "/components/schemas/Broken/properties/v/$ref"}
