"""Every override feature, exercised on the example API's committed catalog."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "generated" / "broadcast" / "catalog.json"

# Pinned by name: a tool that stops being a write, or a new write tool, changes
# this list instead of silently leaving the loops below.
WRITE_TOOLS = {
    "broadcast_add_collection_items": "POST",
    "broadcast_create_channel": "POST",
    "broadcast_create_collection": "POST",
    "broadcast_create_filler_preset": "PUT",
    "broadcast_create_schedule": "POST",
    "broadcast_patch_channel": "PATCH",
    "broadcast_reset_playout": "POST",
    "broadcast_set_channel_notes": "PUT",
    "broadcast_update_channel": "PUT",
    "broadcast_update_filler_preset": "PUT",
    "broadcast_update_schedule": "PUT",
}
SEMANTICS = {
    "broadcast_update_channel": "full-replace",
    "broadcast_update_schedule": "full-replace",
    "broadcast_update_filler_preset": "full-replace",
    "broadcast_set_channel_notes": "full-replace",
    "broadcast_patch_channel": "merge",
    "broadcast_add_collection_items": "additive",
}


@pytest.fixture(scope="module")
def tools() -> dict[str, dict[str, Any]]:
    data = json.loads(CATALOG.read_text())
    return {e["tool"]["name"]: e for e in data["tools"]}


def test_write_tools_pinned_by_name(tools: dict[str, dict[str, Any]]) -> None:
    writes = {name: e["binding"]["method"] for name, e in tools.items()
              if e["binding"]["method"] in ("POST", "PUT", "PATCH")}
    assert writes == WRITE_TOOLS


def test_semantics_sentence_annotations(tools: dict[str, dict[str, Any]]) -> None:
    for name in WRITE_TOOLS:
        entry = tools[name]
        want = SEMANTICS.get(name)
        assert entry["binding"]["semantics"] == want, name
        text = entry["tool"]["description"]
        sentences = [s for s in ("full replace.", "merge.", "additive.")
                     if f"Write semantics: {s}" in text]
        assert sentences == ([want.replace("-", " ") + "."] if want else []), name
        if want == "full-replace":
            assert entry["tool"]["annotations"]["destructiveHint"] is True, name
            body = [a for a, b in entry["binding"]["arguments"].items() if b["in"] == "body"]
            assert set(body) <= set(entry["tool"]["inputSchema"]["required"]), name
        if want in ("merge", "additive"):
            assert entry["tool"]["annotations"]["destructiveHint"] is False, name


def test_path_parameter_renamed_wire_name_kept(tools: dict[str, dict[str, Any]]) -> None:
    for name in ("broadcast_get_channel", "broadcast_update_channel", "broadcast_patch_channel",
                 "broadcast_delete_channel", "broadcast_set_channel_notes"):
        entry = tools[name]
        props = entry["tool"]["inputSchema"]["properties"]
        assert "id" not in props, name
        assert props["channelId"]["description"].startswith("Identifier of the channel"), name
        assert entry["binding"]["arguments"]["channelId"]["in"] == "path"
        assert entry["binding"]["arguments"]["channelId"]["name"] == "id"


def test_if_match(tools: dict[str, dict[str, Any]]) -> None:
    required = {"broadcast_update_channel": True, "broadcast_patch_channel": False,
                "broadcast_update_schedule": False, "broadcast_update_filler_preset": False}
    for name, entry in tools.items():
        schema = entry["tool"]["inputSchema"]
        has = "ifMatch" in schema["properties"]
        assert has == (name in required), name
        if has:
            assert entry["binding"]["arguments"]["ifMatch"] == {
                "in": "header", "name": "If-Match", "style": "simple", "explode": False}
            assert ("ifMatch" in schema.get("required", [])) == required[name], name


def test_etag_stated_where_the_response_has_one(tools: dict[str, dict[str, Any]]) -> None:
    stated = {n for n, e in tools.items() if "ETag header" in e["tool"]["description"]}
    flagged = {n for n, e in tools.items() if e["binding"]["responseETag"]}
    assert stated == flagged == {"broadcast_get_channel", "broadcast_update_channel",
                                 "broadcast_patch_channel", "broadcast_get_schedule",
                                 "broadcast_update_schedule"}


def test_upsert_split(tools: dict[str, dict[str, Any]]) -> None:
    create = tools["broadcast_create_filler_preset"]
    update = tools["broadcast_update_filler_preset"]
    assert set(create["tool"]["inputSchema"]["properties"]) == {
        "presetId", "name", "mode", "collectionId", "durationMinutes", "count"}
    assert set(update["tool"]["inputSchema"]["properties"]) == {
        "presetId", "name", "mode", "collectionId", "durationMinutes", "count",
        "allowWatermarks", "ifMatch"}
    for entry in (create, update):
        assert entry["binding"]["omittedFields"] == {
            "legacyPadMode": "deprecated; the server ignores it"}
        assert entry["binding"]["operationId"] == "upsertFillerPreset"
    assert create["tool"]["title"] == "Create a filler preset"
    assert create["tool"]["annotations"]["destructiveHint"] is False


def test_exclusion_listed(tools: dict[str, dict[str, Any]]) -> None:
    data = json.loads(CATALOG.read_text())
    assert data["exclusions"] == [{
        "operation": "GET /health",
        "reason": "liveness probe for load balancers; nothing for an agent to do with it"}]
    assert all(e["binding"]["path"] != "/health" for e in tools.values())


def test_append_description_and_annotations(tools: dict[str, dict[str, Any]]) -> None:
    reset = tools["broadcast_reset_playout"]["tool"]
    assert reset["description"].endswith("discarded and built again.")
    assert reset["annotations"]["destructiveHint"] is True
    assert reset["annotations"]["idempotentHint"] is True


def test_renamed_whole_body(tools: dict[str, dict[str, Any]]) -> None:
    notes = tools["broadcast_set_channel_notes"]
    assert notes["binding"]["arguments"]["notes"] == {"in": "body", "name": None}
    assert notes["tool"]["inputSchema"]["properties"]["notes"]["type"] == "string"
