"""Cost grows with the input, not faster (issue 28 items 9 to 13).

Work and output are measured here, never wall time: a count of calls, or the size of
what is emitted, for an input of size N and of size 2N or 4N. ``scripts/runaway.py``
prints the timings of the same cases at the sizes the issue measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from helpers.fixtures import generate, write_spec
from toolcat.model import deep_names

OK = {"200": {"description": "ok"}}


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls = [0]
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def _spec(paths: dict[str, Any], schemas: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths,
            "components": {"schemas": schemas or {}}}


# -- item 11: the deepObject walk memoises by definition ---------------------------

def _deep_dag(depth: int, nested: bool) -> dict[str, Any]:
    """A deepObject parameter whose schema (or, ``nested``, whose member ``m``) is an
    ``anyOf`` DAG ``depth`` levels deep, three references per level."""
    schemas: dict[str, Any] = {"L0": {"type": "object", "properties": {
        "p": {"type": "object", "additionalProperties": {"type": "string"}}}}}
    for i in range(1, depth + 1):
        schemas[f"L{i}"] = {"anyOf": [{"$ref": f"#/components/schemas/L{i - 1}"}] * 3}
    top: dict[str, Any] = {"$ref": f"#/components/schemas/L{depth}"}
    if nested:
        top = {"type": "object", "properties": {"m": top}}
    param = {"name": "d", "in": "query", "style": "deepObject", "explode": True,
             "schema": top}
    return _spec({"/a": {"get": {"operationId": "a", "parameters": [param],
                                 "responses": OK}}}, schemas)


def _deep_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, depth: int,
              nested: bool) -> tuple[int, int]:
    """(walk steps, bytes of the emitted inputSchema)."""
    calls = _counting(monkeypatch, deep_names, "_walk_node")
    folder = tmp_path / f"{depth}-{nested}"
    catalog = generate(write_spec(folder, _deep_dag(depth, nested), "spec.json"),
                       validate=False)
    schema = catalog["tools"][0]["tool"]["inputSchema"]
    monkeypatch.undo()
    return calls[0], len(orjson.dumps(schema))


@pytest.mark.parametrize("nested", [False, True])
def test_a_deep_object_dag_is_walked_once_per_definition(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nested: bool) -> None:
    steps_6, size_6 = _deep_run(tmp_path, monkeypatch, 6, nested)
    steps_12, size_12 = _deep_run(tmp_path, monkeypatch, 12, nested)
    # walked as a tree, 6 more levels of 3 references cost 3**6 times the steps
    assert steps_12 <= 3 * steps_6, (steps_6, steps_12)
    assert size_12 <= 3 * size_6, (size_6, size_12)


def test_the_deep_object_rule_still_reaches_the_bottom_of_the_dag(
        tmp_path: Path) -> None:
    catalog = generate(write_spec(tmp_path, _deep_dag(6, True), "spec.json"),
                       validate=False)
    text = orjson.dumps(catalog["tools"][0]["tool"]["inputSchema"]).decode()
    # L0's open member map ``p`` gets the bracket-free names rule, however deep
    assert text.count(deep_names.DEEP_OBJECT_NAME.replace("\\", "\\\\")) >= 2, text


# -- item 10: an optional body's "all or nothing" rule is linear --------------------

def _optional_body(fields: int, required: int) -> dict[str, Any]:
    body = {"type": "object", "required": [f"f{i}" for i in range(required)],
            "properties": {f"f{i}": {"type": "string"} for i in range(fields)}}
    return _spec({"/a": {"post": {"operationId": "a", "requestBody": {"content": {
        "application/json": {"schema": body}}}, "responses": OK}}})


def _rule(tmp_path: Path, fields: int, required: int) -> dict[str, list[str]]:
    folder = tmp_path / f"{fields}-{required}"
    catalog = generate(write_spec(folder, _optional_body(fields, required), "spec.json"),
                       validate=False)
    rule: dict[str, list[str]] = catalog["tools"][0]["tool"]["inputSchema"][
        "dependentRequired"]
    return rule


def test_an_optional_body_rule_grows_linearly(tmp_path: Path) -> None:
    small = len(orjson.dumps(_rule(tmp_path, 200, 200)))
    large = len(orjson.dumps(_rule(tmp_path, 800, 800)))
    # every pair listed: 16 times the bytes for 4 times the fields
    assert large <= 5 * small, (small, large)


def _every_pair(arguments: list[str], needed: list[str]) -> dict[str, list[str]]:
    """The former rule, each argument to every other required one: the reference."""
    rules = {a: [n for n in sorted(needed) if n != a] for a in sorted(arguments)}
    return {a: v for a, v in rules.items() if v}


@pytest.mark.parametrize(("fields", "required"), [(1, 1), (2, 1), (3, 2), (5, 3), (6, 6)])
def test_the_linear_rule_admits_what_every_pair_admits(fields: int, required: int) -> None:
    """Equivalence, drawn: every subset of the body's names (the only thing
    ``dependentRequired`` looks at) is valid under one rule exactly when under the
    other, after an override rename and narrowing too."""
    from toolcat.model.wire import body_dependencies
    from toolcat.overrides.apply import _prune_dependent, _rename_dependent

    names = [f"f{i}" for i in range(fields)]
    needed = names[:required]
    linear = {"properties": {n: {} for n in names},
              "dependentRequired": body_dependencies(names, needed)}
    _same(linear, _every_pair(names, needed), names)
    _rename_dependent(linear, "f0", "z")   # the representative renamed: z sorts last
    renamed = ["z", *names[1:]]
    linear["properties"] = {n: {} for n in renamed}
    _same(linear, _every_pair(renamed, ["z", *needed[1:]]), renamed)
    del linear["properties"]["z"]          # and narrowed away
    _prune_dependent(linear)
    _same(linear, _every_pair(names[1:], needed[1:]), names[1:])


def _same(linear: dict[str, Any], pairs: dict[str, list[str]], names: list[str]) -> None:
    import itertools

    import jsonschema

    one = jsonschema.Draft202012Validator(
        {"dependentRequired": linear.get("dependentRequired", {})})
    other = jsonschema.Draft202012Validator({"dependentRequired": pairs})
    for size in range(len(names) + 1):
        for given in itertools.combinations(names, size):
            value = dict.fromkeys(given, "x")
            assert one.is_valid(value) == other.is_valid(value), (given, one.schema)


# -- item 12: one operation's parameters cost linear time ---------------------------

def _query_params(count: int) -> dict[str, Any]:
    params = [{"name": f"q{i}", "in": "query", "schema": {"type": "string"}}
              for i in range(count)]
    params.append({"name": "o", "in": "query", "schema": {
        "type": "object", "additionalProperties": {"type": "string"}}})
    return _spec({"/a": {"get": {"operationId": "a", "parameters": params,
                                 "responses": OK}}})


def _inputs_seconds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                    count: int) -> tuple[float, dict[str, Any]]:
    """CPU seconds spent drafting one operation's inputs, and its inputSchema."""
    import time

    from toolcat.model import build

    spent = [0.0]
    original = build.build_inputs

    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return original(*args, **kwargs)
        finally:
            spent[0] += time.process_time() - start

    monkeypatch.setattr(build, "build_inputs", timed)
    folder = tmp_path / str(count)
    catalog = generate(write_spec(folder, _query_params(count), "spec.json"), validate=False)
    monkeypatch.undo()
    return spent[0], catalog["tools"][0]["tool"]["inputSchema"]


def test_query_parameters_cost_linear_time(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    small, _ = _inputs_seconds(tmp_path, monkeypatch, 750)
    large, schema = _inputs_seconds(tmp_path, monkeypatch, 3000)
    # quadratic: 16 times; linear: 4 (a generous 8 for a busy machine)
    assert large <= 8 * max(small, 0.05), (small, large)
    # the exploded object still may not take another parameter's name
    names = schema["properties"]["o"]["allOf"][0]["propertyNames"]["not"]["enum"]
    assert len(names) == 3000
    assert "q0" in names
