"""Issue 28 items 5-7 and 15: with ``--validation warn`` a broken shape is a located
refusal (or the document's own values are checked), never an internal error, and
every catalog written passes toolcat's own ``catalog.schema.json``.

Strict mode refuses each of these documents through the validator first; warn mode
lets them reach the readers, which check what they read (model/shapes.py) and refuse
with file and JSON pointer.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers.inprocess import RunCli
from toolcat.config import Target
from toolcat.errors import ToolcatError
from toolcat.pipeline import build
from toolcat.render.catalog_check import check_catalog


def _doc(paths: Any, **extra: Any) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths,
            **extra}


def _op(**responses: Any) -> dict[str, Any]:
    return {"/a": {"get": {"operationId": "a", "responses": responses}}}


JSON_CASES = {
    "response_list": (_doc(_op(**{"200": [1]})), "/paths/~1a/get/responses/200",
                      "a response must be an object, found a list"),
    "content_list": (_doc(_op(**{"200": {"description": "x", "content": [1]}})),
                     "/paths/~1a/get/responses/200/content",
                     "'content' must be an object, found a list"),
    "paths_number": (_doc(5), "/paths", "'paths' must be an object, found a number"),
    "responses_string": (_doc({"/a": {"get": {"responses": "x"}}}),
                         "/paths/~1a/get/responses", "'responses' must be an object"),
    "body_content_list": (_doc({"/a": {"post": {"requestBody": {"content": ["x"]},
                                                "responses": {"200": {"description": "o"}}}}}),
                          "/paths/~1a/post/requestBody/content",
                          "'content' must be an object, found a list"),
    "parameter_name_object": (_doc({"/a": {"get": {"parameters": [
        {"name": {"x": 1}, "in": "query"}], "responses": {"200": {"description": "o"}}}}}),
        "/paths/~1a/get/parameters/0/name", "a parameter's 'name' must be a string"),
    "scheme_type_unknown": (_doc(_op(**{"200": {"description": "o"}}), security=[{"k": []}],
                                 components={"securitySchemes": {"k": {
                                     "type": "apiKeyK", "in": "header", "name": "X"}}}),
                            "/components/securitySchemes/k/type",
                            "security scheme type 'apiKeyK' is none of"),
    "api_key_without_in": (_doc(_op(**{"200": {"description": "o"}}), security=[{"k": []}],
                                components={"securitySchemes": {"k": {
                                    "type": "apiKey", "name": "X"}}}),
                           "/components/securitySchemes/k/in", "an apiKey scheme's 'in'"),
}

BIG = "9" * 5001
YAML_CASES = {
    "integer_of_5001_digits": (
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /a:\n    get:\n"
        f"      responses:\n        '200':\n          description: {BIG}\n",
        "line 8", "an integer of 5,001 digits"),
    "binary_tag": ("openapi: 3.0.3\ninfo: {title: t, version: '1'}\nx-b: !!binary aGk=\n"
                   "paths: {}\n", "line 3", "!!binary value has no JSON equivalent"),
    "set_tag": ("openapi: 3.0.3\ninfo: {title: t, version: '1'}\nx-b: !!set {a}\n"
                "paths: {}\n", "line 3", "!!set value has no JSON equivalent"),
}


@pytest.mark.parametrize("mode", ["warn", "strict"])
@pytest.mark.parametrize("case", sorted(JSON_CASES))
def test_broken_shape_is_a_located_refusal(case: str, mode: str, tmp_path: Path,
                                           toolcat: RunCli) -> None:
    doc, where, message = JSON_CASES[case]
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(doc))
    result = toolcat("generate", "--spec", spec, "--out", tmp_path / "out",
                     "--validation", mode)
    assert result.returncode == 2, result.stderr
    assert "internal error" not in result.stderr
    if mode == "warn":   # strict: the validator's words come first and suffice
        assert f"spec.json: {where}: {message}" in result.stderr, result.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("mode", ["warn", "strict"])
@pytest.mark.parametrize("case", sorted(YAML_CASES))
def test_yaml_value_json_cannot_hold_is_refused_at_its_line(
        case: str, mode: str, tmp_path: Path, toolcat: RunCli) -> None:
    text, line, message = YAML_CASES[case]
    spec = tmp_path / "spec.yaml"
    spec.write_text(text)
    result = toolcat("generate", "--spec", spec, "--out", tmp_path / "out",
                     "--validation", mode)
    assert result.returncode == 2, result.stderr
    assert f"spec.yaml: {line} column" in result.stderr, result.stderr
    assert message in result.stderr, result.stderr


@pytest.mark.parametrize("mode", ["warn", "strict"])
def test_explicit_timestamp_tag_stays_text(mode: str, tmp_path: Path,
                                           toolcat: RunCli) -> None:
    """``!!timestamp`` (even one no date parser reads) is its text, as an implicit one."""
    spec = tmp_path / "spec.yaml"
    spec.write_text("openapi: 3.0.3\ninfo: {title: t, version: !!timestamp 'not-a-date'}\n"
                    "paths:\n  /a:\n    get:\n      operationId: a\n      responses:\n"
                    "        '200': {description: ok}\n")
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--validation", mode)
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr


def test_check_catalog_refuses_a_binding_the_schema_rejects(tmp_path: Path) -> None:
    """The last guard: whatever a stage copied, a catalog that fails catalog.schema.json
    is refused at the operation of the tool that holds the value."""
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_doc(_op(**{"200": {"description": "o"}}))))
    catalog = build(Target(name="api", spec=spec, spec_label="spec.json",
                           output=tmp_path / "out")).catalog
    check_catalog(catalog, str(spec))   # the real one passes
    tool = catalog.tools[0]
    bad = replace(tool, binding=replace(tool.binding, security=(
        ({"id": "k", "type": "apiKeyK"},),)))
    with pytest.raises(ToolcatError) as raised:
        check_catalog(replace(catalog, tools=(bad,)), str(spec))
    problem = raised.value.problems[0]
    assert problem.location == "/paths/~1a/get", problem
    assert "catalog.schema.json at /tools/0/binding/security/0/0/type" in problem.message


def test_warn_leaves_out_an_operation_it_cannot_read_and_keeps_the_rest(
        tmp_path: Path, toolcat: RunCli) -> None:
    """The rest of the document still gives tools; the broken operation is an exclusion
    in catalog.json and a warning at its pointer (strict refuses, as before)."""
    doc = _doc({"/a": {"get": {"operationId": "a", "responses": {"200": [1]}}},
                "/b": {"get": {"operationId": "b", "responses": {"200": {"description": "o"}}}}})
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(doc))
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--validation", "warn")
    assert result.returncode == 0, result.stderr
    assert ("spec.json: /paths/~1a/get/responses/200: GET /a left out (validation: warn): "
            "a response must be an object, found a list") in result.stderr, result.stderr
    catalog = json.loads((out / "catalog.json").read_text())
    assert [t["tool"]["name"] for t in catalog["tools"]] == ["b"]
    assert catalog["exclusions"] == [{"operation": "GET /a", "reason": (
        "validation: warn: left out, /paths/~1a/get/responses/200: a response must be an "
        "object, found a list")}]
    strict = toolcat("generate", "--spec", spec, "--out", tmp_path / "strict")
    assert strict.returncode == 2


def test_a_required_list_holding_an_object_beside_a_read_only_field(
        tmp_path: Path, toolcat: RunCli) -> None:
    """Fuzz case 644 (seed 1): hiding a readOnly name from ``required`` met an object
    there; in warn mode the document generates, the validator's warning located."""
    schema = {"type": "object", "required": [{"x": 1}, "b"], "properties": {
        "a": {"type": "string", "readOnly": True}, "b": {"type": "string"}}}
    doc = _doc({"/a": {"post": {"operationId": "a", "requestBody": {"content": {
        "application/json": {"schema": schema}}}, "responses": {"200": {"description": "o"}}}}})
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(doc))
    result = toolcat("generate", "--spec", spec, "--out", tmp_path / "out",
                     "--validation", "warn")
    assert "internal error" not in result.stderr
    assert result.returncode == 0, result.stderr
    assert "spec.json: /paths/~1a/post/requestBody: invalid OpenAPI" in result.stderr
