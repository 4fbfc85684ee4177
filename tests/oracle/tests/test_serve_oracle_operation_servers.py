"""An operation's own `servers` is where its requests go, and where the judge looks.

Plex serves most operations from the document's server but `get_server_resources`,
`get_users` and the sign-in from `https://plex.tv/api/v2` (operation-level servers).
The runtime sends to the nearest server (operation, else path item, else document);
the judge read only the document's servers and rejected `/api/v2/resources` as "does
not match /resources". It now reads the same three levels, so a request sent to the
document's base for such an operation is still rejected. The contract oracle's own
builder follows the binding's servers too (it put every request under the document's
first server: 6 of plex's 120-tool sample were judged "does not match").
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from oracle.client import judge
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


def test_requests_go_to_the_nearest_server(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=1)
    assert tally.failures == [], tally.failures
    assert tally.accepted == 3


def test_the_document_base_is_wrong_for_such_an_operation(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    request = {"method": "GET", "query": "", "headers": {}, "cookies": {},
               "contentType": None, "body": None, "bodyBase64": None}
    right, wrong = judge(spec, [
        {**request, "path": "/api/v2/resources", "operation": "GET /resources"},
        {**request, "path": "/resources", "operation": "GET /resources"}])
    assert right["ok"], right
    assert wrong["class"] == "operation", wrong
    assert "['/api/v2']" in wrong["errors"][0], wrong


def test_the_oracle_builds_under_the_bindings_servers(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = run(spec, generate(spec), count=1, seed_value=1)
    assert tally.requests == 3
    assert [(n, v["errors"]) for n, _, v in tally.failures] == []
