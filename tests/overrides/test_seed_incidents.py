"""The seed's two incidents, generated and asserted field by field, with mutations."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
from toolcat.errors import ToolcatError

from overrides.seed import SEED_OVERRIDES, body_parity, generate, seed_spec, tools_by_name

TOOL_FOR = {"createChannel": "seed_create_channel", "updateChannel": "seed_update_channel",
            "createSchedule": "seed_create_schedule", "updateSchedule": "seed_update_schedule"}


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return generate(tmp_path_factory.mktemp("seed"), seed_spec(), SEED_OVERRIDES)


def test_parity_holds(catalog: dict[str, Any]) -> None:
    assert body_parity(seed_spec(), catalog, TOOL_FOR) == []


def test_update_channel_has_the_field_create_lacks(catalog: dict[str, Any]) -> None:
    tools = tools_by_name(catalog)
    update = tools["seed_update_channel"]["tool"]["inputSchema"]
    create = tools["seed_create_channel"]["tool"]["inputSchema"]
    assert set(update["properties"]) == {"channelId", "ifMatch", "name", "number",
                                         "streamingMode", "watermarkId", "graphicsElementIds"}
    assert set(create["properties"]) == {"name", "number", "streamingMode", "watermarkId"}
    # full replace: every field required, the nullable one may be null
    assert update["required"] == sorted(update["properties"])
    assert update["properties"]["watermarkId"]["type"] == ["integer", "null"]
    assert update["properties"]["graphicsElementIds"] == {"type": "array",
                                                          "items": {"type": "integer"}}
    assert create["required"] == ["name", "number"]


def test_update_channel_binding(catalog: dict[str, Any]) -> None:
    entry = tools_by_name(catalog)["seed_update_channel"]
    args = entry["binding"]["arguments"]
    assert args["channelId"] == {"in": "path", "name": "id", "style": "simple",
                                 "explode": False}
    assert args["ifMatch"]["in"] == "header"
    assert args["ifMatch"]["name"] == "If-Match"
    assert args["graphicsElementIds"] == {"in": "body", "name": "graphicsElementIds"}
    assert entry["binding"]["semantics"] == "full-replace"
    assert "a field you leave out is cleared" in entry["tool"]["description"]
    assert entry["tool"]["annotations"]["destructiveHint"] is True


def test_pad_to_nearest_minute_on_both_schedule_tools(catalog: dict[str, Any]) -> None:
    tools = tools_by_name(catalog)
    for name in ("seed_create_schedule", "seed_update_schedule"):
        props = tools[name]["tool"]["inputSchema"]["properties"]
        assert props["padToNearestMinute"] == {"type": ["integer", "null"]}, name
    update = tools["seed_update_schedule"]["tool"]["inputSchema"]
    assert "padToNearestMinute" in update["required"]
    assert "ifMatch" in update["properties"]   # added by the override: spec has none
    assert "ifMatch" not in update["required"]
    assert tools["seed_update_schedule"]["binding"]["arguments"]["ifMatch"]["name"] == \
        "If-Match"


# -- mutations: each must turn a guard red, naming the field ------------------

def test_parity_names_a_dropped_field(catalog: dict[str, Any]) -> None:
    broken = copy.deepcopy(catalog)
    entry = tools_by_name(broken)["seed_update_channel"]
    del entry["tool"]["inputSchema"]["properties"]["graphicsElementIds"]
    del entry["binding"]["arguments"]["graphicsElementIds"]
    assert body_parity(seed_spec(), broken, TOOL_FOR) == [
        "seed_update_channel: body field 'graphicsElementIds' is not an argument"]


def test_parity_names_a_retyped_field(catalog: dict[str, Any]) -> None:
    broken = copy.deepcopy(catalog)
    props = tools_by_name(broken)["seed_update_schedule"]["tool"]["inputSchema"]["properties"]
    props["padToNearestMinute"] = {"type": "string"}
    assert body_parity(seed_spec(), broken, TOOL_FOR) == [
        "seed_update_schedule: field 'padToNearestMinute' is string, spec says integer?"]


def test_parity_names_a_drifted_array_element(catalog: dict[str, Any]) -> None:
    broken = copy.deepcopy(catalog)
    props = tools_by_name(broken)["seed_update_channel"]["tool"]["inputSchema"]["properties"]
    props["graphicsElementIds"] = {"type": "array", "items": {"type": "string"}}
    assert body_parity(seed_spec(), broken, TOOL_FOR) == [
        "seed_update_channel: field 'graphicsElementIds' is array<string>, "
        "spec says array<integer>"]


def test_dropping_if_match_is_seen(tmp_path: Path) -> None:
    overrides = SEED_OVERRIDES.replace("    if_match: required\n", "")
    spec = seed_spec()
    spec["paths"]["/channels/{id}"]["put"]["parameters"].pop()   # the spec loses If-Match
    catalog = generate(tmp_path, spec, overrides)
    props = tools_by_name(catalog)["seed_update_channel"]["tool"]["inputSchema"]["properties"]
    assert "ifMatch" not in props
    with pytest.raises(AssertionError, match="ifMatch"):
        assert_if_match(catalog, "seed_update_channel")


def assert_if_match(catalog: dict[str, Any], tool: str) -> None:
    entry = tools_by_name(catalog)[tool]
    assert "ifMatch" in entry["tool"]["inputSchema"]["properties"], f"{tool}: ifMatch missing"
    assert entry["binding"]["arguments"]["ifMatch"]["name"] == "If-Match"


def test_if_match_guard_passes_on_the_real_catalog(catalog: dict[str, Any]) -> None:
    assert_if_match(catalog, "seed_update_channel")
    assert_if_match(catalog, "seed_update_schedule")


SPLIT = """\
operations:
  updateChannel:
    omit: {watermarkId: "managed by the watermark tools"}
    split:
      - name: seed_rename_channel
        fields: [name, number]
      - name: seed_restyle_channel
        fields: [streamingMode, graphicsElementIds]
"""


def test_split_assigns_fields(tmp_path: Path) -> None:
    catalog = generate(tmp_path, seed_spec(), SPLIT)
    tools = tools_by_name(catalog)
    rename = tools["seed_rename_channel"]
    assert set(rename["tool"]["inputSchema"]["properties"]) == {"id", "ifMatch", "name",
                                                                "number"}
    restyle = tools["seed_restyle_channel"]["tool"]["inputSchema"]
    assert set(restyle["properties"]) == {"id", "ifMatch", "streamingMode",
                                          "graphicsElementIds"}
    assert set(restyle["$defs"]) == {"StreamingMode"}
    assert "$defs" not in rename["tool"]["inputSchema"]   # pruned with the field
    assert rename["binding"]["omittedFields"] == {"watermarkId": "managed by the watermark tools"}
    assert "seed_update_channel" not in tools


def test_split_losing_a_field_names_it(tmp_path: Path) -> None:
    broken = SPLIT.replace("[streamingMode, graphicsElementIds]", "[streamingMode]")
    with pytest.raises(ToolcatError) as err:
        generate(tmp_path, seed_spec(), broken)
    text = err.value.render()
    assert "body field 'graphicsElementIds' of PUT /channels/{id} is on no tool" in text
    assert "line 4" in text   # the split: key


def test_spec_gaining_an_unassigned_field_fails(tmp_path: Path) -> None:
    spec = seed_spec()
    spec["components"]["schemas"]["UpdateChannelRequest"]["properties"]["logoPath"] = {
        "type": "string"}
    with pytest.raises(ToolcatError, match=re.escape(
            "body field 'logoPath' of PUT /channels/{id} is on no tool and not omitted")):
        generate(tmp_path, spec, SPLIT)


def test_without_split_a_new_field_reaches_the_tool(tmp_path: Path) -> None:
    spec = seed_spec()
    spec["components"]["schemas"]["UpdateChannelRequest"]["properties"]["logoPath"] = {
        "type": "string"}
    catalog = generate(tmp_path, spec, SEED_OVERRIDES)
    update = tools_by_name(catalog)["seed_update_channel"]["tool"]["inputSchema"]
    assert "logoPath" in update["required"]   # full replace: must be stated
