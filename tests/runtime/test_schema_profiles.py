"""Client schema profiles (`toolcat serve --schema-profile gemini`, issue 23): a view of each
inputSchema without what the client rejects ($ref, $defs, oneOf, const, type lists...),
never narrower than the exact schema (instances drawn from the exact schema all pass the
view), while the server still validates every call against the exact schema."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from helpers.draw import draw_arguments
from helpers.fixtures import real_catalog
from helpers.paths import EXAMPLE_OUTPUT
from jsonschema import Draft202012Validator
from mcp import Client
from toolcat.runtime.embed import build_server, open_catalog
from toolcat.runtime.profiles import _KEEP, profile_schema

SHOWN = _KEEP["gemini"] | {"anyOf"}
RECURSIVE: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["node", "mode"],
    "properties": {
        "node": {"$ref": "#/$defs/Node"},
        "mode": {"const": "fast"},
        "size": {"type": ["integer", "null"], "exclusiveMinimum": 0},
        "pick": {"oneOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}]},
        "both": {"allOf": [{"type": "object", "required": ["a"]},
                           {"properties": {"a": {"type": "string"}}}]},
        "never": False},
    "$defs": {"Node": {"type": "object", "properties": {
        "name": {"type": "string", "pattern": "^[a-z]+$"},
        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}}}}}


def _keywords(node: Any, inside_properties: bool = False) -> set[str]:
    if isinstance(node, list):
        return {k for v in node for k in _keywords(v)}
    if not isinstance(node, dict):
        return set()
    found = set() if inside_properties else set(node)
    for key, value in node.items():
        if key == "properties" and not inside_properties:
            found |= {k for v in value.values() for k in _keywords(v)}
        elif key not in {"enum", "default"}:
            found |= _keywords(value, False)
    return found


def _never_narrower(schema: dict[str, Any], draws: int) -> None:
    view = profile_schema(schema, "gemini")
    assert _keywords(view) <= SHOWN, sorted(_keywords(view) - SHOWN)
    checker = Draft202012Validator(view)
    for instance in draw_arguments(schema, draws):
        assert checker.is_valid(instance), (instance, list(checker.iter_errors(instance))[:1])


def test_recursive_fixture_view() -> None:
    view = profile_schema(RECURSIVE, "gemini")
    props = view["properties"]
    assert props["mode"] == {"enum": ["fast"]}
    assert props["size"] == {"anyOf": [{"type": "integer"}, {"type": "null"}], "minimum": 0}
    assert props["pick"]["anyOf"][0] == {"type": "string", "maxLength": 3}
    assert props["never"] == {}
    # Inlined three levels deep, then open.
    depth, node = 0, props["node"]
    while node:
        node, depth = node["properties"]["children"]["items"], depth + 1
    assert depth == 3
    # Drawn without "never" (false: the every-property draw could not fill it).
    drawable = {**RECURSIVE, "properties": {k: v for k, v in RECURSIVE["properties"].items()
                                            if k != "never"}}
    _never_narrower(drawable, 10)


@pytest.mark.parametrize("source", ["example", "kratos"])
def test_every_tool_view_is_never_narrower(source: str) -> None:
    catalog = (open_catalog(EXAMPLE_OUTPUT) if source == "example"
               else real_catalog("corpus", "kratos", "api.json"))
    for entry in catalog["tools"]:
        _never_narrower(entry["tool"]["inputSchema"], 2)


def test_server_shows_the_view_and_validates_the_exact_schema() -> None:
    catalog = open_catalog(EXAMPLE_OUTPUT)
    name = "broadcast_list_channels"
    exact = next(e["tool"] for e in catalog["tools"] if e["tool"]["name"] == name)

    async def run() -> tuple[Any, Any, Any]:
        async with Client(build_server(catalog, schema_profile="gemini"),
                          mode="legacy") as client:
            listed = await client.list_tools()
            # The view drops additionalProperties: false; the server does not.
            extra = await client.call_tool(name, {"pageSize": 5, "colour": "red"})
        async with Client(build_server(catalog, schema_profile="gemini", mode="discover"),
                          mode="legacy") as client:
            described = await client.call_tool("describe_tools", {"names": [name]})
        return listed, extra, described

    listed, extra, described = anyio.run(run)
    shown = next(t for t in listed.tools if t.name == name).input_schema
    assert shown == profile_schema(exact["inputSchema"], "gemini")
    assert "additionalProperties" not in shown
    assert Draft202012Validator(shown).is_valid({"pageSize": 5, "colour": "red"})
    assert extra.is_error
    assert "colour: not an argument of this tool" in extra.content[0].text
    assert "nothing was sent" in extra.content[0].text
    assert described.structured_content["tools"][0]["inputSchema"] == shown
