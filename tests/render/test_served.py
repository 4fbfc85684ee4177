"""Each tool is serialised once per run, with the bytes serialising it whole gives (issue 25).

``CATALOG.md``'s sizes, ``catalog.json``'s digest and the catalog check share one
serialisation of the tools (render/served.py, render/size.py): a tool's compact JSON is
its members' JSON joined, the list's is its tools' joined. These tests hold the joined
bytes equal to ``dumps`` of the whole, on values where a hand-made join could go wrong.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from toolcat.catalog.format import tools_digest
from toolcat.jsonio import dumps
from toolcat.model.types import Catalog, Exclusion
from toolcat.render.catalog import catalog_data, checked_data, prepare_tools, render_catalog
from toolcat.render.served import served
from toolcat.render.size import list_json, list_size, tool_json, tool_size

_BIG = 2**64 - 1   # beyond orjson: jsonio writes it back as exact digits

TOOLS: list[dict[str, Any]] = [
    {"name": "plain", "description": "d", "inputSchema": {"type": "object"},
     "annotations": {"readOnlyHint": True}},
    {"name": "full", "title": "Ünïcode \"quoted\" \\ \u202e", "description": "line\nnext",
     "inputSchema": {"type": "object", "properties": {"z": {"maximum": _BIG}, "a": {}},
                     "additionalProperties": False},
     "outputSchema": {"type": "object", "properties": {"n": {"minimum": -_BIG - 1}}},
     "annotations": {"readOnlyHint": False, "openWorldHint": True}},
    {"name": "empty_text", "title": "", "description": "", "inputSchema": {},
     "outputSchema": {}, "annotations": {}},
]


@pytest.mark.parametrize("tool", TOOLS, ids=[str(t["name"]) for t in TOOLS])
def test_tool_json_is_the_whole_tools_json(tool: dict[str, Any]) -> None:
    data, size = tool_json(tool)
    assert data == dumps(tool, indent=False)
    texts = sum(len(dumps(tool[k], indent=False)) for k in ("title", "description") if k in tool)
    output = tool.get("outputSchema")
    assert (size.name, size.total, size.texts, size.inputs, size.outputs) == (
        tool["name"], len(data), texts, len(dumps(tool["inputSchema"], indent=False)),
        0 if output is None else len(dumps(output, indent=False)))


@pytest.mark.parametrize("count", [0, 1, 2, 3])
def test_list_json_and_size_are_the_whole_lists(count: int) -> None:
    tools = TOOLS[:count]
    assert list_json([tool_json(t)[0] for t in tools]) == dumps(tools, indent=False)
    size = list_size(tools)
    assert size.total == len(dumps({"tools": tools}, indent=False))
    assert size == list_size(tools, sizes=[tool_size(t) for t in tools])


def test_a_catalogs_tools_are_served_once_with_the_whole_digest(
        example_catalog: Catalog) -> None:
    tools = served(example_catalog.tools)
    mcp = [t.mcp_json() for t in example_catalog.tools]
    assert list(tools.mcp) == mcp
    assert tools.digest == tools_digest(mcp)
    assert served(example_catalog.tools) is tools
    assert tools.sizes == tuple(tool_size(m) for m in mcp)


def test_another_tuple_of_tools_is_served_afresh(example_catalog: Catalog) -> None:
    """Remembered by the identity of the tuple: fewer tools, another digest and list."""
    first = served(example_catalog.tools)
    fewer = replace(example_catalog, tools=example_catalog.tools[1:])
    again = served(fewer.tools)
    assert again.digest == tools_digest([t.mcp_json() for t in fewer.tools]) != first.digest
    assert catalog_data(fewer)["digest"] == again.digest
    assert len(catalog_data(fewer)["tools"]) == len(fewer.tools)


def test_catalog_data_is_the_callers_and_the_checks_entries_shared(
        example_catalog: Catalog) -> None:
    """catalog_data is built afresh for each caller (tests change it); the check and
    render_catalog share the entries prepare_tools made."""
    data = catalog_data(example_catalog)
    data["tools"][0]["tool"]["name"] = "changed"
    assert catalog_data(example_catalog)["tools"][0]["tool"]["name"] != "changed"
    prepare_tools(example_catalog)
    assert checked_data(example_catalog)["tools"] is checked_data(example_catalog)["tools"]
    assert checked_data(example_catalog) == catalog_data(example_catalog)


def _variants(catalog: Catalog) -> list[Catalog]:
    names = tuple(sorted(t.name for t in catalog.tools))
    return [catalog,
            replace(catalog, source=replace(catalog.source, verdict="invalid", problems=3)),
            replace(catalog, toolsets=(("all", names), ("one", names[:1]))),
            replace(catalog, tools=(), toolsets=(("none", ()),)),
            replace(catalog, tools=catalog.tools[:1],
                    exclusions=(Exclusion("GET /x", "a \"tools\": [] reason"),))]


def test_catalog_json_is_dumps_of_its_data(example_catalog: Catalog) -> None:
    """Joined from its members (the tools' rendered ahead of the verdict), the bytes
    dumps writes for the whole: with and without toolsets, no tools, an exclusion."""
    for catalog in _variants(example_catalog):
        expected = dumps(catalog_data(catalog))
        assert render_catalog(catalog) == expected
        prepare_tools(catalog)
        verdict = replace(catalog, source=replace(catalog.source, problems=7))
        assert render_catalog(verdict) == dumps(catalog_data(verdict))
