"""``parse/yaml_fast``: yaml_rs's reading is taken only when it is the stock reading.

The stock path is ``reader.parse_bytes`` with the fast path switched off (its own
equivalence to PyYAML is tests/load/test_reader_fast_yaml.py). Values are compared
by ``repr``: types, key order, ``-0.0`` and big integers included. What the fast
path's walk learns of a tree (``limits.TreeFacts``, which spares the bundle's and the
repairs' walks) must be what the JSON read's walk (``check_tree_refs``) finds in it.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st
from toolcat.errors import ToolcatError
from toolcat.parse import reader, yaml_fast, yaml_reader
from toolcat.parse.duplicates import Repeats
from toolcat.parse.limits import TreeFacts, check_tree_refs

_PATH = Path("/specs/t.yaml")


def _stock(data: bytes, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    with monkeypatch.context() as patch:
        patch.setattr(yaml_reader, "fast_load", lambda data: None)
        return _outcome(data)


def _outcome(data: bytes) -> tuple[str, str]:
    try:
        return "value", repr(reader.parse_bytes(data, _PATH, Repeats(str(_PATH), keep=True)))
    except ToolcatError as exc:
        return "error", repr(exc.problems)


def _fast(data: bytes, where: object = "") -> Any:
    """``fast_load``'s tree (None: the stock path's), its facts checked against the
    JSON read's walk of the same tree, field by field."""
    found = yaml_fast.fast_load(data)
    if found is None:
        return None
    tree, facts = found
    want = check_tree_refs(tree, "t.yaml")
    for field in TreeFacts._fields:
        assert getattr(facts, field) == getattr(want, field), (
            f"{where}: {field}: the YAML walk says {getattr(facts, field)}, "
            f"check_tree_refs {getattr(want, field)}")
    return tree


def _yaml_files() -> Iterator[Path]:
    if CORPUS.is_dir():
        yield from sorted(p for p in CORPUS.rglob("*") if p.suffix in (".yaml", ".yml"))


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")
def test_corpus_reads_the_same_on_either_path(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = []
    for path in _yaml_files():
        data = path.read_bytes()
        tree = _fast(data, path)
        if tree is not None:
            fast.append(path.relative_to(CORPUS).as_posix())
            assert ("value", repr(tree)) == _stock(data, monkeypatch), path
    assert "stripe/spec3.yaml" in fast   # the 4 MB spec this path is for
    assert len(fast) >= 100, len(fast)   # digitalocean's many small files too


# Each goes to the stock path, for the reason named (remove that screen or check in
# yaml_fast and its case here fails).
STOCK = {
    "anchor": "a: &x 1\nb: *x\n",
    "tag": "a: !!str 1\n",
    "non-specific tag": "a: ! 1\n",
    "undefined alias": "a: *x\n",
    "tab": "a:\t1\n",
    "carriage return": "a: 1\r\nb: 2\r\n",
    "control character": "a: \"x\x01\"\n",
    "byte order mark": "\ufeffa: 1\n",
    "NEL": "a: x\x85y\n",
    "LS": "a: \"x\u2028y\"\n",
    "U+FFFE": "a: \"x\ufffe\"\n",
    "directive": "%YAML 1.1\n---\na: 1\n",
    "second document": "a: 1\n---\nb: 2\n",
    "document end first": "...\na: 1\n",
    "merge key": "<<: {a: 1}\nb: 2\n",
    "binary number": "a: 0b101\n",
    "upper-case prefix": "a: 0X1F\n",
    "signed hex": "a: -0x1F\n",
    "underscore number": "a: 1_000\n",
    "leading underscore": "a: _1\n",
    "underscore in hex": "a: [0x_1F]\n",
    "number key": "200: ok\n",
    "boolean key": "true: 1\n",
    "null key": "~: 1\n",
    "complex key": "? [a]\n: 1\n",
    "infinity": "a: .inf\n",
    "huge number": "a: 1e999\n",
    "huge integer": f"a: {'9' * 5000}\n",
    "no final line break": "a: 1",
    "empty block scalar at the end": "a: 1\nb: |\n\n",
    "empty folded scalar at the end": "- >\n",
    "block indicator in flow": "a: [b, |]\nz: 1\n",
    "folded indicator as a flow value": "a: {b: >}\nz: 1\n",
    "question mark in flow": "a: [?]\n",
    "empty flow key": "a: {: x}\n",
    "duplicate key": "a: 1\nb: 2\na: 3\n",
    "deep nesting": "a: " + "[" * 120 + "1" + "]" * 120 + "\n",
    "syntax error": "a: [1, 2\nb: 3\n",
    "not a mapping": "- a\n- b\n",
    "invalid UTF-8": "a: \udcff\n",
}


@pytest.mark.parametrize("name", sorted(STOCK))
def test_unusual_documents_go_to_the_stock_path(name: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    data = STOCK[name].encode("utf-8", "surrogateescape")
    assert yaml_fast.fast_load(data) is None, f"{name}: read by yaml_rs"
    assert _outcome(data) == _stock(data, monkeypatch), name


# Read by yaml_rs, to what the stock path reads.
FAST = {
    "scalars": "a: [1, -2, +3, 012, 0x1F, 0o17, 1.5, .5, 1., 1e5, 1E-3, -0.0, 0.0, "
               "123456789012345678901234567890]\nb: [true, False, TRUE, yes, no, on, off]\n"
               "c: [~, null, Null, NULL, '', nul]\nd:\ne: [2024-01-01, 1:20, 12e, 0x, 1.2.3]\n",
    "quoted": "'200': a\n\"true\": b\nc: '1'\nd: \"0x1F\"\ne: 'it''s'\n"
              "f: \"\\t\\n\\u00e9\\/\\x41\\U0001F600\"\n",
    "block scalars": "a: |\n  x\n\n  y\nb: >-\n  f\n  g\n\n  h\nc: |+\n  k\n\nd: |2\n   i\n"
                     "e: |\nf: >\n  `true` if\n  so\n",
    "plain multi-line": "a: one\n  two\n\n  three\nb: x # c\n",
    "flow": "a: {b: [c, {d: e}], f: []}\ng: [\"x\", 'y']\n",
    "underscores in words": "key_1: v9_x\ncard_1N: acct_1abc\n",
    "unicode": "é: \"\\u00e9\"\nnbsp: a\u00a0b\nemoji: 😀\n",
    "ampersand and bang in text": "a: Sources & Customers\nb: wow!\n",
    "document start": "---\na: 1\n",
    "comment at the end": "a: |\n# c\n",
}


@pytest.mark.parametrize("name", sorted(FAST))
def test_plain_documents_take_the_fast_path(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data = FAST[name].encode()
    tree = _fast(data, name)
    assert tree is not None, f"{name}: left to the stock path"
    assert ("value", repr(tree)) == _stock(data, monkeypatch), name


@pytest.mark.parametrize("length", [1020, 1022, 1024, 1026])
@pytest.mark.parametrize("form", ["{k}: 1\n", "'{k}': 1\n", "\"\\x41{k}\": 1\n"])
def test_the_implicit_key_limit_is_libyamls(form: str, length: int,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    data = form.format(k="k" * length).encode()
    tree = _fast(data, form)
    stock = _stock(data, monkeypatch)
    assert (tree is not None) == (stock[0] == "value"), (form, length, stock)
    assert tree is None or ("value", repr(tree)) == stock


def test_deep_block_nesting_runs_on_a_big_stack() -> None:
    """2,000 levels (within nesting_bound's 8,000) reach yaml_rs, which recurses per
    level on its own thread; past yaml_build's depth the stock path decides."""
    data = "".join(f"{' ' * i}k:\n" for i in range(2000)).encode() + b" " * 2000 + b"x\n"
    before = threading.stack_size()
    assert yaml_fast.fast_load(data) is None
    assert threading.stack_size() == before


def test_no_thread_for_yaml_rs_means_the_stock_path(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: threading.Thread) -> None:
        raise RuntimeError("can't start new thread")

    data = FAST["scalars"].encode()
    stock = _stock(data, monkeypatch)
    before = threading.stack_size()
    monkeypatch.setattr(threading.Thread, "start", refuse)
    assert yaml_fast.fast_load(data) is None
    assert threading.stack_size() == before
    assert _outcome(data) == stock


# --- Differential: random documents from fragments ------------------------------

_VALUES = [
    "1", "-1", "012", "0x1F", "0o17", "1_0", "1.", "1e5", ".inf", "true", "yes", "~", "",
    "2024-01-01", "1:20", "x", "a b", "a:b", "-x", "?x", "x #c", "'q'", "'a''b'",
    "\"\\t\\u00e9\"", "\"a\\\n  b\"", "[1, x]", "{a: 1}", "[a: 1]", "{a}", "[|]", "[?]",
    "[: x]", "{b: >}", "[-]", "plain\n  more", "|\n  lit\n", "|-\n  x\n\n",
    ">\n  f\n\n  g\n", "|+\n  k\n\n", "|\n", "|2\n   x\n", "&a x", "*a", "!x y", "\"x\"y",
    "123456789012345678901",
]
_KEYS = ["a", "b", "'a'", "\"a\"", "200", "true", "~", "a b", "? a", "[a]", "<<", "_1", "a_1", "é",
         "items", "$ref", "properties", "example", "x-a"]


@st.composite
def _documents(draw: Any) -> bytes:
    rng = random.Random(draw(st.integers(0, 2**32)))
    lines, depth = [], 0
    for _ in range(rng.randint(1, 8)):
        indent = "  " * depth + rng.choice(["", "", "", "- ", " "])
        roll = rng.random()
        if roll < 0.6:
            lines.append(f"{indent}{rng.choice(_KEYS)}: {rng.choice(_VALUES)}")
        elif roll < 0.75:
            lines.append(f"{indent}{rng.choice(_KEYS)}:")
            depth = min(depth + 1, 4)
        elif roll < 0.85:
            lines.append(f"{indent}- {rng.choice(_VALUES)}")
        elif roll < 0.9:
            lines.append(rng.choice(["# c", "", "  ", "---", "..."]))
        else:
            depth = max(0, depth - 1)
            lines.append(f"{'  ' * depth}{rng.choice(_KEYS)}: {rng.choice(_VALUES)}")
    return ("\n".join(lines) + rng.choice(["\n", "\n\n", ""])).encode()


@settings(max_examples=400, deadline=None, derandomize=True)
@given(_documents())
def test_random_documents_read_as_the_stock_path_reads(data: bytes) -> None:
    tree = _fast(data, data)
    if tree is not None:
        with pytest.MonkeyPatch.context() as patch:
            assert ("value", repr(tree)) == _stock(data, patch), data


# --- What the walk learns: limits.TreeFacts, as check_tree_refs finds them ---------

_TUPLE = "{type: array, items: [{type: string}]}"
SHAPES = {   # name -> (document, the facts that differ from "all local, nothing found")
    "a tuple under items": (f"c:\n  schemas:\n    A: {_TUPLE}\n", {"tuples": True}),
    "a tuple in an array": (f"allOf:\n  - {_TUPLE}\n", {"tuples": True}),
    "a schema named items": ("properties:\n  items: [{type: string}]\n", {}),
    "a tuple under a schema named items": (f"properties:\n  items: {_TUPLE}\n",
                                           {"tuples": True}),
    "a tuple in an example": (f"example: {_TUPLE}\n", {}),
    "a tuple in an extension": (f"x-a:\n  b: {_TUPLE}\n", {}),
    "a tuple in a list in an example": (f"examples:\n  - {_TUPLE}\n", {}),
    "a tuple in a list in a names map": (f"$defs: [{_TUPLE}]\n", {"tuples": True}),
    "a local $ref": ("a: {$ref: '#/b'}\nb: {$ref: '#'}\n", {}),
    "a $ref to another file": ("a:\n  b: {$ref: other.yaml}\n", {"local": False}),
    "a $ref by anchor": ("a: {$ref: '#a'}\nb: {$anchor: a}\n", {"local": False}),
    "a $ref in an example": ("example: {$ref: other.yaml}\n", {"local": False}),
    "a spliced map": ("properties: {$ref: '#/b'}\nb: {}\n", {"local": False}),
    "a spliced map in an example": ("example:\n  schemas: {$ref: '#/b'}\n", {"local": False}),
    "a $ref that is no text": ("a: {$ref: 1}\nproperties: {$ref: [x]}\n", {}),
    "an $id": ("a: {$id: 'https://example.com/a', $ref: '#/b'}\n", {}),
    "a float orjson rounds": ("a: [1.0e+300]\n", {"rounded": True}),
    "a float orjson rounds, in a mapping": ("a: -1.0e+300\n", {"rounded": True}),
    "a float under the rounding": ("a: 1.5\n", {}),
    "a readOnly property": ("properties:\n  a: {type: string, readOnly: true}\n",
                            {"read_only": True}),
    "a writeOnly flag in an example": ("example: {writeOnly: false}\n", {"write_only": True}),
    "both flags in a list": ("allOf:\n  - {readOnly: true}\n  - {writeOnly: true}\n",
                             {"read_only": True, "write_only": True}),
}


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_the_walk_learns_what_check_tree_refs_finds(name: str) -> None:
    text, differ = SHAPES[name]
    assert _fast(text.encode(), name) is not None, f"{name}: left to the stock path"
    _, facts = yaml_fast.fast_load(text.encode()) or (None, None)
    assert facts == TreeFacts(True, False, False, False, False)._replace(**differ), name
