"""Arguments whose names collide after sanitising get distinct, readable names.

Issue 9 item 10: query parameters ``StartTime``, ``StartTime<`` and ``StartTime>`` (a
common filter convention) were refused with "argument name 'query_StartTime' is
used twice". Every shape below must generate; names come from the characters that
were removed, never from a counter, and do not depend on the order of the spec's
parameters. The binding keeps every wire name.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers.generate import build
from toolcat.model.argument_names import Wanted, assign, spelled
from toolcat.model.naming import argument_name


def _spec(tmp_path: Path, params: list[tuple[str, str]], body: list[str] | None = None,
          name: str = "spec.json") -> Path:
    path_params = [n for loc, n in params if loc == "path"]
    route = "/items" + "".join(f"/{{{n}}}" for n in path_params)
    op: dict[str, Any] = {
        "operationId": "op",
        "parameters": [{"name": n, "in": loc, "required": loc == "path",
                        "schema": {"type": "string"}} for loc, n in params],
        "responses": {"200": {"description": "ok"}}}
    if body is not None:
        op["requestBody"] = {"content": {"application/json": {"schema": {
            "type": "object", "properties": {n: {"type": "integer"} for n in body}}}}}
    doc = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
           "paths": {route: {"post": op}}}
    spec = tmp_path / name
    spec.write_text(json.dumps(doc))
    return spec


def _arguments(spec: Path) -> dict[str, tuple[str, str | None]]:
    tool = build(spec).tools[0]
    wires = {a.argument: (a.location, a.wire_name) for a in tool.binding.arguments}
    assert set(wires) == set(tool.input_schema["properties"]), "schema and binding disagree"
    return wires


def test_filter_convention_generates_readable_names(tmp_path: Path) -> None:
    spec = _spec(tmp_path, [("query", "StartTime"), ("query", "StartTime<"),
                            ("query", "StartTime>")])
    assert _arguments(spec) == {"StartTime": ("query", "StartTime"),
                                "StartTime_lt": ("query", "StartTime<"),
                                "StartTime_gt": ("query", "StartTime>")}


# Each shape: wire names (location, name) that collide once sanitised; expected names.
SHAPES: dict[str, tuple[list[tuple[str, str]], list[str] | None, dict[str, tuple[str, str]]]] = {
    "comparison operators": (
        [("query", "created>="), ("query", "created<="), ("query", "created")], None,
        {"created": ("query", "created"), "created_gt_eq": ("query", "created>="),
         "created_lt_eq": ("query", "created<=")}),
    "array brackets": (
        [("query", "ids[]"), ("query", "ids")], None,
        {"ids": ("query", "ids"), "ids_list": ("query", "ids[]")}),
    "two lossy, no exact": (
        [("query", "a!"), ("query", "a*")], None,
        {"a_not": ("query", "a!"), "a_star": ("query", "a*")}),
    "same name in path, query and body": (
        [("path", "id"), ("query", "id")], ["id"],
        {"id": ("path", "id"), "query_id": ("query", "id"), "body_id": ("body", "id")}),
    "spelled name taken by a real parameter": (
        [("query", "a<"), ("query", "a_lt"), ("query", "a")], None,
        {"a": ("query", "a"), "a_lt": ("query", "a_lt"), "query_a": ("query", "a<")}),
    "unnamed characters": (
        [("query", "size\u00b2"), ("query", "size")], None,
        {"size": ("query", "size"), "size_u00b2": ("query", "size\u00b2")}),
    "header spellings": (
        [("header", "X-Trace Id"), ("header", "X-Trace_Id")], None,
        {"X-Trace_Id": ("header", "X-Trace_Id"),
         "header_X-Trace_Id": ("header", "X-Trace Id")}),
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_collision_shape(tmp_path: Path, shape: str) -> None:
    params, body, expected = SHAPES[shape]
    assert _arguments(_spec(tmp_path, params, body)) == expected


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_names_do_not_depend_on_parameter_order(tmp_path: Path, shape: str) -> None:
    params, body, expected = SHAPES[shape]
    for i, order in enumerate(itertools.permutations(params)):
        spec = _spec(tmp_path, list(order), body, name=f"spec{i}.json")
        assert _arguments(spec) == expected, f"order {order}"


def test_random_collisions_are_distinct_and_order_free() -> None:
    """Many generated shapes: every name distinct, valid, the same in any order."""
    rng = random.Random(9)
    stems = ["a", "A", "a_lt", "a_b", "query_a"]
    marks = ["", "<", ">", "[]", "!", " ", "-", "\u00e9", "<=", "__"]
    for _ in range(300):
        wanted = list({(rng.choice(["path", "query", "header", "cookie", "body"]),
                        rng.choice(stems) + rng.choice(marks)) for _ in range(rng.randint(2, 7))})
        entries = [Wanted(_base(w), loc, w) for loc, w in wanted]
        names = assign(entries)
        assert isinstance(names, list), wanted
        assert len(set(names)) == len(names), (wanted, names)
        shuffled = list(range(len(entries)))
        rng.shuffle(shuffled)
        again = assign([entries[i] for i in shuffled])
        assert isinstance(again, list)
        assert {entries[i]: n for i, n in zip(shuffled, again, strict=True)} == dict(
            zip(entries, names, strict=True)), wanted


def _base(wire: str) -> str:
    return argument_name(wire)


def test_spelled_names() -> None:
    assert spelled("StartTime<") == "StartTime_lt"
    assert spelled("filter[]") == "filter_list"
    assert spelled("<a>") == "lt_a_gt"
