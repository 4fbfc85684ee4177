"""An object parameter cannot be empty: ``{}`` sends nothing.

plex's ``set_section_preferences`` requires the query object ``prefs`` (form,
exploded: each property is its own ``name=value``); ``prefs: {}`` left no parameter
in the URL and the API refused the call as missing one. Object parameters get
``minProperties: 1`` wherever lists get ``minItems: 1`` (not where the spec sets
``allowEmptyValue``), and members with a name and a non-null value. Oracle figure:
every drawn call is accepted. (``prefs`` is optional here: openapi-core 0.23 cannot
find a required exploded form object in a query string and reports it missing, see
the pinned plex exceptions.)
"""

from __future__ import annotations

from typing import Any

import jsonschema
from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run

SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/sections/{id}/prefs": {"put": {
        "operationId": "setSectionPreferences",
        "parameters": [
            {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
            {"name": "prefs", "in": "query", "schema": {
                "type": "object", "additionalProperties": {"type": "string", "enum": ["1"]}}},
            {"name": "attributes", "in": "query", "required": True, "style": "deepObject",
             "explode": True,
             "schema": {"type": "object", "additionalProperties": False, "properties": {
                 "title": {"type": "string", "enum": ["spot"]}}}},
        ],
        "responses": {"204": {"description": "ok"}}}}},
}


def test_object_parameters_are_never_empty(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    props = tool(catalog, "set_section_preferences")["tool"]["inputSchema"]["properties"]
    assert props["prefs"]["minProperties"] == 1
    assert props["attributes"]["minProperties"] == 1
    inputs = jsonschema.Draft202012Validator(
        tool(catalog, "set_section_preferences")["tool"]["inputSchema"])
    base = {"id": 1, "attributes": {"title": "spot"}}
    assert inputs.is_valid({**base, "prefs": {"a": "1"}})
    for bad in ({"prefs": {}}, {"attributes": {}}, {"prefs": {"": "1"}}):
        assert not inputs.is_valid({**base, **bad}), bad
    tally = run(spec, catalog, count=10, seed_value=4)
    assert tally.requests >= 2
    assert tally.failures == []
    assert tally.accepted == tally.requests
