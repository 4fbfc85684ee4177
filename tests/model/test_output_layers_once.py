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
