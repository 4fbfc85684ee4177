"""The contract oracle builds each request under the binding's servers.

plex's ``get_server_resources``, ``get_token_details`` and ``post_users_sign_in_data``
are served from ``https://plex.tv/api/v2`` (operation-level ``servers``); the catalog's
binding says so, but the oracle's builder put every request under the document's
first server, so ``/resources`` was judged "does not match /resources under /api/v2"
(6 of plex's 120-tool sample). A caller follows the binding: so does the builder.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from oracle.sample import run

OK = {"200": {"description": "ok"}}
SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "servers": [{"url": "https://pms.example.invalid/"}],
    "paths": {
        "/resources": {"get": {"operationId": "getServerResources", "responses": OK,
                               "servers": [{"url": "https://plex.example.invalid/api/v2"}]}},
        "/users": {"servers": [{"url": "https://{host}/api", "variables": {
                       "host": {"default": "plex.example.invalid"}}}],
                   "get": {"operationId": "getUsers", "responses": OK}},
        "/library": {"get": {"operationId": "getLibrary", "responses": OK}},
    },
}


def test_requests_go_under_the_bindings_servers(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = run(spec, generate(spec), count=1, seed_value=1)
    assert tally.requests == 3
    assert [(n, v["errors"]) for n, _, v in tally.failures] == []
