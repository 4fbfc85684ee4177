"""Cost grows with the input, not faster (issue 28 items 9 to 13).

Work and output are measured here, never wall time: a count of calls, or the size of
what is emitted, for an input of size N and of size 2N or 4N. ``scripts/runaway.py``
prints the timings of the same cases at the sizes the issue measured.
"""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

import orjson
import pytest
from helpers.counting import counting as _counting
from helpers.fixtures import generate, write_spec
from toolcat.model import deep_names

OK = {"200": {"description": "ok"}}


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
    spec = write_spec(folder, _query_params(count), "spec.json")
    # The collector off, as the CLI runs (a full pass of the test process's heap would
    # be charged to whichever run it fell in); the best of two runs.
    collecting = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        best = float("inf")
        for _ in range(2):
            spent[0] = 0.0
            catalog = generate(spec, validate=False)
            best = min(best, spent[0])
    finally:
        if collecting:
            gc.enable()
    monkeypatch.undo()
    return best, catalog["tools"][0]["tool"]["inputSchema"]


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


# -- item 9: a chain of bare references is resolved in linear time ------------------

def _chain(length: int) -> dict[str, Any]:
    ref = "#/components/schemas/"
    schemas: dict[str, Any] = {f"S{i}": {"$ref": f"{ref}S{i + 1}"} for i in range(length - 1)}
    schemas[f"S{length - 1}"] = {"type": "string"}
    return _spec({"/a": {"post": {"operationId": "a", "requestBody": {"content": {
        "application/json": {"schema": {"type": "object", "properties": {
            "s": {"$ref": f"{ref}S0"}}}}}}, "responses": OK}}}, schemas)


def _lookups(monkeypatch: pytest.MonkeyPatch, length: int) -> int:
    """Reference lookups the validator makes (past its memo) for a chain."""
    from referencing._core import Resolver
    from toolcat.load.validation.validate import validate_document

    calls = _counting(monkeypatch, Resolver, "lookup")
    assert validate_document(_chain(length), "spec.json") is None
    monkeypatch.undo()
    return calls[0]


def test_a_reference_chain_is_validated_in_linear_lookups(
        monkeypatch: pytest.MonkeyPatch) -> None:
    short, long = _lookups(monkeypatch, 100), _lookups(monkeypatch, 400)
    # each schema resolved to the chain's end anew: 16 times as many
    assert long <= 5 * short, (short, long)


def test_a_chain_past_the_recursion_limit_is_valid(monkeypatch: pytest.MonkeyPatch) -> None:
    """From about 1,000 links the recursion refused the document ("the validator
    failed (RecursionError)" at ``/``)."""
    import sys

    assert _lookups(monkeypatch, 2 * sys.getrecursionlimit()) > 0


# -- item 13: the catalog's size is limited by the document's ------------------------

def _shared_body(ops: int, fields: int) -> dict[str, Any]:
    body = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/B"}}}}
    paths = {f"/a{i:03}": {"post": {"operationId": f"a{i:03}", "requestBody": body,
                                    "responses": OK}} for i in range(ops)}
    return _spec(paths, {"B": {"type": "object", "properties": {
        f"f{i}": {"type": "string", "description": "d" * (i % 7)} for i in range(fields)}}})


@pytest.mark.parametrize("limit", ["bytes", "arguments"])
def test_a_catalog_past_its_limit_is_refused_early_at_its_largest_tool(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, limit: str) -> None:
    from toolcat.errors import ToolcatError
    from toolcat.model import build, size_limit

    spec = write_spec(tmp_path, _shared_body(60, 100), "spec.json")
    if limit == "bytes":
        monkeypatch.setattr(size_limit, "BASE", 0)
        monkeypatch.setattr(size_limit, "FACTOR", 10)
    else:
        monkeypatch.setattr(size_limit, "ARGUMENTS_BASE", 0)
        monkeypatch.setattr(size_limit, "ARGUMENTS_PER_KIB", 100)
    drafted = _counting(monkeypatch, build, "draft_tool")
    with pytest.raises(ToolcatError) as refused:
        generate(spec, validate=False)
    problem = refused.value.problems[0]
    assert problem.location.startswith("/paths/~1a0"), problem
    assert problem.location.endswith("/post"), problem
    assert "the largest tools so far: a0" in problem.message, problem.message
    assert problem.message.count("bytes)") == size_limit.NAMED, problem.message
    assert drafted[0] < 60, "refused only after drafting every tool"


def test_a_catalog_within_its_limit_is_written(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from toolcat.model import size_limit

    spec = write_spec(tmp_path, _shared_body(6, 100), "spec.json")
    catalog = generate(spec, validate=False)
    used = sum(len(orjson.dumps(t["tool"]["inputSchema"]))
               + len(orjson.dumps(t["tool"].get("outputSchema"))) for t in catalog["tools"])
    monkeypatch.setattr(size_limit, "BASE", used - size_limit.FACTOR * spec.stat().st_size)
    assert len(generate(spec, validate=False)["tools"]) == 6


def test_a_schema_with_an_integer_past_64_bits_is_counted(tmp_path: Path) -> None:
    """An integer orjson alone refuses (past 64 bits, as openai has one)."""
    big = 2**70
    spec = _spec({"/a": {"get": {"operationId": "a", "parameters": [{
        "name": "n", "in": "query", "schema": {"type": "integer", "maximum": big}}],
        "responses": OK}}})
    catalog = generate(write_spec(tmp_path, spec, "spec.yaml"), validate=False)
    assert catalog["tools"][0]["tool"]["inputSchema"]["properties"]["n"]["maximum"] == big
