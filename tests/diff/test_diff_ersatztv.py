"""The diff on real pairs: ErsatzTV's v1 API in 3.0.1 and 3.1.1, and an unmerged 215-operation PR.

3.0.1 (``nullable: true``) and 3.1.1 (``type: [T, "null"]``) describe the same
API, so their catalogs must not differ in any tool. The PR renames operations,
moves a path, adds a required body field and narrows nullable strings through
``$ref``s to new definitions (``String``, ``Boolean``): the structural
comparison must see the narrowing and must not see the equal ones.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from toolcat.catalog.reader import CatalogView, parse_catalog
from toolcat.config import Target
from toolcat.diff.classify import CatalogDiff, Change, diff_catalogs
from toolcat.diff.report import render_markdown, render_text, shared, unshared
from toolcat.pipeline import build_catalog, spec_verdict
from toolcat.render.catalog import render_catalog

ERSATZTV = Path(__file__).resolve().parents[2].parent / "shared" / "specs" / "ersatztv"
V1_30, V1, PR = "v1-453737a5.json", "v1.json", "v1-pr2735-89e78ffe.json"


def catalog(name: str, *, trust: bool = False) -> CatalogView:
    spec = ERSATZTV / name
    if not spec.is_file():
        pytest.skip(f"shared test data absent: {spec}")
    # The PR's component names carry backticks (List`1), which OpenAPI 3.1's schema
    # forbids; its tools are still worth diffing, so its validation verdict is trusted.
    verdict = None
    if trust:
        verdict = spec_verdict(spec)
    target = Target(name="ersatztv", spec=spec, spec_label=name, output=spec.parent / "unused")
    return parse_catalog(render_catalog(build_catalog(target, verdict)), name)


@pytest.fixture(scope="module")
def v1() -> CatalogView:
    return catalog(V1)


@pytest.fixture(scope="module")
def pr() -> CatalogView:
    return catalog(PR, trust=True)


@pytest.fixture(scope="module")
def pr_diff(v1: CatalogView, pr: CatalogView) -> CatalogDiff:
    return diff_catalogs(v1, pr)


def changes(diff: CatalogDiff, tool: str) -> set[tuple[str, str, str, str]]:
    found = next(t for t in diff.tools if t.name == tool)
    return {(c.severity, c.kind, c.subject, c.detail) for c in found.changes}


def test_the_same_api_in_30_and_31_has_no_change(v1: CatalogView) -> None:
    old = catalog(V1_30)
    assert old.meta["source"]["openapi"] == "3.0.1"
    assert v1.meta["source"]["openapi"] == "3.1.1"
    assert old.tools == v1.tools, "the generator writes the same API differently"
    diff = diff_catalogs(old, v1)
    assert diff.tools == ()
    assert render_markdown([diff]) == ""
    assert render_text([diff]) == ""


def test_pr_tools_removed_are_named_with_their_new_names(pr_diff: CatalogDiff,
                                                         v1: CatalogView) -> None:
    removed = {t.name: t.changes[0] for t in pr_diff.tools if t.status == "removed"}
    assert set(removed) == {
        "get_channels", "get_maintenance_gc", "post_channels_by_channel_number_playout_reset",
        "post_libraries_by_id_scan", "post_libraries_by_id_scan_show",
        "post_maintenance_empty_trash"}
    assert all(c.breaking and c.kind == "tool-removed" for c in removed.values())
    renamed = {"get_channels": "get_all_channels", "post_libraries_by_id_scan": "scan_library",
               "post_channels_by_channel_number_playout_reset": "reset_channel_playout",
               "post_libraries_by_id_scan_show": "scan_show"}
    added = {t.name for t in pr_diff.tools if t.status == "added"}
    for old, new in renamed.items():
        assert old in v1.tools
        assert new in added
        assert f"its operation is now tool `{new}`" in removed[old].detail
    assert len(added) == 215 - (len(v1.tools) - len(removed))


# The PR's document declares a server where v1 declares none ('/'): every kept tool now sends
# its requests elsewhere, a binding change (catalog format 2 records servers).
SERVERS = ("breaking", "binding-changed", "binding",
           'servers [{"url":"/"}] -> [{"url":"http://localhost:8409/"}]')


def test_pr_changes_known_tools(pr_diff: CatalogDiff) -> None:
    resolution = changes(pr_diff, "get_resolution_by_name")
    assert ("breaking", "binding-changed", "binding",
            'path "/api/ffmpeg/resolution/by-name/{name}" -> '
            '"/api/resolutions/by-name/{name}"') in resolution
    assert ("breaking", "output-removed", "output",
            "outputSchema removed: callers get no structured result") in resolution
    update = changes(pr_diff, "update_ffmpeg_profile")
    assert ("breaking", "required-argument-added", "argument `targetLoudness`",
            "added as a required argument") in update
    # {"type": ["string", "null"]} -> {"$ref": "#/$defs/String"} where String is a string.
    assert ("breaking", "type-changed", "argument `name`",
            "type null|string -> string (narrowed)") in update
    # {"type": "boolean"} -> {"$ref": "#/$defs/Boolean"}: the same type, no change.
    assert not [c for c in update if "`allowBFrames`" in c[2]]
    version = changes(pr_diff, "get_version")
    assert version == {("compatible", "type-changed", "output property `appVersion`",
                        "type null|string -> string (narrowed)"), SERVERS}


def test_pr_equal_structure_behind_a_new_ref_is_no_change(
        pr_diff: CatalogDiff, v1: CatalogView, pr: CatalogView) -> None:
    # {"type": "string"} became {"$ref": "#/$defs/String"}: different JSON, same schema.
    tool = "delete_session_by_channel_number"
    assert v1.tools[tool] != pr.tools[tool]
    # minLength 1: an empty path value cannot be sent (issue 11), nor a dot segment
    # (issue 21), on both sides.
    assert pr.tools[tool].tool["inputSchema"]["properties"]["channelNumber"] == \
        {"$ref": "#/$defs/String", "minLength": 1, "not": {"enum": [".", ".."]}}
    assert changes(pr_diff, tool) == {SERVERS}
    changed = {t.name for t in pr_diff.tools if t.status == "changed"}
    assert changed <= set(v1.tools) & set(pr.tools)


def test_pr_markdown_report(pr_diff: CatalogDiff) -> None:
    text = render_markdown([pr_diff])
    assert text.startswith("### Catalog `ersatztv` (v1-pr2735-89e78ffe.json)\n")
    summary = text.splitlines()[2]
    assert summary == (
        f"**{pr_diff.breaking} breaking**, {pr_diff.compatible} compatible changes in "
        f"{len(pr_diff.tools)} tools: {pr_diff.status_count('added')} added, 6 removed, "
        f"{pr_diff.status_count('changed')} changed (18 → 215 tools).")
    assert "| `get_channels` | **breaking** | removed (its operation is now tool " \
        "`get_all_channels`: a rename breaks callers that use the old name) |" in text
    assert "| **breaking** | argument `targetLoudness` | added as a required argument |" \
        in text
    assert "| **breaking** | argument `name` | type null\\|string -> string (narrowed) |" \
        in text
    assert "| `get_all_channels` | compatible |" in text
    # One table per changed tool with changes of its own, one for the shared changes.
    groups = shared(pr_diff)
    assert text.count("| severity | what | change |\n") == len(unshared(pr_diff, groups))
    assert text.count("| severity | what | change | tools |\n") == (1 if groups else 0)


def _by_kind(diff: CatalogDiff) -> dict[str, list[Change]]:
    out: dict[str, list[Change]] = {}
    for change in diff.changes:
        out.setdefault(change.kind, []).append(change)
    return out


def test_pr_has_no_unclassified_change(pr_diff: CatalogDiff) -> None:
    kinds = _by_kind(pr_diff)
    unclassified = [c.message() for k in ("schema-changed", "tool-field-changed")
                    for c in kinds.get(k, [])]
    assert unclassified == []
