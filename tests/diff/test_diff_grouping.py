"""diff for reviewers: one security scheme added to every tool is one line, never cut JSON.

The example catalog's 21 tools each gain a bearer scheme (the issue's 32 identical
BREAKING lines, each ending mid-JSON). The report names the change once with the
tools it touches, in the terminal and in the pull-request Markdown; and a long JSON
value is shortened by eliding whole nested values, never by cutting one.
"""

from __future__ import annotations

import json

from helpers.paths import EXAMPLE_OUTPUT
from toolcat.catalog.reader import parse_catalog
from toolcat.diff.classify import diff_catalogs
from toolcat.diff.report import render_markdown, render_text
from toolcat.diff.schemas import show

CATALOG = EXAMPLE_OUTPUT / "catalog.json"
TOKEN = [[{"id": "token", "scheme": "bearer", "type": "http"}]]


def _with_security() -> bytes:
    data = json.loads(CATALOG.read_bytes())
    for entry in data["tools"]:
        entry["binding"]["security"] = TOKEN
    return json.dumps(data).encode()


def test_a_scheme_added_to_every_tool_is_one_line() -> None:
    old = parse_catalog(CATALOG.read_bytes(), "old")
    new = parse_catalog(_with_security(), "new")
    diff = diff_catalogs(old, new)
    assert len(diff.changes) == 21                       # one change per tool, all counted
    lines = render_text([diff]).splitlines()
    names = sorted(new.tools)
    assert lines[1:] == [
        "  * 21 tools  BREAKING    security: security scheme `token` (http) added",
        f"      in {', '.join(names[:8])} and 13 more"]
    markdown = render_markdown([diff])
    row = ("| **breaking** | security | security scheme `token` (http) added | 21: "
           + ", ".join(f"`{n}`" for n in names) + " |")
    assert row in markdown.splitlines()
    assert "| severity | what | change |\n" not in markdown   # no tool has anything else


def test_two_tools_keep_their_own_lines() -> None:
    data = json.loads(CATALOG.read_bytes())
    for entry in data["tools"][:2]:
        entry["binding"]["security"] = TOKEN
    diff = diff_catalogs(parse_catalog(CATALOG.read_bytes(), "old"),
                         parse_catalog(json.dumps(data).encode(), "new"))
    text = render_text([diff])
    assert text.count("security scheme `token` (http) added") == 2
    assert "tools  BREAKING" not in text


def test_long_json_is_elided_whole_never_cut() -> None:
    servers = [{"url": "https://api.example.com/v1/with/a/long/path",
                "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}}}]
    for value in (servers, {"a": "x" * 80}, "y" * 80, list(range(40))):
        shown = show(value)
        assert len(shown) <= 60, shown
        assert not shown.endswith("..."), shown
    assert show(servers) == "[{...2 keys}]"     # the deepest level that fits
    assert show({"a": "x" * 80}) == "{...1 key}"
    assert show("y" * 80) == "a string of 80 characters"
    assert show([1, [2, 3], {"k": "v"}]) == '[1,[2,3],{"k":"v"}]'
