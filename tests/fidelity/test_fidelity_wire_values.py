"""Class 5 of issue 11: values valid for the schema but not for the wire.

An empty path value reaches another resource (``DELETE /api/session/``), an empty
query value needs ``allowEmptyValue``, an empty list cannot be sent, ``int32``/
``int64`` imply bounds, a header carries visible Latin-1 text only, a cookie only
cookie-octets, a required text body cannot be empty. The inputSchema says each (rules
in ``generator/model/wire.py`` and the README). Oracle figure: every drawn call is
accepted; without the rules the same draws are rejected.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run

STR = {"type": "string"}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "servers": [{"url": "/api"}],
    "paths": {
        "/session/{channel}": {"delete": {
            "operationId": "deleteSession",
            "parameters": [
                {"name": "channel", "in": "path", "required": True, "schema": STR},
                {"name": "q", "in": "query", "schema": STR},
                {"name": "maybe", "in": "query", "allowEmptyValue": True, "schema": STR},
                {"name": "ids", "in": "query", "required": True, "schema": {
                    "type": "array", "items": {"type": "integer", "format": "int32"}}},
                {"name": "size", "in": "query", "schema": {"type": "integer",
                                                             "format": "int64"}},
                {"name": "X-Note", "in": "header", "schema": STR},
                {"name": "token", "in": "cookie", "schema": STR}],
            "responses": {"204": {"description": "gone"}}}},
        "/notes": {"post": {
            "operationId": "postNote",
            "requestBody": {"required": True, "content": {"text/plain": {"schema": STR}}},
            "responses": {"204": {"description": "ok"}}}},
    },
}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    spec = write_spec(tmp_path_factory.mktemp("wire"), SPEC, "spec.json")
    return spec, generate(spec)


def test_schema_states_what_the_wire_needs(made: tuple[Any, dict[str, Any]]) -> None:
    props = tool(made[1], "delete_session")["tool"]["inputSchema"]["properties"]
    assert props["channel"]["minLength"] == 1
    assert props["q"]["minLength"] == 1
    assert "minLength" not in props["maybe"]
    assert props["ids"]["minItems"] == 1
    assert props["ids"]["items"]["maximum"] == 2**31 - 1
    assert props["size"]["minimum"] == -(2**63)
    assert props["X-Note"]["pattern"].startswith("^(?:[!-~")
    assert props["token"]["pattern"].startswith("^[!#")
    body = tool(made[1], "post_note")["tool"]["inputSchema"]["properties"]["body"]
    assert body["minLength"] == 1


def test_every_drawn_call_is_accepted(made: tuple[Any, dict[str, Any]]) -> None:
    tally = run(made[0], made[1], count=12, seed_value=6)
    assert tally.requests >= 12
    assert tally.failures == []
    assert tally.accepted == tally.requests


@pytest.mark.parametrize(("name", "good"), [("X-Note", "a b"), ("token", "abc")])
def test_a_final_newline_is_refused_by_python_and_ecma_alike(
        made: tuple[Any, dict[str, Any]], name: str, good: str) -> None:
    """Python's ``$`` (jsonschema's, so the runtime's) also matches before a final
    newline; ECMA-262's (the catalog's dialect, jsonschema-rs) does not. The patterns must
    mean the same to both: ``"a b\\n"`` cannot travel in a header or a cookie."""
    import jsonschema
    import jsonschema_rs

    schema = tool(made[1], "delete_session")["tool"]["inputSchema"]["properties"][name]
    python = jsonschema.Draft202012Validator(schema)
    ecma = jsonschema_rs.validator_for(schema)
    for value, expected in ((good, True), (good + "\n", False), ("\n", False)):
        assert python.is_valid(value) is expected, (name, value, "python")
        assert ecma.is_valid(value) is expected, (name, value, "ecma")
