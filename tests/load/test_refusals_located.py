"""Every refusal names the file and a JSON pointer or a line.

Of 765 fuzzed refusals, 203 had no usable location: the validator recursed
without end on a cycle of bare ``$ref``s ("maximum recursion depth exceeded",
with the wrong fix), its semantic pass crashed on documents its structural pass
had already faulted ("invalid OpenAPI: 'name'"), ``openapi: 4.0.0`` gave "the
validator failed: IndexError", Swagger 2.0 documents with a wrongly typed
``consumes``/``produces``/``schemes``/``basePath`` ended in an internal error
(the converter ran before the validator's located message), and a folder that
could not be written ended in an internal error too. Two generates at once for
one folder now take turns (tests/check/test_concurrent_generate.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from helpers.fixtures import generate, write_spec
from helpers.generate import run_cli
from toolcat.errors import Problem, ToolcatError
from toolcat.parse.reader import parse_bytes

INFO = {"title": "t", "version": "1"}
OK = {"200": {"description": "ok"}}


def _problems(spec: Path) -> tuple[Problem, ...]:
    with pytest.raises(ToolcatError) as caught:
        generate(spec)
    # Strict mode closes the validator's list with the count and the setting: a summary.
    problems = tuple(p for p in caught.value.problems if not p.message.startswith("refused: "))
    assert problems
    for problem in problems:
        assert problem.file == str(spec), problem
        assert problem.location.startswith(("/", "line ")), problem
    return problems


def test_a_cycle_of_bare_refs_is_named(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {"openapi": "3.0.3", "info": INFO, "paths": {},
                                 "components": {"schemas": {
                                     "A": {"$ref": "#/components/schemas/B"},
                                     "B": {"$ref": "#/components/schemas/A"}}}})
    problems = _problems(spec)
    assert any("$ref cycle with no schema in between" in p.message for p in problems), (
        problems)
    assert not any("recursion" in p.message for p in problems)


@pytest.mark.parametrize("parameter", [{"in": "query", "schema": {"type": "string"}},
                                       {"name": "p", "schema": {"type": "string"}}])
def test_a_validator_crash_after_located_problems_stays_located(
        tmp_path: Path, parameter: dict[str, Any]) -> None:
    spec = write_spec(tmp_path, {"openapi": "3.0.3", "info": INFO, "paths": {"/a": {"get": {
        "operationId": "a", "parameters": [parameter], "responses": OK}}}})
    problems = _problems(spec)
    assert not any(p.message.startswith("invalid OpenAPI: '") for p in problems), problems
    assert not any("the validator failed" in p.message for p in problems), problems


@pytest.mark.parametrize("version", ["4.0.0", "3", 3.1, "2.0", None])
def test_an_unsupported_version_is_refused_at_its_member(tmp_path: Path,
                                                         version: Any) -> None:
    spec = write_spec(tmp_path, {"openapi": version, "info": INFO, "paths": {}})
    (problem,) = _problems(spec)
    assert problem.location == "/openapi"
    assert "unsupported OpenAPI version" in problem.message


@pytest.mark.parametrize(("member", "value"), [
    ("consumes", 5), ("produces", True), ("schemes", "https"), ("basePath", 7),
    ("consumes", [5]), ("schemes", {"a": 1})])
def test_swagger2_members_of_the_wrong_type_get_the_validators_location(
        tmp_path: Path, member: str, value: Any) -> None:
    spec = write_spec(tmp_path, {"swagger": "2.0", "info": INFO, member: value, "paths": {
        "/a": {"get": {"operationId": "a", "responses": OK}}}})
    problems = _problems(spec)
    assert any(p.location.startswith(f"/{member}") for p in problems), problems


def test_an_unwritable_output_folder_is_refused_by_name(tmp_path: Path) -> None:
    spec = write_spec(tmp_path, {"openapi": "3.0.3", "info": INFO, "paths": {"/a": {"get": {
        "operationId": "a", "responses": OK}}}})
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder\n")  # works as root too, unlike chmod
    out = blocker / "out"
    result = run_cli("generate", "--spec", spec, "--out", out)
    assert result.returncode == 2, result.stderr
    assert f"{out}: writing " in result.stderr
    assert "cannot write the catalog folder" in result.stderr
    assert "internal error" not in result.stderr
    assert blocker.read_text() == "not a folder\n"


@pytest.mark.parametrize("data", [b"openapi: 3.0.3\nx: \x00\n", b"openapi: 3.0.3\nx: \xff\n"])
def test_a_byte_yaml_cannot_hold_is_refused_at_its_line(data: bytes) -> None:
    with pytest.raises(ToolcatError) as caught:
        parse_bytes(data, Path("spec.yaml"))
    assert caught.value.problems[0].location == "line 2", caught.value.render()
