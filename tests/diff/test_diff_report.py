"""The reports: Markdown for a pull request (pinned byte for byte), and check's stale summary."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from test_diff_classify import OVERRIDES, SPEC, build, op, rename_operation, schema
from toolcat.catalog.reader import CatalogView
from toolcat.diff.classify import CatalogDiff, diff_catalogs
from toolcat.diff.report import render_markdown, render_text, stale_summary

EXPECTED_MARKDOWN = """\
### Catalog `widgets` (generated/widgets/catalog.json)

**4 breaking**, 7 compatible changes in 6 tools: 1 added, 1 removed, 4 changed (5 → 5 tools).

#### Removed tools

| tool | severity | change |
|---|---|---|
| `delete_widget` | **breaking** | removed (its operation is now tool `remove_widget`: a rename \
breaks callers that use the old name) |

#### Changes made to several tools

| severity | what | change | tools |
|---|---|---|---|
| **breaking** | argument `colour` | enum value "blue" removed | 3: `create_widget`, \
`list_widgets`, `update_widget` |
| compatible | output property `colour` | enum value "blue" removed | 3: `create_widget`, \
`get_widget`, `update_widget` |

#### `get_widget`: 0 breaking, 2 compatible (besides the shared changes)

| severity | what | change |
|---|---|---|
| compatible | tool | title changed: "Get a widget" -> "Get a widget \\| by id" |
| compatible | tool | description changed |

#### `list_widgets`: 0 breaking, 1 compatible (besides the shared changes)

| severity | what | change |
|---|---|---|
| compatible | output property `result[].colour` | enum value "blue" removed |

#### Added tools

| tool | severity |
|---|---|
| `remove_widget` | compatible |
"""


@pytest.fixture(scope="module")
def sides(tmp_path_factory: pytest.TempPathFactory) -> tuple[CatalogView, CatalogView]:
    folder = tmp_path_factory.mktemp("report")
    spec = copy.deepcopy(SPEC)
    rename_operation(spec, OVERRIDES)
    schema(spec, "Colour")["enum"] = ["red", "green"]
    op(spec, "/widgets/{widgetId}", "get")["summary"] = "Get a widget | by id"
    return build(folder / "old", SPEC, OVERRIDES), build(folder / "new", spec, OVERRIDES)


@pytest.fixture(scope="module")
def diff(sides: tuple[CatalogView, CatalogView]) -> CatalogDiff:
    return diff_catalogs(*sides, label="generated/widgets/catalog.json")


def test_markdown_report_bytes(diff: CatalogDiff) -> None:
    assert render_markdown([diff]) == EXPECTED_MARKDOWN


def test_markdown_for_several_catalogs_leads_with_the_total(diff: CatalogDiff) -> None:
    empty = CatalogDiff("generated/other/catalog.json", "other", 3, 3, ())
    text = render_markdown([diff, empty, diff])
    assert text.startswith("**toolcat diff**: 8 breaking, 14 compatible changes in "
                           "2 catalogs.\n\n### Catalog `widgets`")
    assert "other" not in text          # an unchanged catalog is not mentioned


def test_text_report_lines(diff: CatalogDiff) -> None:
    lines = render_text([diff]).splitlines()
    assert lines[0] == ("widgets (generated/widgets/catalog.json): 4 breaking, 7 compatible "
                        "changes in 6 tools (1 added, 1 removed, 4 changed); 5 -> 5 tools")
    assert lines[1].startswith("  - delete_widget  BREAKING    removed (its operation")
    assert lines[-1] == "  + remove_widget  compatible  added"
    # The same change to three tools is one line naming them (a reviewer reads it once).
    assert lines[2:4] == ["  * 3 tools  BREAKING    argument `colour`: enum value \"blue\" removed",
                          "      in create_widget, list_widgets, update_widget"]
    assert "  ~ create_widget" not in "\n".join(lines)   # nothing of its own left
    coloured = render_text([diff], colour=True)
    assert "\x1b[31m\x1b[1mBREAKING  \x1b[0m" in coloured
    assert "\x1b[" not in render_text([diff])


def _bytes(view: CatalogView) -> bytes:
    doc = {**view.meta, "tools": [{"tool": r.tool, "binding": r.binding}
                                  for r in view.tools.values()]}
    return json.dumps(doc).encode()


def test_stale_summary_names_the_tools(sides: tuple[CatalogView, CatalogView]) -> None:
    old, new = map(_bytes, sides)
    text = stale_summary(old, new)
    lines = text.splitlines()
    assert lines[0] == ("  tools: 4 breaking, 7 compatible changes in 6 tools (1 added, "
                        "1 removed, 4 changed); 5 -> 5 tools")
    assert lines[1].startswith("    - delete_widget  BREAKING    removed")
    assert text.endswith("\n")


def test_stale_summary_edge_cases(sides: tuple[CatalogView, CatalogView],
                                  tmp_path: Path) -> None:
    old, new = map(_bytes, sides)
    assert stale_summary(new, new) == ""
    assert stale_summary(None, new) == "  catalog.json is missing: all 5 tools would be added\n"
    assert stale_summary(b"{oops", new).startswith(
        "  catalog.json on disk is not a readable catalog (not valid JSON")
    moved = json.loads(old)
    moved["source"] = {**moved["source"], "sha256": "sha256:0"}
    assert stale_summary(json.dumps(moved).encode(), old) == \
        "  tools unchanged; catalog fields that differ: source\n"
    short = stale_summary(old, new, limit=4).splitlines()
    assert len(short) == 4
    assert short[-1].startswith("  ... 9 more lines: run `toolcat diff")
