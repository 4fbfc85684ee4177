"""A server under test controls tool names and messages: none of it reaches the terminal
or the PR comment as escape codes, bidi overrides or extra table cells."""

from __future__ import annotations

import re

from toolcat.verify.findings import Finding, make_report
from toolcat.verify.report import render

HOSTILE = "evil\x1b[2J\u202etool|x\nline"


def _report() -> str:
    finding = Finding("error", HOSTILE, "parity", "extra-tool",
                      message="the server lists a tool the catalog does not have")
    return make_report("c.json", "cmd", "2025-11-25", ("parity",), 1, 2, [finding], [])


def test_terminal_shows_hidden_characters() -> None:
    text = render(_report(), "text")
    assert "\x1b" not in text
    assert "\u202e" not in text
    assert "evil\\u001b[2J\\u202etool|x line  [parity: extra-tool]" in text


def test_markdown_cell_stays_one_cell() -> None:
    text = render(_report(), "markdown")
    row = next(line for line in text.splitlines() if "extra-tool" in line)
    assert "\x1b" not in row
    assert "\u202e" not in row
    assert len(re.findall(r"(?<!\\)\|", row)) == 8   # seven cells, no extra: "\|" is text


def test_json_is_ascii() -> None:
    assert render(_report(), "json").isascii()
