"""Shared definitions are emitted once; one name for two definitions splits by content.

Two tools reaching the same ``Size`` share one class. When the input variant of
``Widget`` (readOnly ``id`` left out) differs from the output variant, each
class is ``Widget`` plus six hex digits of what it reaches: derived from
content, so adding or reordering tools renames nothing.
"""

from __future__ import annotations

import dataclasses
import re

from toolcat.model.types import Catalog, Source, Tool
from toolcat.models.document import models_document

SIZE = {"type": "string", "enum": ["S", "M"]}
WIDGET_OUT = {"type": "object", "properties": {"id": {"type": "integer"},
                                                "size": {"$ref": "#/$defs/Size"}}}
WIDGET_IN = {"type": "object", "properties": {"size": {"$ref": "#/$defs/Size"}}}


def _tool(name: str, input_defs: dict[str, object], output_defs: dict[str, object] | None,
          template: Tool) -> Tool:
    schema = {"type": "object", "properties": {"w": {"$ref": "#/$defs/Widget"}},
              "additionalProperties": False, "$defs": input_defs}
    output = None if output_defs is None else {
        "type": "object", "properties": {"w": {"$ref": "#/$defs/Widget"}}, "$defs": output_defs}
    return dataclasses.replace(template, name=name, input_schema=schema, output_schema=output)


def _catalog(example_catalog: Catalog, order: int = 1) -> Catalog:
    template = example_catalog.tools[0]
    tools = [
        _tool("put_widget", {"Widget": WIDGET_IN, "Size": SIZE},
              {"Widget": WIDGET_OUT, "Size": SIZE}, template),
        _tool("get_widget", {"Widget": WIDGET_IN, "Size": SIZE},
              {"Widget": WIDGET_OUT, "Size": SIZE}, template),
    ][::order]
    return Catalog("w", Source("s", "sha", "3.1.0", "v"), tuple(tools))


def test_same_definition_once_different_ones_by_digest(example_catalog: Catalog) -> None:
    document = models_document(_catalog(example_catalog))
    names = sorted(document.schema["$defs"])
    widgets = [n for n in names if n.startswith("Widget")]
    assert "Size" in names
    assert len(widgets) == 2
    assert all(re.fullmatch(r"Widget[0-9A-F]{6}", n) for n in widgets), widgets
    assert names == sorted(["GetWidgetInput", "GetWidgetOutput", "PutWidgetInput",
                            "PutWidgetOutput", "Size", *widgets])
    refs = {document.schema["$defs"][c]["properties"]["w"]["$ref"]
            for c in ("GetWidgetInput", "PutWidgetInput")}
    assert len(refs) == 1, "both inputs reach the same input Widget"


def test_names_do_not_depend_on_tool_order(example_catalog: Catalog) -> None:
    forward = models_document(_catalog(example_catalog, 1))
    backward = models_document(_catalog(example_catalog, -1))
    assert forward.schema == backward.schema


def test_a_definition_named_like_a_tool_model_is_renamed(example_catalog: Catalog) -> None:
    template = example_catalog.tools[0]
    tool = dataclasses.replace(template, name="get_widget", output_schema=None, input_schema={
        "type": "object", "properties": {"x": {"$ref": "#/$defs/GetWidgetInput"}},
        "$defs": {"GetWidgetInput": SIZE}})
    document = models_document(Catalog("w", Source("s", "sha", "3.1.0", "v"), (tool,)))
    names = sorted(document.schema["$defs"])
    assert names[0] == "GetWidgetInput"
    assert re.fullmatch(r"GetWidgetInput[0-9A-F]{6}", names[1]), names
