"""A required parameter (every path parameter) is never ``null``.

RFC 6570, which OpenAPI's styles follow, sends nothing for an undefined value: a
``null`` path value leaves an empty segment (cloudflare's ``account_id`` has a schema
with no type, ``{example: ...}``, so ``null`` was drawn and
``/accounts//devices/policy/0`` went out, another resource), and a ``null`` required
query, header or cookie value leaves the parameter missing. The inputSchema drops
``null`` from a type list, or adds ``not: {type: null}`` where the schema has no type
(``generator/model/wire.py``). An optional parameter keeps ``null`` (not sent).
Oracle figure: every drawn call is accepted; without the rule the untyped path
parameter is drawn as ``null`` and the request is refused (class ``operation``).
"""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from helpers.fixtures import generate, real_catalog, tool, write_spec
from oracle.sample import run

SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "servers": [{"url": "/v4"}],
    "components": {"schemas": {"identifier": {"example": "699d98642c564d2e"}}},
    "paths": {"/accounts/{account_id}/datasets/{dataset_id}": {"get": {
        "operationId": "getDataset",
        "parameters": [
            {"name": "account_id", "in": "path", "required": True,
             "schema": {"$ref": "#/components/schemas/identifier"}},
            {"name": "dataset_id", "in": "path", "required": True,
             "schema": {"type": "string", "nullable": True}},
            {"name": "q", "in": "query", "required": True,
             "schema": {"type": "string", "nullable": True}},
            {"name": "X-Tag", "in": "header", "required": True, "schema": {"enum": ["a", "b"]}},
            {"name": "maybe", "in": "query", "schema": {"type": "string", "nullable": True}},
        ],
        "responses": {"204": {"description": "ok"}}}}},
}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, dict[str, Any]]:
    spec = write_spec(tmp_path_factory.mktemp("notnull"), SPEC, "spec.json")
    return spec, generate(spec)


def test_required_parameters_refuse_null(made: tuple[Any, dict[str, Any]]) -> None:
    schema = tool(made[1], "get_dataset")["tool"]["inputSchema"]
    inputs = jsonschema.Draft202012Validator(schema)
    good = {"account_id": "a1", "dataset_id": "d1", "q": "x", "X-Tag": "a"}
    assert inputs.is_valid(good)
    assert inputs.is_valid({**good, "maybe": None})   # optional: null is "not sent"
    for name in ("account_id", "dataset_id", "q", "X-Tag"):
        assert not inputs.is_valid({**good, name: None}), name
    assert schema["properties"]["dataset_id"]["type"] == "string"


def test_every_drawn_call_is_accepted(made: tuple[Any, dict[str, Any]]) -> None:
    tally = run(made[0], made[1], count=12, seed_value=3)
    assert tally.requests >= 12
    assert [(n, a, v["errors"]) for n, a, v in tally.failures] == []
    # an untyped path value may also be drawn as a nested list or object, which no
    # OpenAPI style writes: counted apart (unserialisable), never accepted
    assert tally.accepted + tally.unserialisable == tally.requests
    assert tally.accepted >= 12


def test_cloudflare_untyped_account_id() -> None:
    catalog = real_catalog("corpus", "cloudflare", "openapi.json")
    entry = tool(catalog, "devices_get_device_settings_policy_by_id")
    inputs = jsonschema.Draft202012Validator(entry["tool"]["inputSchema"])
    assert inputs.is_valid({"account_id": "699d98642c564d2e", "policy_id": "0"})
    assert not inputs.is_valid({"account_id": None, "policy_id": "0"})
