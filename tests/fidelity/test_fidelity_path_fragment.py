"""Class 6 of issue 11: a path key with a fragment (Box ``/files/{file_id}#get_shared_link``).

Two operations share one URL; the document keeps them apart with a fragment that
is no part of the request path. ``binding.path`` drops it, the tools stay distinct
(names come from the operationIds). Oracle figure: every drawn call of both tools
is accepted by the judge, which matches either key for that URL.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run

PARAM = {"name": "file_id", "in": "path", "required": True,
         "schema": {"type": "string", "enum": ["12", "34"]}}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {
        "/files/{file_id}": {"get": {"operationId": "getFile", "parameters": [PARAM],
                                     "responses": {"200": {"description": "ok"}}}},
        "/files/{file_id}#get_shared_link": {"get": {
            "operationId": "getSharedLink",
            "parameters": [PARAM, {"name": "fields", "in": "query", "required": True,
                                   "schema": {"type": "string", "enum": ["shared_link"]}}],
            "responses": {"200": {"description": "ok"}}}},
    },
}


def test_fragment_is_stripped_and_tools_stay_distinct(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    assert tool(catalog, "get_file")["binding"]["path"] == "/files/{file_id}"
    assert tool(catalog, "get_shared_link")["binding"]["path"] == "/files/{file_id}"
    tally = run(spec, catalog, count=4, seed_value=1)
    assert tally.requests >= 4
    assert tally.failures == []
    assert tally.accepted == tally.requests
