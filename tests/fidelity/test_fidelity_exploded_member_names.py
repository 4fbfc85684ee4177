"""A form-exploded object parameter's members never take another parameter's name.

Exploded (the default for query and cookie objects), each member is its own
``name=value``: openai's ``list_chat_completions`` takes a free-form ``metadata`` map
beside ``limit`` and ``order``, so ``metadata: {"order": "x"}`` sends ``order=x``, which
the API reads as the ``order`` parameter (and refuses: not ``asc``/``desc``). The
inputSchema says ``propertyNames: {not: {enum: [...]}}`` with the other parameters of
that location; a name the object itself declares stays (a document that declares both
is at fault: plex's pinned ``get_first_characters``). Oracle figure: the colliding call
is refused, every drawn call is accepted.
"""

from __future__ import annotations

from typing import Any

import jsonschema
from helpers.fixtures import generate, real_catalog, tool, write_spec
from oracle.client import judge
from oracle.sample import run
from oracle.wire import build

SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "paths": {"/chat": {"get": {
        "operationId": "listChats",
        "parameters": [
            {"name": "metadata", "in": "query", "schema": {
                "anyOf": [{"type": "object", "additionalProperties": {"type": "string"}},
                          {"type": "null"}]}},
            {"name": "filter", "in": "query", "schema": {
                "type": "object", "properties": {"limit": {"type": "integer"}},
                "additionalProperties": {"type": "string"}}},
            {"name": "limit", "in": "query", "schema": {"type": "integer"}},
            {"name": "order", "in": "query", "schema": {"enum": ["asc", "desc"]}},
            {"name": "token", "in": "header", "schema": {"type": "string"}}],
        "responses": {"204": {"description": "ok"}}}}},
}


def test_members_avoid_other_parameter_names(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    entry = tool(catalog, "list_chats")
    inputs = jsonschema.Draft202012Validator(entry["tool"]["inputSchema"])
    assert inputs.is_valid({"metadata": {"topic": "x"}, "order": "asc"})
    assert inputs.is_valid({"filter": {"limit": 3}})         # declared by the object itself
    for bad in ({"metadata": {"order": "x"}}, {"metadata": {"limit": "x"}},
                {"filter": {"order": "x"}}):
        assert not inputs.is_valid(bad), bad
    assert inputs.is_valid({"metadata": {"token": "x"}})     # a header is no query name
    (refused,) = judge(spec, [build(entry, {"metadata": {"order": "x"}}, "")])
    assert not refused["ok"], refused
    tally = run(spec, catalog, count=12, seed_value=5)
    assert tally.requests >= 12
    assert [(n, a, v["errors"]) for n, a, v in tally.failures] == []
    assert tally.accepted == tally.requests


def test_openai_metadata_avoids_order() -> None:
    entry = tool(real_catalog("corpus", "openai", "openapi.yaml"), "list_chat_completions")
    inputs = jsonschema.Draft202012Validator(entry["tool"]["inputSchema"])
    assert inputs.is_valid({"metadata": {"topic": "x"}})
    assert not inputs.is_valid({"metadata": {"order": "x"}})
