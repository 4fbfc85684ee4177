"""Tool names become Python names in models.py: predictable, and never silently merged.

``-`` becomes ``_`` and a keyword gets a trailing ``_``; two tools that would
share a Python name are an error naming both; an empty catalog still renders.
"""

from __future__ import annotations

import dataclasses

import pytest
from toolcat.errors import ToolcatError
from toolcat.model.types import Catalog
from toolcat.models.render import render_models


def _lines(data: bytes, marker: str) -> list[str]:
    return [line.strip() for line in data.decode().splitlines() if marker in line]


def test_hyphens_and_keywords(example_catalog: Catalog) -> None:
    tools = (dataclasses.replace(example_catalog.tools[0], name="get-thing"),
             dataclasses.replace(example_catalog.tools[1], name="class"))
    data = render_models(dataclasses.replace(example_catalog, tools=tools))
    assert _lines(data, "async def") == [
        "async def get_thing(self, arguments: GetThingInput) -> GetThingOutput:",
        "async def class_(self, arguments: ClassInput) -> ClassOutput:"]
    assert _lines(data, ": TypedTool(") == [
        '"get-thing": TypedTool(GetThingInput, GetThingOutput, "get_thing"),',
        '"class": TypedTool(ClassInput, ClassOutput, "class_"),']


def test_two_tools_one_python_name_is_an_error(example_catalog: Catalog) -> None:
    tools = (dataclasses.replace(example_catalog.tools[0], name="get-thing"),
             dataclasses.replace(example_catalog.tools[1], name="get_thing"))
    with pytest.raises(ToolcatError, match="'get-thing' and 'get_thing' both become"):
        render_models(dataclasses.replace(example_catalog, tools=tools))


def test_an_empty_catalog_renders(example_catalog: Catalog) -> None:
    data = render_models(dataclasses.replace(example_catalog, tools=()))
    assert b"TYPED_TOOLS: _typing.Final[dict[str, TypedTool]] = {}" in data
    compile(data, "models.py", "exec")
