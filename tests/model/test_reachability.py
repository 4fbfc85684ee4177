"""The key guard: everything a spec accepts is reachable through a tool argument.

For every operation, every parameter (path-level and operation-level, merged) and
every field of a JSON object request body must be an argument whose binding has
the right location and wire name and whose type matches at the catalog's ceiling;
readOnly fields must not be arguments. The spec is read by ``helpers.reachability``,
which shares no code with the generator's normalise/model stages; here it runs
strict (``taught_only``: an untaught shape fails loudly) and override-aware, as the
corpus test runs it lenient on shapes and without overrides. Mismatches are
collected and asserted once, so one run shows the whole drift.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from helpers.generate import build
from helpers.paths import (
    ERSATZTV_PR,
    ERSATZTV_SCRIPTED,
    ERSATZTV_V1,
    ERSATZTV_V1_30,
    EXAMPLE_SPEC,
    FIXTURES,
    ersatztv,
)
from helpers.reachability import Untaught, compare, operations
from toolcat.model.types import Catalog
from toolcat.render.catalog import catalog_data

SHAPES = FIXTURES / "reachability" / "shapes.json"

# Operation counts pinned by name: a walk that silently saw fewer operations
# (a path item it skipped, a method it forgot) would compare nothing and pass.
OPERATION_COUNTS = {ERSATZTV_V1: 18, ERSATZTV_V1_30: 18, ERSATZTV_SCRIPTED: 28,
                    ERSATZTV_PR: 215}
EXAMPLE_OPERATIONS = 21


def _document(path: Path) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(path.read_bytes())
    return loaded


def _problems(document: dict[str, Any], catalog: dict[str, Any]) -> list[str]:
    try:
        return compare(document, catalog)
    except Untaught as exc:
        pytest.fail(f"the reachability walk was not taught this shape: {exc}")


def _assert_reachable(document: dict[str, Any], catalog: dict[str, Any]) -> None:
    problems = _problems(document, catalog)
    assert not problems, (f"{len(problems)} spec field(s) not reachable as declared:\n  "
                          + "\n  ".join(problems))


def test_example_is_reachable(example_catalog: Catalog) -> None:
    document = _document(EXAMPLE_SPEC)
    assert len(list(operations(document))) == EXAMPLE_OPERATIONS
    _assert_reachable(document, catalog_data(example_catalog))


@pytest.mark.parametrize("name", sorted(OPERATION_COUNTS))
def test_ersatztv_is_reachable(name: str) -> None:
    spec = ersatztv(name)
    document = _document(spec)
    assert len(list(operations(document))) == OPERATION_COUNTS[name]
    # The PR spec's component names (List`1) break 3.1's name pattern, so the
    # validator rejects it; its structure is still worth walking.
    catalog = build(spec, "ersatztv", skip_validation=name == ERSATZTV_PR)
    assert len(catalog.tools) == OPERATION_COUNTS[name]
    _assert_reachable(document, catalog_data(catalog))


def test_fixture_shapes_are_reachable() -> None:
    """Shapes the real specs lack: path-level parameters overridden per operation,
    cookie and reserved headers, a $ref'd requestBody, allOf bodies, readOnly (own
    and through a $ref),
    3.0 nullable, whole-body arrays and text, form bodies."""
    document = _document(SHAPES)
    catalog = catalog_data(build(SHAPES))
    _assert_reachable(document, catalog)
    tools = {t["tool"]["name"]: t for t in catalog["tools"]}
    replace = tools["replace_thing"]["binding"]["arguments"]
    assert replace["ifMatch"]["in"] == "header"
    assert replace["ifMatch"]["name"] == "If-Match"
    assert "id" not in replace, "readOnly body field 'id' became an argument"
    assert "stamp" not in replace, "body field 'stamp' (readOnly via $ref) became an argument"
    for whole in ("add_tags", "set_note"):
        assert tools[whole]["binding"]["arguments"]["body"] == {"in": "body", "name": None}


def _tool(catalog: dict[str, Any], name: str) -> dict[str, Any]:
    return next(t for t in catalog["tools"] if t["tool"]["name"] == name)


def _drop(entry: dict[str, Any], argument: str) -> None:
    del entry["binding"]["arguments"][argument]
    del entry["tool"]["inputSchema"]["properties"][argument]


def test_mutations_are_reported_by_name(example_catalog: Catalog) -> None:
    """Prove the guard can fail: each break is reported once, naming its field."""
    catalog = copy.deepcopy(catalog_data(example_catalog))
    _drop(_tool(catalog, "broadcast_update_channel"), "graphicsElementIds")
    schedule = _tool(catalog, "broadcast_update_schedule")["tool"]["inputSchema"]
    schedule["properties"]["padToNearestMinute"] = {"type": "string"}
    create = _tool(catalog, "broadcast_create_channel")["tool"]["inputSchema"]
    create["properties"]["categories"]["items"] = {"type": "integer"}
    _drop(_tool(catalog, "broadcast_get_playout_items"), "showFiller")
    catalog["tools"] = [t for t in catalog["tools"]
                        if t["tool"]["name"] != "broadcast_reset_playout"]

    problems = _problems(_document(EXAMPLE_SPEC), catalog)

    expected = {
        "body field 'graphicsElementIds' is not an argument",
        "argument 'padToNearestMinute' (body field 'padToNearestMinute') is string, "
        "spec says integer|null",
        "argument 'categories' (body field 'categories') is array<integer>, "
        "spec says array<string>",
        "query parameter 'showFiller' is not an argument",
        "POST /playouts/{playoutId}/reset: no tool binds this operation",
    }
    unmatched = [p for p in problems if not any(e in p for e in expected)]
    missed = [e for e in expected if not any(e in p for p in problems)]
    assert not unmatched, problems
    assert not missed, problems
    assert len(problems) == len(expected), problems


def test_readonly_and_extra_arguments_are_reported() -> None:
    catalog = catalog_data(build(SHAPES))
    replace = _tool(catalog, "replace_thing")
    replace["binding"]["arguments"]["id"] = {"in": "body", "name": "id"}
    replace["tool"]["inputSchema"]["properties"]["id"] = {"type": "integer"}
    get = _tool(catalog, "get_thing")
    get["binding"]["arguments"]["limit"] = {"in": "query", "name": "limit"}
    get["tool"]["inputSchema"]["properties"]["limit"] = {"type": "integer"}
    get["binding"]["arguments"]["X-Trace"]["in"] = "query"

    problems = _problems(_document(SHAPES), catalog)

    assert len(problems) == 4, problems
    text = "\n".join(problems)
    assert "readOnly body field 'id' is argument 'id'" in text
    assert "argument 'limit' (query 'limit') is not in the spec" in text
    assert "header parameter 'X-Trace' is not an argument" in text
    assert "argument 'X-Trace' (query 'X-Trace') is not in the spec" in text


def test_corpus_checks_are_reported_by_name() -> None:
    """The checks the corpus leans on (no overrides, type sets) can fail, each by name."""
    document = _document(SHAPES)
    catalog = catalog_data(build(SHAPES))
    assert not compare(document, catalog, taught_only=False, overrides=False)
    get = _tool(catalog, "get_thing")
    get["tool"]["inputSchema"]["required"].append("session")
    get["binding"]["arguments"]["tags"]["explode"] = False
    note = _tool(catalog, "replace_thing")["tool"]["inputSchema"]["$defs"]["Note"]
    note["properties"]["text"]["readOnly"] = True
    form = _tool(catalog, "post_form")   # a plain object body, sent whole
    for name in ("a", "b"):
        _drop(form, name)
    form["binding"]["arguments"]["body"] = {"in": "body", "name": None}
    form["tool"]["inputSchema"]["properties"]["body"] = {"type": "object"}
    catalog["tools"].append(copy.deepcopy(_tool(catalog, "set_note")))

    problems = compare(document, catalog, taught_only=False, overrides=False)

    expected = {
        "argument 'session' (cookie parameter 'session') is required by the tool, not by "
        "the spec",
        "argument 'tags' (query parameter 'tags') binds style/explode form/False, spec says "
        "form/True",
        "readOnly property left in inputSchema at /$defs/Note/properties/text",
        "post_form (POST /forms): body field 'a' is not an argument",
        "post_form (POST /forms): body field 'b' is not an argument",
        "post_form (POST /forms): argument 'body' (body 'None') is not in the spec",
        "PUT /things/{thingId}/note: tools ['set_note', 'set_note'] bind it; only an override "
        "splits an operation",
    }
    assert sorted(e for e in expected if not any(e in p for p in problems)) == [], problems
    assert len(problems) == len(expected), problems


def _one_operation(**operation: Any) -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/x": {"post": {"operationId": "postX", **operation,
                                      "responses": {"200": {"description": "ok"}}}}}}


@pytest.mark.parametrize(("operation", "named"), [
    ({"requestBody": {"content": {"application/json": {"schema": {
        "type": "object", "properties": {"v": {"oneOf": [{"type": "string"},
                                                          {"type": "integer"}]}}}}}}},
     "field 'v'"),
    ({"requestBody": {"content": {"application/json": {"schema": {
        "type": "object", "properties": {"v": {"type": ["string", "integer"]}}}}}}},
     "field 'v'"),
    ({"requestBody": {"content": {"application/xml": {"schema": {"type": "object"}}}}},
     "application/xml"),
    ({"parameters": [{"name": "p", "in": "query", "schema": {"description": "any"}}]},
     "field 'p'"),
])
def test_untaught_shapes_fail_loudly(operation: dict[str, Any], named: str) -> None:
    with pytest.raises(Untaught) as caught:
        compare(_one_operation(**operation), {"tools": [], "exclusions": []})
    assert "POST /x" in str(caught.value)
    assert named in str(caught.value)
    # The corpus compares the same shape (as a type set, a text body) instead.
    assert compare(_one_operation(**operation), {"tools": [], "exclusions": []},
                   taught_only=False) == ["POST /x: no tool binds this operation and it is "
                                          "not excluded"]
