"""Every kind of parity mismatch, one mutation of a faithful tool list each (pure functions).

The live drift table covers the incident's six; this covers the rest of what the
guard compares: required set, enums, additionalProperties, annotations (with the
protocol's defaults), outputSchema presence, extra arguments, and which missing
arguments are critical (body fields of full-replace tools only).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from helpers.verify_run import CATALOG
from toolcat.verify.names import NameMap
from toolcat.verify.parity import compare_tools

ENTRIES: list[dict[str, Any]] = json.loads(CATALOG.read_text())["tools"]
Tools = dict[str, dict[str, Any]]


def _findings(mutate: Callable[[Tools], None]) -> set[tuple[str, str, str, str]]:
    server = {e["tool"]["name"]: copy.deepcopy(e["tool"]) for e in ENTRIES}
    mutate(server)
    listed = list(server.values())
    listed += [copy.deepcopy(t) for t in listed if t.get("_listTwice")]
    found = compare_tools(ENTRIES, listed, NameMap())
    return {(f.severity, f.tool, f.kind, f.argument) for f in found}


def _props(tools: Tools, tool: str) -> dict[str, Any]:
    return tools[f"broadcast_{tool}"]["inputSchema"]["properties"]  # type: ignore[no-any-return]


def _schema(tools: Tools, tool: str) -> dict[str, Any]:
    return tools[f"broadcast_{tool}"]["inputSchema"]  # type: ignore[no-any-return]


CASES: dict[str, tuple[Callable[[Tools], None], set[tuple[str, str, str, str]]]] = {
    "required-dropped": (
        lambda t: _schema(t, "update_channel")["required"].remove("name"),
        {("error", "broadcast_update_channel", "required", "name")}),
    "required-added": (
        lambda t: _schema(t, "list_channels").__setitem__("required", ["query"]),
        {("error", "broadcast_list_channels", "required", "query")}),
    "enum-narrowed": (
        lambda t: _schema(t, "update_filler_preset")["properties"]["mode"].__setitem__(
            "enum", ["Duration"]),
        {("error", "broadcast_update_filler_preset", "enum", "mode")}),
    "additional-properties-open": (
        lambda t: _schema(t, "get_channel").pop("additionalProperties"),
        {("error", "broadcast_get_channel", "additional-properties", "")}),
    "annotation-dropped-to-default": (
        lambda t: t["broadcast_get_channel"]["annotations"].pop("readOnlyHint"),
        {("error", "broadcast_get_channel", "annotation", "readOnlyHint")}),
    "annotation-absent-equals-default": (
        lambda t: t["broadcast_delete_channel"]["annotations"].pop("destructiveHint"),
        set()),
    "output-schema-dropped": (
        lambda t: t["broadcast_get_channel"].pop("outputSchema"),
        {("error", "broadcast_get_channel", "output-schema", "")}),
    "extra-argument": (
        lambda t: _props(t, "get_channel").__setitem__("verbose", {"type": "boolean"}),
        {("error", "broadcast_get_channel", "extra-argument", "verbose")}),
    "path-argument-missing": (
        lambda t: (_props(t, "get_channel").pop("channelId"),
                   _schema(t, "get_channel")["required"].remove("channelId")),
        {("error", "broadcast_get_channel", "missing-argument", "channelId")}),
    "merge-body-field-missing-is-not-critical": (
        lambda t: _props(t, "patch_channel").pop("graphicsElementIds"),
        {("error", "broadcast_patch_channel", "missing-argument", "graphicsElementIds")}),
    "full-replace-header-missing-is-not-critical": (
        lambda t: _props(t, "update_channel").pop("ifMatch"),
        {("error", "broadcast_update_channel", "missing-argument", "ifMatch")}),
    "listed-twice": (
        lambda t: t["broadcast_get_channel"].__setitem__("_listTwice", True),
        {("error", "broadcast_get_channel", "duplicate-tool", "")}),
    "input-root-not-object": (
        lambda t: _schema(t, "get_channel").__setitem__("type", "array"),
        {("error", "broadcast_get_channel", "input-root", "")}),
    "integer-became-number": (
        lambda t: _props(t, "list_channels")["pageSize"].__setitem__("type", "number"),
        {("error", "broadcast_list_channels", "type", "pageSize")}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_kind(case: str) -> None:
    mutate, expected = CASES[case]
    assert _findings(mutate) == expected


def test_faithful_copy_has_no_finding() -> None:
    assert _findings(lambda t: None) == set()


def test_catalog_shapes_the_cases_rely_on() -> None:
    """The cases above assume these facts of the example catalog; pin them."""
    by_name = {e["tool"]["name"]: e for e in ENTRIES}
    assert by_name["broadcast_update_channel"]["binding"]["semantics"] == "full-replace"
    assert by_name["broadcast_patch_channel"]["binding"]["semantics"] == "merge"
    arguments = by_name["broadcast_update_channel"]["binding"]["arguments"]
    assert arguments["ifMatch"]["in"] == "header"
