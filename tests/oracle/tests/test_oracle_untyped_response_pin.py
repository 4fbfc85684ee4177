"""A response schema with ``properties`` but no ``type`` is pinned by class, not fixed.

openai's ``OpenAIFile`` (``create_file``), ``ListMessagesResponse`` and
``ListVectorStoreFilesResponse`` list properties and no ``type``: by JSON Schema's
letter ``null`` (or ``3``) is a valid response, and the oracle drew ``null``. The
document means an object (its title and description say so); toolcat's outputSchema
is that object at the root, as MCP wants (wrapping every such tool's result in
``{"result": ...}`` would serve a letter no API follows). The oracle counts these
apart (``exceptions.response_pin``, "pinned responses"): only non-object instances
of such an untyped schema, never an object that fails, never a typed schema.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, real, real_catalog, write_spec
from oracle.exceptions import response_pin
from oracle.responses import check

UNTYPED = {"title": "File", "properties": {"id": {"type": "string"}}}
SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "components": {"schemas": {"File": UNTYPED}},
    "paths": {"/files": {"post": {
        "operationId": "createFile",
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/File"}}}}}}}},
}


def test_only_non_objects_of_an_untyped_schema_are_pinned() -> None:
    assert response_pin(UNTYPED, None) is not None
    assert response_pin(UNTYPED, 3) is not None
    assert response_pin(UNTYPED, {"id": 3}) is None                  # an object: ours
    assert response_pin({**UNTYPED, "type": "object"}, None) is None  # typed: ours
    assert response_pin({**UNTYPED, "nullable": True}, None) is None
    assert response_pin({"anyOf": [UNTYPED]}, None) is None


def test_fixture_responses(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = check(spec, generate(spec), count=20, seed_value=5)
    assert tally.failures == []
    assert tally.accepted > 0
    assert tally.pinned
    assert all(not isinstance(i, dict) for _, i, _ in tally.pinned)


def test_openai_create_file() -> None:
    spec = real("corpus", "openai", "openapi.yaml")
    catalog = real_catalog("corpus", "openai", "openapi.yaml")
    tally = check(spec, catalog, count=1, seed_value=11, tools=["create_file"])
    assert tally.failures == []
    assert tally.pinned   # the table's seed draws null
