"""The serve oracle counts a call no rule writes apart, never as a runtime fault nor as
a pass.

A form body whose field `grouping` is an object holding another object
(`grouping.info`), beside a top-level object field `info`, both with `style: form`
in their encoding (the shape of Lichess `broadcast_tour_create`, whose fields have no
encoding and so travel as JSON text since test_serve_oracle_form_json.py). No OpenAPI
style writes an object among form fields without spreading its names among the
others: the runtime sends something, the judge reads `info` twice and fails to
deserialise it. The contract oracle (`oracle.wire.build`) already marks such calls
"unserialisable"; the runtime's requests carry the same mark.

Plex `modify_playlist_generator` has a shape that was counted so until the judge read
nested deepObject values by the bracket convention (tests/oracle/deep_object.py): a
deepObject parameter `Item` holding an object (`Item.Location.uri`). It is judged now.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime

INFO = {"type": "object", "additionalProperties": False, "required": ["format"],
        "properties": {"format": {"type": "string", "enum": ["swiss"]}}}
SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "servers": [{"url": "https://example.invalid"}],
    "paths": {
        "/broadcast/new": {"post": {
            "operationId": "broadcastTourCreate",
            "requestBody": {"required": True, "content": {
                "application/x-www-form-urlencoded": {"schema": {
                    "type": "object", "required": ["name", "info", "grouping"],
                    "additionalProperties": False,
                    "properties": {
                        "name": {"type": "string", "enum": ["cup"]},
                        "info": INFO,
                        "grouping": {"type": "object", "additionalProperties": False,
                                     "required": ["info"],
                                     "properties": {"info": INFO}}}},
                    "encoding": {"info": {"style": "form"},
                                 "grouping": {"style": "form"}}}}},
            "responses": {"200": {"description": "ok"}}}},
        "/broadcast/{id}": {"get": {
            "operationId": "broadcastGet",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "string", "enum": ["b1"]}}],
            "responses": {"200": {"description": "ok"}}}},
    },
}


def test_object_among_form_fields_is_counted_unserialisable(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    tally = judge_runtime(spec, catalog, count=1)
    assert tally.failures == [], tally.failures
    # Every field is fixed: one distinct draw per tool. The form call apart, the other passes.
    assert tally.unserialisable == 1
    assert tally.accepted == 1


DEEP: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "servers": [{"url": "https://example.invalid"}],
    "paths": {"/playlists/{id}": {"put": {
        "operationId": "modifyPlaylistGenerator",
        "parameters": [
            {"name": "id", "in": "path", "required": True,
             "schema": {"type": "string", "enum": ["p1"]}},
            {"name": "Item", "in": "query", "required": True, "style": "deepObject",
             "explode": True, "schema": {
                 "type": "object", "additionalProperties": False, "required": ["Location"],
                 "properties": {"Location": {
                     "type": "object", "additionalProperties": False, "required": ["uri"],
                     "properties": {"uri": {"type": "string", "enum": ["u"]}}}}}}],
        "responses": {"200": {"description": "ok"}}}}},
}


def test_object_inside_a_deep_object_is_judged(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, DEEP, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=1)
    assert tally.failures == [], tally.failures
    assert (tally.unserialisable, tally.accepted) == (0, 1)
