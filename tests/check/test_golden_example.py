"""The committed example output is exactly what the generator makes of the example spec.

The whole folder is compared byte for byte (missing and extra files too; its
record, .toolcat-inputs.json, is compared by `toolcat check`; here it only has to list
them), then a
few facts of the example catalog that the project exists for are pinned by name:
a change there must be a decision, not a side effect.
"""

from __future__ import annotations

import difflib
import hashlib
from typing import Any

import orjson
import pytest
from helpers.paths import EXAMPLE_OUTPUT
from toolcat.model.types import Catalog
from toolcat.output.files import Files, on_disk
from toolcat.render.catalog import catalog_data
from toolcat.vocab.files import RECORD_FILE

FIX = "run `make regen` and commit generated/broadcast together with the spec"

TOOL_NAMES = {
    "broadcast_add_collection_items",
    "broadcast_create_channel",
    "broadcast_create_collection",
    "broadcast_create_filler_preset",
    "broadcast_create_schedule",
    "broadcast_delete_channel",
    "broadcast_delete_schedule",
    "broadcast_get_channel",
    "broadcast_get_collection",
    "broadcast_get_playout_items",
    "broadcast_get_schedule",
    "broadcast_list_channels",
    "broadcast_list_playouts",
    "broadcast_list_schedules",
    "broadcast_patch_channel",
    "broadcast_remove_collection_item",
    "broadcast_reset_playout",
    "broadcast_set_channel_notes",
    "broadcast_update_channel",
    "broadcast_update_filler_preset",
    "broadcast_update_schedule",
}

# The seed's incident: the full-replace update must carry every field, including
# graphicsElementIds (which the create request lacks), and the ETag header.
UPDATE_CHANNEL_ARGUMENTS = {
    "channelId": ("path", "id"),
    "ifMatch": ("header", "If-Match"),
    **{field: ("body", field) for field in (
        "name", "number", "group", "categories", "streamingMode", "ffmpegProfileId",
        "watermarkId", "fallbackFillerId", "preferredAudioLanguageCode", "isEnabled",
        "showInEpg", "graphicsElementIds")},
}


def _short_diff(name: str, have: bytes, want: bytes) -> str:
    lines = difflib.unified_diff(have.decode("utf-8", "replace").splitlines(keepends=True),
                                 want.decode("utf-8", "replace").splitlines(keepends=True),
                                 f"generated/broadcast/{name} (committed)",
                                 f"generated/broadcast/{name} (generated now)", n=1)
    text = "".join(lines)
    return text if len(text) < 4000 else text[:4000] + "\n...(cut)\n"


def test_committed_output_matches_generator(example_files: Files) -> None:
    committed = on_disk(EXAMPLE_OUTPUT)
    committed.pop(RECORD_FILE, None)   # rendered from the run, not by render_files
    report = []
    for name in sorted(set(example_files) | set(committed)):
        want, have = example_files.get(name), committed.get(name)
        if have is None:
            report.append(f"missing from generated/broadcast: {name}")
        elif want is None:
            report.append(f"extra in generated/broadcast (the generator makes no such "
                          f"file): {name}")
        elif have != want:
            report.append(f"stale: {name}\n{_short_diff(name, have, want)}")
    assert not report, "generated/broadcast is stale:\n" + "\n".join(report) + f"\nfix: {FIX}"


def test_committed_record_lists_the_committed_files() -> None:
    """The folder's record is committed with it and lists every other file."""
    record = orjson.loads((EXAMPLE_OUTPUT / RECORD_FILE).read_bytes())
    committed = {name: "sha256:" + hashlib.sha256(data).hexdigest()
                 for name, data in on_disk(EXAMPLE_OUTPUT).items() if name != RECORD_FILE}
    assert record["outputs"] == committed, f"{RECORD_FILE} does not list the files: {FIX}"


@pytest.fixture(scope="module")
def tools(example_catalog: Catalog) -> dict[str, dict[str, Any]]:
    return {t["tool"]["name"]: t for t in catalog_data(example_catalog)["tools"]}


def _arguments(tool: dict[str, Any]) -> dict[str, tuple[str, str | None]]:
    return {name: (b["in"], b["name"]) for name, b in tool["binding"]["arguments"].items()}


def _properties(tool: dict[str, Any]) -> set[str]:
    return set(tool["tool"]["inputSchema"]["properties"])


def test_tool_names(tools: dict[str, dict[str, Any]]) -> None:
    assert set(tools) == TOOL_NAMES, (f"added: {sorted(set(tools) - TOOL_NAMES)}, "
                                      f"removed: {sorted(TOOL_NAMES - set(tools))}")


def test_update_channel_arguments(tools: dict[str, dict[str, Any]]) -> None:
    have = _arguments(tools["broadcast_update_channel"])
    missing = sorted(set(UPDATE_CHANNEL_ARGUMENTS) - set(have))
    extra = sorted(set(have) - set(UPDATE_CHANNEL_ARGUMENTS))
    assert not missing, f"broadcast_update_channel lost arguments {missing}"
    assert not extra, f"broadcast_update_channel gained arguments {extra}"
    assert have == UPDATE_CHANNEL_ARGUMENTS, "an argument moved to another location"
    assert _properties(tools["broadcast_update_channel"]) == set(UPDATE_CHANNEL_ARGUMENTS)


def test_graphics_elements_on_update_not_create(tools: dict[str, dict[str, Any]]) -> None:
    assert "graphicsElementIds" in _properties(tools["broadcast_update_channel"])
    assert "graphicsElementIds" not in _properties(tools["broadcast_create_channel"])
    assert "graphicsElementIds" not in _arguments(tools["broadcast_create_channel"])


@pytest.mark.parametrize("name", ["broadcast_create_schedule", "broadcast_update_schedule"])
def test_pad_to_nearest_minute_on_both_schedule_tools(
        tools: dict[str, dict[str, Any]], name: str) -> None:
    assert _arguments(tools[name]).get("padToNearestMinute") == (
        "body", "padToNearestMinute"), f"{name} lost padToNearestMinute"


@pytest.mark.parametrize("name", ["broadcast_list_channels", "broadcast_list_playouts"])
def test_list_tools_filter_and_page(tools: dict[str, dict[str, Any]], name: str) -> None:
    arguments = _arguments(tools[name])
    for query in ("query", "pageNumber", "pageSize"):
        assert arguments.get(query) == ("query", query), f"{name} lost query '{query}'"


def test_show_filler_on_playout_items(tools: dict[str, dict[str, Any]]) -> None:
    assert _arguments(tools["broadcast_get_playout_items"]).get("showFiller") == (
        "query", "showFiller"), "broadcast_get_playout_items lost query 'showFiller'"


def test_if_match_is_the_header(tools: dict[str, dict[str, Any]]) -> None:
    carriers = {name for name, tool in tools.items() if "ifMatch" in _arguments(tool)}
    assert carriers == {"broadcast_update_channel", "broadcast_patch_channel",
                        "broadcast_update_schedule", "broadcast_update_filler_preset"}
    for name in carriers:
        assert _arguments(tools[name])["ifMatch"] == ("header", "If-Match"), name
    assert "ifMatch" not in _arguments(tools["broadcast_create_channel"])
