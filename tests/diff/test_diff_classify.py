"""Every kind of change, made to a small spec, classified exactly.

Each case mutates a fixture OpenAPI document (and its override file), builds
both catalogs in process the way ``toolcat generate`` does, diffs them, and
pins the complete set of changes: (tool, severity, kind, subject). A change the
classifier misses, misjudges or invents fails the case, naming the message.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from toolcat.catalog.reader import CatalogView, parse_catalog
from toolcat.config import Target
from toolcat.diff.classify import Change, diff_catalogs
from toolcat.pipeline import build_catalog
from toolcat.render.catalog import render_catalog

Doc = dict[str, Any]
B, C = "breaking", "compatible"
WIDGET = "#/components/schemas/Widget"
NEW_WIDGET = "#/components/schemas/NewWidget"
COLOUR = "#/components/schemas/Colour"


def _json(schema: Doc) -> Doc:
    return {"application/json": {"schema": schema}}


def _ok(schema: Doc, status: str = "200") -> Doc:
    return {status: {"description": "ok", "content": _json(schema)}}


WIDGET_ID = {"name": "widgetId", "in": "path", "required": True,
             "schema": {"type": "integer"}}

SPEC: Doc = {
    "openapi": "3.1.0",
    "info": {"title": "Widgets", "version": "1"},
    "paths": {
        "/widgets": {
            "get": {
                "operationId": "listWidgets", "summary": "List widgets",
                "parameters": [
                    {"name": "colour", "in": "query", "schema": {"$ref": COLOUR}},
                    {"name": "limit", "in": "query", "description": "Page size.",
                     "schema": {"type": "integer", "minimum": 1, "maximum": 100}},
                    {"name": "order", "in": "query",
                     "schema": {"type": "string", "enum": ["asc", "desc"]}},
                ],
                "responses": _ok({"type": "array", "items": {"$ref": WIDGET}}),
            },
            "post": {
                "operationId": "createWidget", "summary": "Create a widget",
                "requestBody": {"required": True, "content": _json({"$ref": NEW_WIDGET})},
                "responses": _ok({"$ref": WIDGET}, "201"),
            },
        },
        "/widgets/{widgetId}": {
            "get": {"operationId": "getWidget", "summary": "Get a widget",
                    "parameters": [WIDGET_ID], "responses": _ok({"$ref": WIDGET})},
            "put": {"operationId": "updateWidget", "summary": "Replace a widget",
                    "parameters": [WIDGET_ID],
                    "requestBody": {"required": True, "content": _json({"$ref": NEW_WIDGET})},
                    "responses": _ok({"$ref": WIDGET})},
            "delete": {"operationId": "deleteWidget", "summary": "Delete a widget",
                       "parameters": [WIDGET_ID],
                       "responses": {"204": {"description": "deleted"}}},
        },
    },
    "components": {"schemas": {
        "Colour": {"type": "string", "enum": ["red", "green", "blue"]},
        "Size": {"type": "object", "properties": {"width": {"type": "integer"},
                                                  "height": {"type": "integer"}}},
        "NewWidget": {
            "type": "object", "required": ["name"],
            "properties": {
                "name": {"type": "string", "maxLength": 50},
                "colour": {"$ref": COLOUR},
                "weight": {"type": ["number", "null"]},
                "size": {"$ref": "#/components/schemas/Size"},
            },
        },
        "Widget": {
            "type": "object", "required": ["id", "name"],
            "properties": {
                "id": {"type": "integer"},
                "name": {"type": "string"},
                "colour": {"$ref": COLOUR},
                "createdAt": {"type": "string", "format": "date-time"},
            },
        },
    }},
}
OVERRIDES: Doc = {"operations": {}}

Mutation = Callable[[Doc, Doc], None]
Expected = set[tuple[str, str, str, str]]   # (tool, severity, kind, subject)


def build(folder: Path, spec: Doc, overrides: Doc) -> CatalogView:
    folder.mkdir(parents=True)
    (folder / "spec.json").write_text(json.dumps(spec))
    (folder / "overrides.yaml").write_text(json.dumps(overrides))
    target = Target(name="widgets", spec=folder / "spec.json", spec_label="spec.json",
                    output=folder / "out", overrides=folder / "overrides.yaml")
    return parse_catalog(render_catalog(build_catalog(target)), str(folder))


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> CatalogView:
    return build(tmp_path_factory.mktemp("diff") / "base", SPEC, OVERRIDES)


def op(spec: Doc, path: str, method: str) -> Doc:
    return spec["paths"][path][method]  # type: ignore[no-any-return]


def param(spec: Doc, name: str) -> Doc:
    return next(p for p in op(spec, "/widgets", "get")["parameters"] if p["name"] == name)


def schema(spec: Doc, name: str) -> Doc:
    return spec["components"]["schemas"][name]  # type: ignore[no-any-return]


def override(overrides: Doc, operation: str, **entry: Any) -> None:
    overrides["operations"].setdefault(operation, {}).update(entry)


def rename_operation(spec: Doc, _: Doc) -> None:
    op(spec, "/widgets/{widgetId}", "delete")["operationId"] = "removeWidget"


def rename_limit(spec: Doc, _: Doc) -> None:
    param(spec, "limit")["name"] = "pageSize"


def add_required_param(spec: Doc, _: Doc) -> None:
    op(spec, "/widgets", "get")["parameters"].append(
        {"name": "tenant", "in": "query", "required": True, "schema": {"type": "string"}})


def add_optional_param(spec: Doc, _: Doc) -> None:
    op(spec, "/widgets", "get")["parameters"].append(
        {"name": "sort", "in": "query", "schema": {"type": "string"}})


def move_paths(spec: Doc, _: Doc) -> None:
    spec["paths"]["/items/{widgetId}"] = spec["paths"].pop("/widgets/{widgetId}")


def wire_rename(spec: Doc, overrides: Doc) -> None:
    # The argument keeps its name; only the query parameter on the wire is renamed.
    param(spec, "limit")["name"] = "max"
    override(overrides, "listWidgets", arguments={"max": {"rename": "limit"}})


def vendor_body(spec: Doc, _: Doc) -> None:
    # Still JSON, so the arguments stay as they are: only the content type moves.
    body = op(spec, "/widgets", "post")["requestBody"]
    body["content"] = {"application/vnd.widget+json": body["content"]["application/json"]}


def add_tool(spec: Doc, _: Doc) -> None:
    spec["paths"]["/widgets/{widgetId}/archive"] = {"post": {
        "operationId": "archiveWidget", "summary": "Archive a widget",
        "parameters": [WIDGET_ID], "responses": {"204": {"description": "archived"}}}}


def _set(getter: Callable[[Doc], Doc], key: str, value: Any) -> Mutation:
    def mutate(spec: Doc, _: Doc) -> None:
        getter(spec)[key] = value
    return mutate


def _drop(getter: Callable[[Doc], Doc], key: str) -> Mutation:
    def mutate(spec: Doc, _: Doc) -> None:
        del getter(spec)[key]
    return mutate


def _override(operation: str, **entry: Any) -> Mutation:
    def mutate(_: Doc, overrides: Doc) -> None:
        override(overrides, operation, **entry)
    return mutate


def widget_prop(name: str) -> Callable[[Doc], Doc]:
    return lambda spec: schema(spec, "Widget")["properties"][name]  # type: ignore[no-any-return]


def new_widget_props(spec: Doc) -> Doc:
    return schema(spec, "NewWidget")["properties"]  # type: ignore[no-any-return]


WRITES = ("create_widget", "update_widget")
READS = ("list_widgets", "get_widget")
OUTPUTS = ("create_widget", "get_widget", "update_widget")


def out_path(tool: str, prop: str) -> str:
    """The list tool wraps its array response as ``result``."""
    return f"output property `result[].{prop}`" if tool == "list_widgets" \
        else f"output property `{prop}`"


def each(tools: tuple[str, ...], severity: str, kind: str, subject: str) -> Expected:
    return {(t, severity, kind, subject) for t in tools}


def each_output(severity: str, kind: str, prop: str) -> Expected:
    return {(t, severity, kind, out_path(t, prop)) for t in (*OUTPUTS, "list_widgets")}


CASES: list[tuple[str, Mutation, Expected]] = [
    # --- breaking ---------------------------------------------------------------------
    ("tool removed", lambda s, o: s["paths"]["/widgets/{widgetId}"].pop("delete"),
     {("delete_widget", B, "tool-removed", "tool")}),
    ("tool renamed", rename_operation,
     {("delete_widget", B, "tool-removed", "tool"), ("remove_widget", C, "tool-added", "tool")}),
    ("argument removed",
     lambda s, o: op(s, "/widgets", "get")["parameters"].remove(param(s, "limit")),
     {("list_widgets", B, "argument-removed", "argument `limit`")}),
    ("argument renamed", rename_limit,
     {("list_widgets", B, "argument-removed", "argument `limit`"),
      ("list_widgets", C, "argument-added", "argument `pageSize`")}),
    ("argument optional -> required", lambda s, o: param(s, "limit").update(required=True),
     {("list_widgets", B, "argument-now-required", "argument `limit`")}),
    ("required argument added", add_required_param,
     {("list_widgets", B, "required-argument-added", "argument `tenant`")}),
    ("argument type changed",
     lambda s, o: param(s, "limit").update(schema={"type": "string"}),
     # Bounds of a different type are not compared: the type change says it all.
     {("list_widgets", B, "type-changed", "argument `limit`")}),
    ("argument type narrowed (null dropped)",
     lambda s, o: new_widget_props(s)["weight"].update(type="number"),
     each(WRITES, B, "type-changed", "argument `weight`")),
    ("type changed inside a referenced definition",
     lambda s, o: schema(s, "Size")["properties"]["width"].update(type="string"),
     each(WRITES, B, "type-changed", "argument `size.width`")),
    ("format added", lambda s, o: new_widget_props(s)["name"].update(format="email"),
     each(WRITES, B, "format-changed", "argument `name`")),
    ("constraint tightened", lambda s, o: new_widget_props(s)["name"].update(maxLength=20),
     each(WRITES, B, "constraint-changed", "argument `name`")),
    ("enum value removed",
     lambda s, o: schema(s, "Colour").update(enum=["red", "green"]),
     {("list_widgets", B, "enum-value-removed", "argument `colour`"),
      *each(WRITES, B, "enum-value-removed", "argument `colour`"),
      *each_output(C, "enum-value-removed", "colour")}),
    ("output property removed", _drop(lambda s: schema(s, "Widget")["properties"], "createdAt"),
     each_output(B, "output-property-removed", "createdAt")),
    ("output property retyped", _set(widget_prop("id"), "type", "string"),
     each_output(B, "type-changed", "id")),
    ("output property may be absent",
     lambda s, o: schema(s, "Widget").update(required=["id"]),
     each_output(B, "output-property-now-optional", "name")),
    ("output removed", lambda s, o: op(s, "/widgets/{widgetId}", "get").update(
        responses={"204": {"description": "nothing"}}),
     {("get_widget", B, "output-removed", "output"),
      ("get_widget", B, "binding-changed", "binding")}),
    ("binding: path moved", move_paths,
     {*each(("get_widget", "update_widget", "delete_widget"), B, "binding-changed",
            "binding")}),
    ("binding: method changed (PUT -> POST)",
     lambda s, o: s["paths"]["/widgets/{widgetId}"].update(
         post=s["paths"]["/widgets/{widgetId}"].pop("put")),
     {("update_widget", B, "binding-changed", "binding"),
      ("update_widget", C, "annotation-changed", "annotation `destructiveHint`"),
      ("update_widget", B, "annotation-changed", "annotation `idempotentHint`")}),
    ("binding: argument location (query -> header)",
     lambda s, o: param(s, "limit").update({"in": "header"}),
     {("list_widgets", B, "binding-changed", "argument `limit`")}),
    ("binding: wire name", wire_rename,
     {("list_widgets", B, "binding-changed", "argument `limit`")}),
    ("binding: request content type", vendor_body,
     {("create_widget", B, "binding-changed", "binding")}),
    ("annotation readOnlyHint true -> false",
     _override("getWidget", annotations={"readOnlyHint": False}),
     {("get_widget", B, "annotation-changed", "annotation `readOnlyHint`")}),
    ("annotation destructiveHint false -> true",
     _override("createWidget", annotations={"destructiveHint": True}),
     {("create_widget", B, "annotation-changed", "annotation `destructiveHint`")}),
    ("annotation idempotentHint true -> false",
     _override("updateWidget", annotations={"idempotentHint": False}),
     {("update_widget", B, "annotation-changed", "annotation `idempotentHint`")}),
    ("semantics -> full-replace", _override("updateWidget", semantics="full-replace"),
     {("update_widget", B, "semantics-changed", "write semantics"),
      ("update_widget", C, "description-changed", "tool")}),
    # --- compatible -------------------------------------------------------------------
    ("tool added", add_tool, {("archive_widget", C, "tool-added", "tool")}),
    ("optional argument added", add_optional_param,
     {("list_widgets", C, "argument-added", "argument `sort`")}),
    ("argument required -> optional",
     lambda s, o: schema(s, "NewWidget").update(required=[]),
     each(WRITES, C, "argument-now-optional", "argument `name`")),
    ("argument type widened (null allowed)",
     lambda s, o: new_widget_props(s)["name"].update(type=["string", "null"]),
     each(WRITES, C, "type-changed", "argument `name`")),
    ("enum widened", lambda s, o: param(s, "order")["schema"].update(
        enum=["asc", "desc", "random"]),
     {("list_widgets", C, "enum-value-added", "argument `order`")}),
    ("enum widened in a shared definition",
     lambda s, o: schema(s, "Colour").update(enum=["red", "green", "blue", "cyan"]),
     {("list_widgets", C, "enum-value-added", "argument `colour`"),
      *each(WRITES, C, "enum-value-added", "argument `colour`"),
      *each_output(C, "enum-value-added", "colour")}),
    ("description and title changed",
     lambda s, o: op(s, "/widgets/{widgetId}", "get").update(summary="Fetch one widget"),
     {("get_widget", C, "title-changed", "tool"),
      ("get_widget", C, "description-changed", "tool")}),
    ("argument description changed",
     lambda s, o: param(s, "limit").update(description="How many widgets per page."),
     {("list_widgets", C, "description-changed", "argument `limit`")}),
    ("annotation toward less danger",
     _override("deleteWidget", annotations={"destructiveHint": False}),
     {("delete_widget", C, "annotation-changed", "annotation `destructiveHint`")}),
    ("semantics unset -> merge",
     lambda s, o: (override(o, "updateWidget", semantics="merge")),
     {("update_widget", C, "semantics-changed", "write semantics"),
      ("update_widget", C, "description-changed", "tool"),
      ("update_widget", C, "annotation-changed", "annotation `destructiveHint`")}),
    ("output property added",
     lambda s, o: schema(s, "Widget")["properties"].update(notes={"type": "string"}),
     each_output(C, "output-property-added", "notes")),
]


def _found(changes: list[Change]) -> Expected:
    return {(c.tool, c.severity, c.kind, c.subject) for c in changes}


@pytest.mark.parametrize(("mutation", "expected"), [(m, e) for _, m, e in CASES],
                         ids=[name for name, _, _ in CASES])
def test_each_change_is_classified(tmp_path: Path, base: CatalogView, mutation: Mutation,
                                   expected: Expected) -> None:
    spec, overrides = copy.deepcopy(SPEC), copy.deepcopy(OVERRIDES)
    mutation(spec, overrides)
    diff = diff_catalogs(base, build(tmp_path / "new", spec, overrides))
    found = _found(diff.changes)
    lines = "\n".join(f"  {c.severity}: {c.message()}" for c in diff.changes)
    assert found == expected, f"missing {sorted(expected - found)}\n" \
        f"unexpected {sorted(found - expected)}\nall:\n{lines}"
    for change in diff.changes:
        # Every message names the tool, and the argument or property when there is one.
        assert change.message().startswith(f"{change.tool}: ")
        assert change.subject in change.message()


def test_identical_catalogs_have_no_changes(tmp_path: Path, base: CatalogView) -> None:
    again = build(tmp_path / "again", SPEC, OVERRIDES)
    assert again.digest == base.digest
    assert diff_catalogs(base, again).tools == ()


def test_messages_name_what_changed(tmp_path: Path, base: CatalogView) -> None:
    spec = copy.deepcopy(SPEC)
    schema(spec, "Colour")["enum"] = ["red", "green"]
    new_widget_props(spec)["weight"]["type"] = "number"
    diff = diff_catalogs(base, build(tmp_path / "new", spec, OVERRIDES))
    messages = {c.message() for c in diff.changes}
    assert "list_widgets: argument `colour`: enum value \"blue\" removed" in messages
    assert "create_widget: argument `weight`: type null|number -> number (narrowed)" in messages


def test_a_rename_names_the_new_tool(tmp_path: Path, base: CatalogView) -> None:
    spec = copy.deepcopy(SPEC)
    rename_operation(spec, OVERRIDES)
    diff = diff_catalogs(base, build(tmp_path / "new", spec, OVERRIDES))
    removed = next(c for c in diff.changes if c.kind == "tool-removed")
    assert "`remove_widget`" in removed.detail


def test_a_binding_change_under_an_equal_digest_is_still_seen(base: CatalogView) -> None:
    # The digest covers what clients see, not the binding: it cannot short-circuit alone.
    tools = dict(base.tools)
    record = tools["get_widget"]
    tools["get_widget"] = type(record)(record.tool, {**record.binding, "path": "/w/{widgetId}"})
    moved = CatalogView(base.label, base.name, base.digest, tools, base.meta)
    found = _found(diff_catalogs(base, moved).changes)
    assert found == {("get_widget", B, "binding-changed", "binding")}


@pytest.mark.parametrize(("mutation", "message"), [
    (lambda s, o: param(s, "limit").update({"in": "header"}),
     'list_widgets: argument `limit`: location "query" -> "header"'),
    (wire_rename, 'list_widgets: argument `limit`: wire name "limit" -> "max"'),
    (move_paths, 'get_widget: binding: path "/widgets/{widgetId}" -> "/items/{widgetId}"'),
    (vendor_body, 'create_widget: binding: requestContentType "application/json" -> '
                  '"application/vnd.widget+json"'),
], ids=["location", "wire name", "path", "request content type"])
def test_binding_messages_say_what_moved(tmp_path: Path, base: CatalogView,
                                         mutation: Mutation, message: str) -> None:
    spec, overrides = copy.deepcopy(SPEC), copy.deepcopy(OVERRIDES)
    mutation(spec, overrides)
    diff = diff_catalogs(base, build(tmp_path / "new", spec, overrides))
    messages = [c.message() for c in diff.changes]
    assert message in messages, messages
