"""A path value can never change the path's shape: no dot segments, in any style.

Issue 21 item 1: ``delete_repo {"user": "..", "repo": ".."}`` (declared ``DELETE
/users/{user}/repos/{repo}``) reached the API as ``DELETE /api``: ``.`` is unreserved, so
``..`` went out bare and the HTTP client (RFC 3986 5.2.4) removed it with the segment
before it. A value, list item, object member or member name that is ``.`` or ``..`` is
refused before sending, naming the argument (``.`` used to be refused by accident, as
"cannot be empty"), and the inputSchema says so (``not: {enum: [".", ".."]}``). Judged
at the wire: a stub API records the raw request target of every request that arrives.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers.fixtures import generate, write_spec
from helpers.stub_api import StubApi
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from mcp import Client
from toolcat.runtime.api import ApiHandler, ApiOptions
from toolcat.runtime.embed import build_server

STRING = {"type": "string"}
LIST = {"type": "array", "items": STRING}
MAP = {"type": "object", "additionalProperties": STRING}
OK = {"200": {"description": "ok", "content": {"application/json": {
    "schema": {"type": "object"}}}}}
# operationId -> (method, template, {parameter: (schema, style, explode)})
ROUTES: dict[str, tuple[str, str, dict[str, tuple[Any, str, bool]]]] = {
    "deleteRepo": ("delete", "/users/{user}/repos/{repo}",
                   {"user": (STRING, "simple", False), "repo": (STRING, "simple", False)}),
    "getFile": ("get", "/files/{name}", {"name": (STRING, "simple", False)}),
    "getLabel": ("get", "/label/{v}", {"v": (STRING, "label", False)}),
    "getMatrix": ("get", "/matrix/{v}", {"v": (STRING, "matrix", False)}),
    "getList": ("get", "/list/{ids}", {"ids": (LIST, "simple", False)}),
    "getLabels": ("get", "/labels/{ids}", {"ids": (LIST, "label", True)}),
    "getMatrixList": ("get", "/mlist/{ids}", {"ids": (LIST, "matrix", True)}),
    "getObject": ("get", "/obj/{o}", {"o": (MAP, "simple", True)}),
    "getLabelObject": ("get", "/lobj/{o}", {"o": (MAP, "label", True)}),
    "getMatrixObject": ("get", "/mobj/{o}", {"o": (MAP, "matrix", True)}),
}
TOOLS = {"deleteRepo": "delete_repo", "getFile": "get_file", "getLabel": "get_label",
         "getMatrix": "get_matrix", "getList": "get_list", "getLabels": "get_labels",
         "getMatrixList": "get_matrix_list", "getObject": "get_object",
         "getLabelObject": "get_label_object", "getMatrixObject": "get_matrix_object"}
# Per kind of value: hostile values (each holds a dot segment somewhere) and a benign one.
HOSTILE = {"string": [".", ".."], "array": [[".."], ["."], ["a", ".."]],
           "object": [{"a": ".."}, {"a": "."}, {"..": "x"}, {".": "x"}]}
BENIGN = {"string": "a.b", "array": ["a", "..b"], "object": {"k": "v.."}}
# (tool, arguments) for every hostile value in every argument of every route
CASES = [(TOOLS[op], {**{n: BENIGN[s["type"]] for n, (s, _, _) in params.items()},
                      arg: value})
         for op, (_, _, params) in ROUTES.items()
         for arg, (schema, _, _) in params.items() for value in HOSTILE[schema["type"]]]


def _spec() -> dict[str, Any]:
    paths = {template: {method: {
        "operationId": op, "responses": OK,
        "parameters": [{"name": n, "in": "path", "required": True, "schema": s, "style": st,
                        "explode": ex} for n, (s, st, ex) in params.items()]}}
        for op, (method, template, params) in ROUTES.items()}
    return {"openapi": "3.1.0", "info": {"title": "dots", "version": "1"},
            "servers": [{"url": "http://api.test/api"}], "paths": paths}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder: Path = tmp_path_factory.mktemp("dots")
    return generate(write_spec(folder, _spec(), "spec.json"))


def _entry(catalog: dict[str, Any], name: str) -> dict[str, Any]:
    return next(e for e in catalog["tools"] if e["tool"]["name"] == name)


def _under_template(template: str, target: str) -> bool:
    """The raw target is the declared template with each `{x}` one whole segment that is
    not a dot segment."""
    shape = "/api" + re.sub(r"\{[^}]+\}", "[^/]+", template)
    path = target.split("?", 1)[0]
    return re.fullmatch(shape, path) is not None and not any(
        s in (".", "..") for s in path.split("/"))


@pytest.mark.parametrize(("name", "arguments"), CASES)
def test_the_input_schema_refuses_every_dot_segment(catalog: dict[str, Any], name: str,
                                                    arguments: dict[str, Any]) -> None:
    schema = _entry(catalog, name)["tool"]["inputSchema"]
    errors = list(Draft202012Validator(schema).iter_errors(arguments))
    assert errors, f"{name}: the inputSchema admits {arguments}"
    assert '"not": {"enum": [".", ".."]}' in json.dumps(schema)


def test_every_call_through_the_server_stays_under_its_template(
        catalog: dict[str, Any]) -> None:
    async def run(base: str) -> list[Any]:
        results = []
        async with Client(build_server(catalog, base_url=base), mode="legacy") as client:
            for name, arguments in CASES:
                results.append(await client.call_tool(name, arguments))
            for op, (_, _, params) in ROUTES.items():
                benign = {n: BENIGN[s["type"]] for n, (s, _, _) in params.items()}
                results.append(await client.call_tool(TOOLS[op], benign))
        return results

    with StubApi() as api:
        results = anyio.run(run, f"{api.url}/api")
    hostile, benign = results[:len(CASES)], results[len(CASES):]
    assert all(r.is_error for r in hostile)
    assert not any(r.is_error for r in benign), [r.content for r in benign if r.is_error]
    # Only the benign calls arrived, each under its declared template.
    templates = [template for _, template, _ in ROUTES.values()]
    assert len(api.seen) == len(templates)
    for template, arrived in zip(templates, api.seen, strict=True):
        assert _under_template(template, arrived.target), (template, arrived.target)


@pytest.mark.parametrize(("name", "arguments"), CASES)
def test_the_runtime_refuses_a_dot_segment_the_schema_let_through(
        catalog: dict[str, Any], name: str, arguments: dict[str, Any]) -> None:
    """A caller that skips the inputSchema (a hand-built server, `ApiHandler` itself) still
    sends nothing: the refusal names the argument."""
    bad = next(a for a, v in arguments.items() if v not in BENIGN.values())
    with StubApi() as api:
        handler = ApiHandler(catalog, ApiOptions(base_url=f"{api.url}/api"))
        outcome = anyio.run(handler, name, arguments)
    assert api.seen == []
    assert outcome.is_error
    assert f"argument '{bad}'" in str(outcome.text)
    assert "'.' or '..'" in str(outcome.text)
    assert "cannot be empty" not in str(outcome.text)
