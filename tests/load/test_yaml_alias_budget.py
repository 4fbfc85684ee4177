"""YAML aliases expand within a budget: a few hundred bytes cannot become gigabytes.

738 bytes of nested aliases ("billion laughs") ran for over 90 s before being
killed, 638 bytes produced a 212 MB catalog, and merge keys (``<<: [*a, *a]``) copy
what they name the same way. Now a document whose aliases would expand it past
``EXPANSION_FACTOR`` times its written nodes plus ``EXPANSION_SLACK`` is refused,
in about the time it takes to read, naming the anchor's line; modest sharing reads.
A self-containing alias (``&a [1, *a]``) is refused too: JSON cannot hold it.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from toolcat.errors import ToolcatError
from toolcat.parse.reader import parse_bytes
from toolcat.parse.yaml_reader import ANCHOR

HEAD = 'openapi: 3.0.0\ninfo: {title: aliases, version: "1"}\npaths: {}\nx-aliases:\n'


def _laughs(levels: int) -> bytes:
    text = HEAD + "  a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, levels):
        text += f"  a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]\n"
    return text.encode()


def _merges(levels: int) -> bytes:
    text = HEAD + "  m0: &m0 {k0: 1, k1: 2}\n"
    for i in range(1, levels):
        text += f"  m{i}: &m{i} {{<<: [{', '.join([f'*m{i - 1}'] * 8)}], own{i}: 1}}\n"
    return text.encode()


@pytest.mark.parametrize(("name", "data", "line"), [
    ("laughs", _laughs(10), 13), ("merge keys", _merges(12), 15)])
def test_alias_bombs_are_refused_fast_with_the_anchor_line(
        name: str, data: bytes, line: int) -> None:
    assert len(data) < 1000, len(data)
    start = time.perf_counter()
    with pytest.raises(ToolcatError) as caught:
        parse_bytes(data, Path("bomb.yaml"))
    assert time.perf_counter() - start < 10, name
    problem = caught.value.problems[0]
    assert problem.file == "bomb.yaml"
    assert problem.location == f"line {line}", problem
    assert "YAML aliases expand the document to" in problem.message
    assert "beyond toolcat's limit" in problem.message


def test_modest_sharing_reads() -> None:
    text = HEAD + "  shared: &s {type: string, maxLength: 10}\n" + "".join(
        f"  p{i}: *s\n" for i in range(300))
    data = parse_bytes(text.encode(), Path("ok.yaml"))["x-aliases"]
    assert data["p299"] == {"type": "string", "maxLength": 10}


def test_an_ampersand_in_text_is_not_an_anchor() -> None:
    """Text such as a=1&b=2 does not cost the alias walk; the value is read as written."""
    text = HEAD + "  url: https://x.test/?a=1&b=2\n  both: R&D\n"
    assert parse_bytes(text.encode(), Path("t.yaml"))["x-aliases"]["both"] == "R&D"


# The anchor test as first written: every position tried, ``^`` at each line start.
_ANCHOR_AS_WRITTEN = re.compile(rb"(?:^|[\s\[{,])&[^\s\]},]", re.M)


@settings(max_examples=400, deadline=None)
@given(st.binary(max_size=12) | st.text(alphabet="&a \n\t[]{},:x\r", max_size=12)
       .map(str.encode))
def test_the_anchor_test_finds_what_its_first_spelling_found(data: bytes) -> None:
    """The fast spelling of the anchor test (literal ``&`` first, a look-behind for
    what precedes it) finds an anchor in exactly the texts the first spelling did."""
    assert (ANCHOR.search(data) is None) == (_ANCHOR_AS_WRITTEN.search(data) is None), data
