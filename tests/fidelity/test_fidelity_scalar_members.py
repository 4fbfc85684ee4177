"""No OpenAPI style writes a nested value in a parameter that the document does not
declare: a list item or object member whose type the document leaves open (plex's
free-form ``prefs`` query object, cloudflare's untyped ``account_id``) is a scalar in
the inputSchema, deepObject included (OpenAPI defines it for scalar members; the bracket
convention serves declared nesting). A deepObject member's name has no brackets, which
the convention reads as nesting (plex's ``prefs[a]b]``, ``hints[x][0][y]`` drawn from
free-form maps: 4 serve-oracle rejections). What the document types (an object member
declared as an object) is left as it is. Oracle figure: every drawn call is judged and
accepted; without the rule the same draws nest lists and objects. Below the top, the
declared structure is mirrored (generator/model/deep_names.py): an open map nested in a
declared member (Stripe's ``lines[0][metadata]``) has names without brackets
(``filter[created][a]b]`` was drawn here, and twice in a Stripe sample, where the
runtime refused it).
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run

SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "servers": [{"url": "/api"}],
    "paths": {
        "/things/{id}": {"get": {
            "operationId": "getThing",
            "parameters": [
                {"name": "id", "in": "path", "required": True, "schema": {}},
                {"name": "prefs", "in": "query",
                 "schema": {"type": "object"}},
                {"name": "tags", "in": "query", "schema": {"type": "array"}},
                {"name": "typed", "in": "query", "schema": {
                    "type": "object", "additionalProperties": {"type": "integer"}}}],
            "responses": {"204": {"description": "ok"}}}},
        "/deep": {"get": {
            "operationId": "getDeep",
            "parameters": [
                {"name": "deep", "in": "query", "style": "deepObject", "explode": True,
                 "schema": {"type": "object"}},
                {"name": "filter", "in": "query", "style": "deepObject", "explode": True,
                 "schema": {"type": "object", "properties": {"created": {
                     "type": "object", "properties": {"gte": {"type": "integer"}}}}}}],
            "responses": {"204": {"description": "ok"}}},
            "post": {
                "operationId": "postDeep",
                "requestBody": {"content": {"application/x-www-form-urlencoded": {
                    "schema": {"type": "object", "properties": {
                        "meta": {"type": "object"}, "note": {"type": "string"}}},
                    "encoding": {"meta": {"style": "deepObject", "explode": True}}}}},
                "responses": {"204": {"description": "ok"}}}},
    },
}
NAME = {"pattern": "^[^\\[\\]]*$(?!\\n)"}
NESTED = ["null", "object", "array"]


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    spec = write_spec(tmp_path_factory.mktemp("scalar"), SPEC, "spec.json")
    return spec, generate(spec)


def _parts(prop: dict[str, Any], key: str) -> list[Any]:
    return [part[key] for part in prop.get("allOf", []) if key in part]


def test_open_members_and_items_are_scalars(made: tuple[Any, dict[str, Any]]) -> None:
    props = tool(made[1], "get_thing")["tool"]["inputSchema"]["properties"]
    for name in ("id", "prefs"):
        assert {"type": NESTED} in [m["not"] for m in _parts(props[name],
                                                              "additionalProperties")], name
    # a path member is no dot segment either (tests/test_path_dot_segments.py)
    assert _parts(props["id"], "additionalProperties")[0]["allOf"] == [
        {"not": {"enum": [".", ".."]}}]
    for name in ("id", "tags"):
        assert [item["not"] for item in _parts(props[name], "items")] == [
            {"type": NESTED}], name
    # A typed member says what it is: not narrowed.
    assert _parts(props["typed"], "additionalProperties") == [{"not": {"type": "null"}}]
    deep = tool(made[1], "get_deep")["tool"]["inputSchema"]["properties"]
    assert _parts(deep["deep"], "additionalProperties") == [{"not": {"type": NESTED}}]
    assert _parts(deep["deep"], "propertyNames") == [{"minLength": 1, **NAME}]
    # declared nesting stays (deepObject writes it by the bracket convention); below the
    # top, open names exclude brackets and undeclared members are scalars (deep_names.py)
    assert _parts(deep["filter"], "additionalProperties") == [
        {"not": {"type": "null"}}, {"not": {"type": ["object", "array"]}}]
    (below,) = [p for p in deep["filter"]["allOf"] if "properties" in p]
    assert below["properties"]["created"] == {
        "propertyNames": NAME, "additionalProperties": {"not": {"type": ["object", "array"]}},
        "properties": {"gte": True}}
    form = tool(made[1], "post_deep")["tool"]["inputSchema"]["properties"]
    assert _parts(form["meta"], "additionalProperties") == [{"not": {"type": NESTED}}]
    assert _parts(form["meta"], "propertyNames") == [NAME]


def test_every_drawn_call_is_judged_and_accepted(made: tuple[Any, dict[str, Any]]) -> None:
    tally = run(made[0], made[1], count=12, seed_value=6,
                tools=["get_thing", "get_deep", "post_deep"])
    assert tally.failures == []
    assert tally.unserialisable == 0
    assert tally.accepted == tally.requests >= 36
