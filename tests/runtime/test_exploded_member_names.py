"""An exploded object's member names are encoded like values, and never take the name of
another parameter or of a credential of their location (issue 21 item 2).

Form-exploded query and cookie objects write each member as its own ``name=value``. A
cookie object ``{"theme; admin": "1"}`` sent ``Cookie: theme; admin=1`` (a cookie the
binding never writes); ``{"sid": "attacker"}`` sent ``sid=attacker; sid=<the API key>``,
shadowing the tool's own API-key cookie; a query object ``{"api_key": "attacker"}`` sent
``?api_key=attacker&api_key=<key>``. The inputSchema's ``propertyNames`` refuses the names
of the apiKey credentials sent in that location as it refuses sibling parameters' names,
the runtime refuses them too, and member names are percent-encoded. Judged at the wire.
"""

from __future__ import annotations

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

KEY = "k3y-of-the-tool"
ENV = {"TOOLCAT_FIXTURE_COOKIE_KEY": KEY, "TOOLCAT_FIXTURE_QUERY_KEY": KEY}
MAP = {"type": "object", "additionalProperties": {"type": "string"}}
SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "names", "version": "1"},
    "servers": [{"url": "http://api.test/api"}],
    "security": [{"cookie_key": [], "query_key": []}],
    "components": {"securitySchemes": {
        "cookie_key": {"type": "apiKey", "in": "cookie", "name": "sid"},
        "query_key": {"type": "apiKey", "in": "query", "name": "api_key"}}},
    "paths": {"/prefs": {"get": {
        "operationId": "getPrefs",
        "parameters": [
            {"name": "prefs", "in": "cookie", "schema": MAP},
            {"name": "filter", "in": "query", "schema": MAP},
            {"name": "limit", "in": "query", "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object"}}}}}}}},
}
SHADOWING = [{"prefs": {"sid": "attacker"}}, {"filter": {"api_key": "attacker"}},
             {"filter": {"limit": "1000000"}}]


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder: Path = tmp_path_factory.mktemp("names")
    return generate(write_spec(folder, SPEC, "spec.json"))


def _cookies(header: str) -> list[tuple[str, str]]:
    return [tuple(p.split("=", 1)) for p in header.split("; ")]  # type: ignore[misc]


def _call(catalog: dict[str, Any], arguments: dict[str, Any], *, schema: bool
          ) -> tuple[Any, list[Any]]:
    """One call through the MCP server (``schema``) or straight to the runtime."""
    async def run(base: str) -> Any:
        if not schema:
            return await ApiHandler(catalog, ApiOptions(base_url=base), ENV)(
                "get_prefs", arguments)
        async with Client(build_server(catalog, base_url=base, environ=ENV),
                          mode="legacy") as client:
            return await client.call_tool("get_prefs", arguments)

    with StubApi() as api:
        result = anyio.run(run, f"{api.url}/api")
    return result, api.seen


def test_the_input_schema_refuses_credential_and_parameter_names(
        catalog: dict[str, Any]) -> None:
    schema = catalog["tools"][0]["tool"]["inputSchema"]
    names = {arg: part["propertyNames"]["not"]["enum"]
             for arg in ("prefs", "filter")
             for part in schema["properties"][arg]["allOf"] if "propertyNames" in part}
    assert names == {"prefs": ["sid"], "filter": ["api_key", "limit"]}
    validator = Draft202012Validator(schema)
    for arguments in SHADOWING:
        assert list(validator.iter_errors(arguments)), arguments


@pytest.mark.parametrize("arguments", SHADOWING)
@pytest.mark.parametrize("schema", [True, False], ids=["server", "runtime"])
def test_a_shadowing_member_is_never_sent(catalog: dict[str, Any], arguments: dict[str, Any],
                                          schema: bool) -> None:
    result, seen = _call(catalog, arguments, schema=schema)
    assert seen == []
    text = str(result.content[0].text if schema else result.text)
    assert result.is_error
    assert next(iter(arguments)) in text


def test_member_names_are_encoded_like_values(catalog: dict[str, Any]) -> None:
    result, seen = _call(catalog, {"prefs": {"theme; admin": "1", "a=b": "c d"},
                                   "filter": {"x&y=z": "1"}}, schema=True)
    assert not result.is_error, result.content
    [arrived] = seen
    assert _cookies(arrived.headers["cookie"]) == [
        ("theme%3B%20admin", "1"), ("a%3Db", "c%20d"), ("sid", KEY)]
    assert arrived.target == f"/api/prefs?x%26y%3Dz=1&api_key={KEY}"
