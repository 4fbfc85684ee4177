"""Issue 22 item 4: warn mode generates a vendor document it can read, saying where
it departed from the text; strict mode still refuses. The fixture has the shapes of
Gitea's shipped Swagger 2.0 document (written here): two operations sharing the
operationId ``user_get_oauth2_application``, ``items`` given as a list, and a
``basePath`` that is a build-time template.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.inprocess import RunCli
from helpers.stub_api import Arrived, StubApi, replying
from toolcat.runtime.embed import Caller

OK = {"200": {"description": "ok", "schema": {"$ref": "#/definitions/App"}}}
SHARED = "user_get_oauth2_application"


def gitea_like() -> dict[str, Any]:
    return {
        "swagger": "2.0", "info": {"title": "Gitea API", "version": "1"},
        "basePath": "{{AppSubUrl | JSONEscape}}/api/v1",
        "paths": {
            "/user/applications/oauth2": {"get": {"operationId": SHARED, "responses": OK}},
            "/user/applications/oauth2/{id}": {"get": {
                "operationId": SHARED, "responses": OK, "parameters": [
                    {"name": "id", "in": "path", "required": True, "type": "integer"}]}},
            "/repos/{owner}": {"post": {"operationId": "repo_create", "responses": OK,
                                        "parameters": [
                {"name": "owner", "in": "path", "required": True, "type": "string"},
                {"name": "body", "in": "body", "schema": {"$ref": "#/definitions/Pair"}}]}}},
        "definitions": {
            "App": {"type": "object", "properties": {"name": {"type": "string"}}},
            "Pair": {"type": "object", "properties": {"p": {
                "type": "array", "items": [{"type": "string"}, {"type": "integer"}]}}}},
    }


def _generate(tmp_path: Path, toolcat: RunCli, mode: str,
              doc: dict[str, Any] | None = None) -> tuple[Any, str, Path]:
    tmp_path.mkdir(exist_ok=True)
    spec = tmp_path / "swagger.json"
    spec.write_text(json.dumps(doc or gitea_like()))
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--validation", mode)
    return result, result.stderr, out


NAMED_BOTH = (f"operationId '{SHARED}' is given to 'GET /user/applications/oauth2' and "
              "'GET /user/applications/oauth2/{id}'")


def test_strict_refuses_with_every_departure_located(tmp_path: Path, toolcat: RunCli) -> None:
    result, err, out = _generate(tmp_path, toolcat, "strict")
    assert result.returncode == 2, err
    assert f"swagger.json: /paths/~1user~1applications~1oauth2/get/operationId: {NAMED_BOTH}" \
        in err, err
    assert "swagger.json: /definitions/Pair/properties/p/items: 'items' is a list" in err
    assert "swagger.json: /basePath: the server URL holds '{{'" in err
    assert not out.exists()


def _catalog(out: Path) -> dict[str, Any]:
    return {e["tool"]["name"]: e for e in json.loads((out / "catalog.json").read_text())[
        "tools"]}


def test_warn_names_clashing_operations_from_their_routes(tmp_path: Path,
                                                         toolcat: RunCli) -> None:
    result, err, out = _generate(tmp_path, toolcat, "warn")
    assert result.returncode == 0, err
    assert sorted(_catalog(out)) == ["get_user_applications_oauth2",
                                     "get_user_applications_oauth2_by_id", "repo_create"]
    for pointer in ("/paths/~1user~1applications~1oauth2/get/operationId",
                    "/paths/~1user~1applications~1oauth2~1{id}/get/operationId"):
        assert f"swagger.json: {pointer}: {NAMED_BOTH}" in err, err
    # A function of the set: the paths in the other order give the same names.
    doc = gitea_like()
    doc["paths"] = dict(reversed(list(doc["paths"].items())))
    again, _, out2 = _generate(tmp_path / "reversed", toolcat, "warn", doc)
    assert again.returncode == 0
    assert sorted(_catalog(out2)) == sorted(_catalog(out))


def test_warn_reads_tuple_items_as_prefix_items(tmp_path: Path, toolcat: RunCli) -> None:
    result, err, out = _generate(tmp_path, toolcat, "warn")
    assert result.returncode == 0, err
    assert "swagger.json: /definitions/Pair/properties/p/items: 'items' is a list" \
        in err
    p = _catalog(out)["repo_create"]["tool"]["inputSchema"]["properties"]["p"]
    assert p == {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]}


@pytest.fixture
def stub_api() -> Iterator[tuple[str, list[Arrived]]]:
    """A stub API on 127.0.0.1: its URL and the requests that arrived."""
    with StubApi(replying(200, {"name": "app"})) as api:
        yield api.url, api.seen


def test_serve_refuses_a_template_url_without_a_base_url(
        tmp_path: Path, toolcat: RunCli, stub_api: tuple[str, list[Arrived]]) -> None:
    result, err, out = _generate(tmp_path, toolcat, "warn")
    assert result.returncode == 0, err
    assert "swagger.json: /basePath: the server URL holds '{{', text that is not " \
           "an OpenAPI server variable" in err
    catalog = json.loads((out / "catalog.json").read_text())
    base, arrived = stub_api

    async def call(base_url: str | None) -> Any:
        async with Caller(catalog, base_url=base_url) as api:
            return await api.call("get_user_applications_oauth2_by_id", {"id": 7})

    refused = asyncio.run(call(None))
    assert refused.is_error
    assert "not an OpenAPI server variable" in refused.text
    assert "--base-url" in refused.text
    assert arrived == []   # nothing was sent
    answered = asyncio.run(call(f"{base}/api/v1"))
    assert not answered.is_error, answered.text
    assert [f"{a.method} {a.target}" for a in arrived] == [
        "GET /api/v1/user/applications/oauth2/7"]
