"""Issue 28 item 8: a Swagger 2.0 document's problems are located in the user's file.

toolcat converts Swagger 2.0 to OpenAPI 3.0 before reading it; a problem the model
stage finds in the converted document (here a schema keyword of the wrong type,
which warn mode lets through to toolcat's own meta-schema check) is reported at the
pointer the user can open: ``/definitions/D/...``, the parameter at its index in the
user's list, a response's ``schema``, never ``/components/...`` or ``content/...``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.inprocess import RunCli
from toolcat.load.swagger2 import original_pointer

BAD = {"type": "string", "minLength": "1"}    # minLength must be an integer
OK = {"200": {"description": "o"}}


def _doc(op: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"swagger": "2.0", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"post": {"operationId": "a", **op}}}, **extra}


CASES = {
    "definition": (_doc({"responses": {"200": {"description": "o", "schema": {
        "$ref": "#/definitions/D"}}}}, definitions={"D": {"type": "object", "properties": {
            "p": {"type": "array", "items": BAD}}}}),
        "/definitions/D/properties/p/items/minLength"),
    "response schema": (_doc({"responses": {"200": {"description": "o", "schema": {
        "type": "object", "properties": {"p": BAD}}}}}),
        "/paths/~1a/post/responses/200/schema/properties/p/minLength"),
    "body parameter after a query one": (_doc({"responses": OK, "parameters": [
        {"name": "q", "in": "query", "type": "string"},
        {"name": "b", "in": "body", "schema": {"type": "object", "properties": {"p": BAD}}}]}),
        "/paths/~1a/post/parameters/1/schema/properties/p/minLength"),
    "query parameter after a body one": (_doc({"responses": OK, "parameters": [
        {"name": "b", "in": "body", "schema": {"type": "object"}},
        {"name": "q", "in": "query", **BAD}]}),
        "/paths/~1a/post/parameters/1/minLength"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_problem_is_located_in_the_users_file(case: str, tmp_path: Path,
                                              toolcat: RunCli) -> None:
    doc, where = CASES[case]
    spec = tmp_path / "swagger.json"
    spec.write_text(json.dumps(doc))
    result = toolcat("generate", "--spec", spec, "--out", tmp_path / "out",
                     "--validation", "warn")
    assert result.returncode == 2, result.stderr
    refusal = [line for line in result.stderr.splitlines()
               if not line.startswith(("warning:", "  fix:"))]
    assert refusal, result.stderr
    assert all(f"swagger.json: {where}: " in line for line in refusal), result.stderr
    assert "/components/" not in "\n".join(refusal)


def test_pointers_the_conversion_did_not_move_stay() -> None:
    assert original_pointer({}, "/info/title") == "/info/title"
    assert original_pointer({}, "/paths/~1gone/get/responses") == "/paths/~1gone/get/responses"
