"""Shared subschemas cost their size, not their number of paths.

An ``allOf`` DAG 20 levels deep with 3 references per level (4 KB) ran for over 90 s
(``merged_object`` and the validator's ``_collect_properties`` walked 3**20 paths),
an ``anyOf`` DAG in a response did the same in ``_ceiling``, and an enum of 20,000
strings plus one object made jsonschema's ``uniq`` compare every pair. Work is
counted here, not timed: each function runs once per shared schema.
(``scripts/runaway.py`` prints the timings.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema._utils
import pytest
from helpers.counting import counting as _counting
from helpers.fixtures import generate, write_spec
from openapi_spec_validator.validation.keywords import SchemaValidator
from toolcat.load.validation import bounds
from toolcat.load.validation.speedups import speedups
from toolcat.load.validation.validate import validate_document
from toolcat.normalise import defs as defs_module
from toolcat.normalise import merge

LEVELS = 20


def _doc(keyword: str, leaf: dict[str, Any], where: str) -> dict[str, Any]:
    schemas = {"L0": leaf}
    for i in range(1, LEVELS + 1):
        schemas[f"L{i}"] = {keyword: [{"$ref": f"#/components/schemas/L{i - 1}"}] * 3}
    top = {"$ref": f"#/components/schemas/L{LEVELS}"}
    op: dict[str, Any] = {"operationId": "a", "responses": {"200": {"description": "ok"}}}
    if where == "body":
        op["requestBody"] = {"content": {"application/json": {"schema": top}}}
    else:
        op["responses"]["200"]["content"] = {"application/json": {"schema": top}}
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"post": op}}, "components": {"schemas": schemas}}


ALLOF = _doc("allOf", {"type": "object", "properties": {"p": {"type": "string"}}}, "body")
ANYOF = _doc("anyOf", {"type": "string"}, "response")


def test_an_allof_dag_merges_once_per_schema(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch, merge, "_merged")
    catalog = generate(write_spec(tmp_path, ALLOF, "spec.json"), validate=False)
    assert catalog["tools"][0]["tool"]["inputSchema"]["properties"] == {"p": {"type": "string"}}
    assert calls[0] <= 2 * (LEVELS + 1), calls


def test_an_anyof_dag_ceils_once_per_schema(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch, defs_module.Definitions, "_ceiling_of")
    generate(write_spec(tmp_path, ANYOF, "spec.json"), validate=False)
    # Once per (schema, set of defs on the way): each def's loosened form starts its
    # own walk, so a chain of N defs costs N**2 at worst, never 3**N.
    assert calls[0] <= 2 * (LEVELS + 1) ** 2, calls


def test_the_validator_collects_properties_once_per_schema(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch, SchemaValidator, "_collect_properties")
    validate_document(json.loads(json.dumps(ALLOF)), "spec.json")
    assert 0 < calls[0] <= 4 * (LEVELS + 1), calls


SAMPLES: list[list[Any]] = [
    [1, 1.0], [True, 1], [False, 0], [[True], [1]], [{"a": 1}, {"a": 1.0}], ["1", 1],
    [{"a": [1, {"b": True}]}, {"a": [1, {"b": True}]}], [{"a": 1}, {"a": 1, "b": 2}],
    [{"a": 1}, {"a": 2}], [None, 0], [None, None], [[], {}], ["a", ["a"]],
    [2**64 + 1, 2**64], [[1, 2], [2, 1]],
    [f"v{i}" for i in range(50)] + [{"a": 1}], [f"v{i}" for i in range(50)] + ["v7"],
]


@pytest.mark.parametrize("items", SAMPLES)
def test_linear_uniq_answers_as_jsonschema_does(items: list[Any]) -> None:
    assert bounds.uniq(items) is jsonschema._utils.uniq(items)


def test_an_enum_of_strings_and_one_object_never_compares_pairs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch, jsonschema._utils, "equal")
    enum = [f"v{i}" for i in range(20_000)] + [{"a": 1}]
    with speedups(bounds.BOUNDS) as names:
        assert names == ("collect-properties", "unique-items")
        import jsonschema._keywords as keywords

        assert keywords.uniq(enum) is True
    assert calls[0] == 0
