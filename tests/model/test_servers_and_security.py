"""The catalog records where a tool's requests go and which credentials they carry.

Servers: nearest of operation, path item, document wins; variables keep default and enum;
relative URLs stay relative; Swagger 2.0 host + basePath + schemes become a server (so
petstore-separate's `/api` is no longer lost). Security: requirements resolved to scheme
descriptions, never a credential value.
"""

from __future__ import annotations

from pathlib import Path

from helpers.fixtures import generate, tool, write_spec

SCHEMES = {
    "key": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
    "token": {"type": "http", "scheme": "Bearer"},
    "basic": {"type": "http", "scheme": "basic"},
}


def _spec() -> dict[str, object]:
    ok = {"200": {"description": "ok"}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "servers": [{"url": "https://{region}.example.com/v1",
                     "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}}}],
        "security": [{"token": []}],
        "components": {"securitySchemes": SCHEMES},
        "paths": {
            "/a": {"get": {"operationId": "docLevel", "responses": ok}},
            "/b": {
                "servers": [{"url": "/relative"}],
                "get": {"operationId": "itemLevel", "security": [{"key": [], "basic": []}, {}],
                        "responses": ok},
                "put": {"operationId": "opLevel", "servers": [{"url": "http://op.test"}],
                        "security": [], "responses": ok},
            },
        },
    }


def test_nearest_servers_win_and_security_is_resolved(tmp_path: Path) -> None:
    catalog = generate(write_spec(tmp_path, _spec()))
    assert catalog["format"] == 2
    doc = tool(catalog, "doc_level")["binding"]
    item = tool(catalog, "item_level")["binding"]
    op = tool(catalog, "op_level")["binding"]
    assert doc["servers"] == [{"url": "https://{region}.example.com/v1",
                               "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}}}]
    assert item["servers"] == [{"url": "/relative"}]
    assert op["servers"] == [{"url": "http://op.test"}]
    assert doc["security"] == [[{"id": "token", "type": "http", "scheme": "bearer"}]]
    assert item["security"] == [
        [{"id": "basic", "type": "http", "scheme": "basic"},
         {"id": "key", "type": "apiKey", "in": "header", "name": "X-API-Key"}],
        [],
    ]
    assert op["security"] == []


def test_no_servers_means_the_openapi_default_slash(tmp_path: Path) -> None:
    spec = _spec()
    del spec["servers"]
    binding = tool(generate(write_spec(tmp_path, spec)), "doc_level")["binding"]
    assert binding["servers"] == [{"url": "/"}]


def test_swagger2_base_path_reaches_the_binding(tmp_path: Path) -> None:
    spec = {
        "swagger": "2.0", "info": {"title": "t", "version": "1"},
        "host": "pets.test:8080", "basePath": "/api", "schemes": ["http"],
        "securityDefinitions": {"k": {"type": "apiKey", "in": "query", "name": "api_key"}},
        "security": [{"k": []}],
        "paths": {"/pets": {"get": {"operationId": "listPets",
                                    "responses": {"200": {"description": "ok"}}}}},
    }
    binding = tool(generate(write_spec(tmp_path, spec)), "list_pets")["binding"]
    assert binding["servers"] == [{"url": "http://pets.test:8080/api"}]
    assert binding["security"] == [[{"id": "k", "type": "apiKey", "in": "query",
                                     "name": "api_key"}]]


def test_an_undeclared_scheme_is_kept_and_marked(tmp_path: Path) -> None:
    # kratos names `sessionToken` in a requirement and never declares it.
    spec = _spec()
    spec["paths"]["/a"]["get"]["security"] = [{"sessionToken": []}]
    binding = tool(generate(write_spec(tmp_path, spec), validate=False), "doc_level")["binding"]
    assert binding["security"] == [[{"id": "sessionToken", "type": "undeclared"}]]
