"""The oracle draws from each schema variant on its own, and fills schemas, not names.

The oracle draws from a schema as it is and from a "filled" variant (every property
required, every list non-empty). Two faults hid Kubernetes' responses (42 of 42 sampled
response schemas "not drawn", nothing judged): ``fill_all`` took a property called
``items`` (every List type has one) for the array keyword and wrote ``minItems`` into the
``properties`` map, an invalid schema; and the response check let the filled variant's
failure discard the plain draws too. Now name maps are walked by value, and a response
schema is skipped only when neither variant yields an instance.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, real, real_catalog, write_spec
from oracle.responses import check
from oracle.sample import fill_all

LIST = {"type": "object", "properties": {
    "kind": {"type": "string"},
    "items": {"type": "array", "items": {"type": "string"}}}}


def test_a_property_called_items_is_a_name() -> None:
    filled = fill_all(LIST)
    assert filled["required"] == ["items", "kind"]
    assert set(filled["properties"]) == {"kind", "items"}          # no minItems property
    assert filled["properties"]["items"]["minItems"] == 1
    assert fill_all({"enum": [{"items": [1]}]}) == {"enum": [{"items": [1]}]}


def _spec(schema: dict[str, Any]) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "components": {"schemas": {"List": schema}},
            "paths": {"/things": {"get": {
                "operationId": "listThings",
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/List"}}}}}}}}}


def test_an_undrawable_filled_variant_keeps_the_plain_draws(tmp_path: Any) -> None:
    # `gone` may never be present: the filled variant (gone required) has no instance
    schema = {**LIST, "properties": {**LIST["properties"], "gone": {"not": {}}}}
    spec = write_spec(tmp_path, _spec(schema), "spec.json")
    tally = check(spec, generate(spec), count=3, seed_value=5)
    assert tally.skipped == []
    assert tally.instances > 0
    assert tally.accepted == tally.instances


def test_kubernetes_list_responses_are_drawn() -> None:
    doc = "corpus/kubernetes/swagger.json.unprocessed"
    tally = check(real(*doc.split("/")), real_catalog(*doc.split("/")), count=1,
                  seed_value=11, tools=["list_core_v1_namespace"], max_size=20_000)
    assert tally.skipped == []
    assert tally.instances > 0
    assert tally.accepted == tally.instances
