"""A form-exploded object parameter's members are declared names, through ``anyOf``.

A form-exploded object query parameter writes each member as its own ``name=value``,
so its member names are declared by it. openai's ``metadata`` is
``anyOf: [map of strings, null]``; ``list_chat_completions`` sent ``0=`` and the judge,
seeing no ``type: object`` at the top of the schema, called it undeclared. The judge
now looks through ``allOf``/``oneOf``/``anyOf``; a name no parameter declares is
still refused.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from oracle.client import judge
from oracle.sample import run

MAP = {"type": "object", "additionalProperties": {"type": "string"}}
SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "components": {"schemas": {"Metadata": {"anyOf": [MAP, {"type": "null"}]}}},
    "paths": {
        "/chat": {"get": {
            "operationId": "listChats",
            "parameters": [
                {"name": "metadata", "in": "query",
                 "schema": {"$ref": "#/components/schemas/Metadata"}},
                {"name": "after", "in": "query", "schema": {"type": "string"}}],
            "responses": {"204": {"description": "ok"}}}},
        "/notes": {"get": {
            "operationId": "listNotes",
            "parameters": [{"name": "after", "in": "query", "schema": {"type": "string"}}],
            "responses": {"204": {"description": "ok"}}}},
    },
}


def _get(path: str, query: str) -> dict[str, Any]:
    return {"method": "GET", "path": path, "operation": f"GET {path}", "query": query,
            "headers": {}, "cookies": {}, "contentType": None, "body": None,
            "bodyBase64": None}


def test_members_of_an_exploded_union_object_are_declared(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    verdicts = judge(spec, [_get("/chat", "0=&after=x"), _get("/notes", "0=&after=x")])
    assert [v["ok"] for v in verdicts] == [True, False], verdicts
    assert verdicts[1]["errors"] == ["undeclared query parameter '0'"]


def test_drawn_calls_are_accepted(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = run(spec, generate(spec), count=12, seed_value=2)
    assert tally.requests >= 12
    assert [(n, a, v["errors"]) for n, a, v in tally.failures] == []
    assert tally.accepted == tally.requests
