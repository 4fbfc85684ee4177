"""The byte diff `check` prints: a correct unified diff, without difflib's cost on big files."""

from __future__ import annotations

import difflib
import re
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from toolcat.output.files import MAX_DIFF_LINES, _unified

LINES = st.lists(st.sampled_from(["a\n", "b\n", "c\n", "{\n", "}\n", "x"]), max_size=40)


def _reference(old: bytes, new: bytes) -> str:
    return "".join(difflib.unified_diff(
        old.decode().splitlines(keepends=True), new.decode().splitlines(keepends=True),
        "f (on disk)", "f (generated)", n=2))


def _apply(old: list[str], diff: str) -> list[str]:
    """Apply a unified diff (as difflib writes it) to ``old``."""
    out: list[str] = []
    at = 0
    lines = diff.splitlines(keepends=True)[2:]
    i = 0
    while i < len(lines):
        match = re.match(r"@@ -(\d+)(?:,(\d+))? ", lines[i])
        assert match, lines[i]
        start = int(match[1]) - (0 if match[2] == "0" else 1)
        out += old[at:start]
        at = start
        i += 1
        while i < len(lines) and not lines[i].startswith("@@"):
            tag, text = lines[i][0], lines[i][1:]
            if tag in " -":
                assert old[at].rstrip("\n") == text.rstrip("\n")
                at += 1
            if tag in " +":
                out.append(text)
            i += 1
    return out + old[at:]


@settings(max_examples=300, deadline=None)
@given(LINES, LINES)
def test_a_correct_diff(old: list[str], new: list[str]) -> None:
    """Applying the printed diff to the file on disk gives the generated file."""
    old = [line if line.endswith("\n") else line + "\n" for line in old]
    new = [line if line.endswith("\n") else line + "\n" for line in new]
    a, b = "".join(old).encode(), "".join(new).encode()
    text = _unified(Path("f"), a, b)
    assert (text == "") == (a == b)
    assert _apply(old, text) == new


def test_same_as_difflib_when_lines_are_distinct() -> None:
    old = [f"{i}\n" for i in range(50)]
    new = [*old[:10], "x\n", *old[12:40], *old[41:]]
    a, b = "".join(old).encode(), "".join(new).encode()
    assert _unified(Path("f"), a, b) == _reference(a, b)


def test_one_change_in_a_huge_file_is_one_hunk() -> None:
    old = "".join(f'  "k{i}": {i},\n' for i in range(400_000)).encode()
    new = old.replace(b'"k200000": 200000', b'"k200000": -1')
    text = _unified(Path("catalog.json"), old, new)
    assert text.count("@@ -") == 1
    assert '-  "k200000": 200000,' in text
    assert '+  "k200000": -1,' in text
    assert "@@ -199999,5 +199999,5 @@" in text


def test_a_huge_changed_region_is_cut() -> None:
    old = "".join(f"{i}\n" for i in range(3 * MAX_DIFF_LINES)).encode()
    new = "".join(f"{i}!\n" for i in range(3 * MAX_DIFF_LINES)).encode()
    assert "diff cut" in _unified(Path("catalog.json"), old, new)
