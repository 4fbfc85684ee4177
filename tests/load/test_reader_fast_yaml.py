"""The fast YAML read gives exactly what the stock PyYAML read gave.

``reader.parse_bytes`` answers the resolver from first characters and a memo, and
builds the data with ``yaml_build`` instead of PyYAML's constructor. The oracle
below is ``reader.py``'s loader as it was before (stock resolver, stock
constructor), copied here on purpose: for every YAML file of the corpus and for
each tricky shape, both must give the same values (types included: ``True`` is
not ``1``, ``1`` is not ``1.0``; NaN equals NaN; same key order) or the same
error (same problems: file, ``line L column C``, message).
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from helpers.paths import CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st
from toolcat.errors import ToolcatError, fail
from toolcat.parse import reader, yaml_build, yaml_reader
from yaml.nodes import MappingNode, ScalarNode, SequenceNode

# --- The oracle: reader.py's YAML read before it was made fast ------------------

_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _OracleLoader(_Base):  # type: ignore[misc]
    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[str, Any]:
        self.flatten_mapping(node)
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a scalar", key_node.start_mark
                )
            out[str(key_node.value)] = self.construct_object(value_node, deep=deep)
        return out


_TAG = "tag:yaml.org,2002:"
_CORE = (
    (_TAG + "bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    (_TAG + "int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (_TAG + "float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                     r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+.0123456789"),
)
_REPLACED = {_TAG + t for t in ("bool", "int", "float", "timestamp", "value")}
_OracleLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in _REPLACED]
    for first, resolvers in _Base.yaml_implicit_resolvers.items()
}
for _tag, _pattern, _firsts in _CORE:
    _OracleLoader.add_implicit_resolver(_tag, re.compile(_pattern), list(_firsts))


def _int(loader: Any, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    return int(text, 10)


def _float(loader: Any, node: yaml.ScalarNode) -> float:
    text = str(loader.construct_scalar(node)).lower()
    if text.endswith(".inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    return float("nan") if text == ".nan" else float(text)


_OracleLoader.add_constructor(_TAG + "int", _int)
_OracleLoader.add_constructor(_TAG + "float", _float)
_OracleLoader.add_constructor(
    _TAG + "map", lambda loader, node: loader.construct_mapping(node, deep=True))


def _oracle(data: bytes, path: Path) -> Any:
    if reader.is_json_path(path) or data.lstrip()[:1] in (b"{", b"["):
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            if reader.is_json_path(path):
                raise fail(str(path), f"line {exc.lineno} column {exc.colno}",
                           f"invalid JSON: {exc.msg}", "fix the syntax at that line") from None
    try:
        return yaml.load(data, Loader=_OracleLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1} column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise fail(str(path), where, f"invalid YAML: {problem}",
                   "fix the syntax at that line") from None


# --- Comparison --------------------------------------------------------------------


def _outcome(parse: Any, data: bytes, path: Path) -> tuple[str, Any]:
    try:
        return "value", parse(data, path)
    except ToolcatError as exc:
        return "error", exc.problems
    except Exception as exc:  # the stock read lets a few raw errors through (`!!int x`)
        return "raised", (type(exc), str(exc))


def _difference(got: Any, want: Any, at: str = "", seen: set[tuple[int, int]] | None = None,
                ) -> str | None:
    """Where ``got`` and ``want`` first differ, type-strictly, or None."""
    where = at or "/"
    if type(got) is not type(want):
        return f"{where}: {type(got).__name__} {got!r:.80} != {type(want).__name__} {want!r:.80}"
    if isinstance(got, dict | list):
        seen = set() if seen is None else seen
        if (id(got), id(want)) in seen:  # an alias inside its own anchor
            return None
        seen.add((id(got), id(want)))
    if isinstance(got, dict):
        if list(got) != list(want):
            return f"{where}: keys {list(got)!r:.200} != {list(want)!r:.200}"
        items: list[tuple[Any, Any, Any]] = [(k, got[k], want[k]) for k in got]
    elif isinstance(got, list):
        if len(got) != len(want):
            return f"{where}: {len(got)} items != {len(want)}"
        items = [(i, g, w) for i, (g, w) in enumerate(zip(got, want, strict=True))]
    elif isinstance(got, float):
        same = got == want or (math.isnan(got) and math.isnan(want))
        return None if same and math.copysign(1, got) == math.copysign(1, want) else \
            f"{where}: {got!r} != {want!r}"
    else:
        return None if got == want else f"{where}: {got!r:.80} != {want!r:.80}"
    for key, g, w in items:
        found = _difference(g, w, f"{at}/{key}", seen)
        if found:
            return found
    return None


def _mismatch(data: bytes, path: Path) -> str | None:
    got, want = _outcome(reader.parse_bytes, data, path), _outcome(_oracle, data, path)
    if got[0] != want[0]:
        return f"{path}: {got[0]} {got[1]!r:.300} != {want[0]} {want[1]!r:.300}"
    found = _difference(got[1], want[1]) if got[0] == "value" else (
        None if got[1] == want[1] else f"{got[1]!r} != {want[1]!r}")
    return f"{path}: {found}" if found else None


# --- Every YAML file of the corpus -----------------------------------------------

def _yaml_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


_FOLDERS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir() and _yaml_files(p)) \
    if CORPUS.is_dir() else []


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")
@pytest.mark.parametrize("folder", _FOLDERS or ["(none)"])
def test_corpus_yaml_reads_as_before(folder: str) -> None:
    files = _yaml_files(CORPUS / folder)
    mismatches = [m for m in (_mismatch(p.read_bytes(), p) for p in files) if m]
    assert not mismatches, f"{len(mismatches)} of {len(files)} files differ:\n" + \
        "\n".join(mismatches[:10])


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"no corpus at {CORPUS}")
def test_real_specs_take_the_fast_path() -> None:
    """No real document needs the stock constructor (else the speed-up is gone)."""
    for spec, paths in (("stripe/spec3.yaml", 318), ("openai/openapi.yaml", 182),
                        ("plex/plex-api-spec.yaml", 196)):
        loader = yaml_reader.SpecLoader((CORPUS / spec).read_bytes())
        try:
            built = yaml_build.build(loader, loader.get_single_node(), yaml_reader.check_repeats)
        except yaml_build.Unsupported as exc:
            pytest.fail(f"{spec} needs the stock constructor: {exc}")
        assert {"openapi", "info", "paths"} <= set(built), (spec, sorted(built)[:10])
        assert len(built["paths"]) == paths, (spec, len(built["paths"]))   # as CSafeLoader reads


# --- The resolver, scalar by scalar ---------------------------------------------

_NEW, _OLD = yaml_reader.SpecLoader(b""), _OracleLoader(b"")  # one each: the memo is exercised
_IMPLICIT = [(True, False), (False, True), (False, False), (True, True)]


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="0123456789.-+_:eExXoObB aiIfnNtTrRuUlLsSyYAF~<=!&*\n\t", max_size=8)
       | st.text(max_size=6))
def test_resolver_tags_every_scalar_as_before(value: str) -> None:
    for implicit in _IMPLICIT:
        got = _NEW.resolve(ScalarNode, value, implicit)
        assert got == _OLD.resolve(ScalarNode, value, implicit), (value, implicit)
        assert _NEW.resolve(ScalarNode, value, implicit) == got  # from the memo
    for kind in (SequenceNode, MappingNode):
        for flag in (True, False):
            assert _NEW.resolve(kind, None, flag) == _OLD.resolve(kind, None, flag)


# --- Hand-written shapes ----------------------------------------------------------

FIXTURES = {
    "int keys": "200: ok\n404: {description: gone}\n0x1F: hex\n1e5: f\n~: n\ntrue: b\n",
    "numbers": "n: [0x1F, 0x1f, 0o17, 017, 02134, 1e5, 1E-5, 1.5e+3, .5, 1., -0, +12, -0.0,"
               " 1_000, 0b101, 1:20, 12e, 0x, 0o8, 1.2.3, +.5, -1.5e5]\n",
    "infinities and nan": "n: [.inf, .Inf, .INF, -.inf, -.Inf, +.inf, .nan, .NaN, .NAN, .nAn,"
                          " -.nan, inf, nan]\n",
    "nulls": "a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: nul\ng: ''\nh: [~, null, ]\n"
             "i: {x: , y}\n",
    "booleans": "b: [true, True, TRUE, false, False, FALSE, tRue, yes, no, on, off, y, n, Yes,"
                " ON, Off]\non: 1\nyes: 2\n",
    "dates stay text": "d: 2024-01-01\nt: 2020-03-02T17:00:49Z\ns: 2001-12-14 21:59:43.10 -5\n"
                       "x: [2024-01-01]\n",
    "quoted scalars stay text": "a: '123'\nb: \"1e5\"\nc: 'true'\nd: \"~\"\ne: 'null'\n"
                                "f: \"0x1F\"\n'200': q\n\"<<\": not a merge\n",
    "merge one": "base: &b {x: 1, y: 2}\nit:\n  <<: *b\n  y: 3\n  z: 4\n",
    "merge list": "a: &a {x: 1, p: a}\nb: &b {x: 2, q: b}\nc:\n  <<: [*a, *b]\n  r: c\n",
    "merge inline and nested": "a: &a {<<: {deep: 1}, x: 1}\nb: {<<: *a, y: 2}\n"
                               "c: {<<: [{m: 1}, {m: 2, n: 3}]}\n",
    "merge key twice": "a: &a {x: 1}\nb: &b {y: 2}\nc: {<<: *a, <<: *b, z: 3}\n",
    "merge not a mapping": "a: {<<: 5}\n",
    "merge list of scalars": "a: {<<: [1, 2]}\n",
    "explicit merge and value tags": "a: &a {x: 1}\nb: {!!merge k: *a, !!value v: 2}\n",
    "anchors and aliases": "s: &s hello\nn: &n 12\nm: &m {a: [1, 2]}\nl: &l [x, *s]\n"
                           "u: [*s, *n, *m, *l, *l]\nf: &f 1.5\ng: *f\n",
    "alias as key": "- &k key\n- {*k : v}\n",
    "explicit tags": "a: !!str 123\nb: !!int \"42\"\nc: !!float 1\nd: !!bool yes\n"
                     "e: !!null ''\nf: !!str\ng: !!int 0x1F\nh: !<tag:yaml.org,2002:str> 5\n"
                     "i: !!map {a: 1}\nj: !!seq [1]\nk: !!float '1.5'\n",
    "binary": "b: !!binary |\n  aGVsbG8g\n  d29ybGQ=\nc: !!binary aGk=\n",
    "bad binary": "b: !!binary '@@@'\n",
    "timestamp tag": "t: !!timestamp 2001-12-14\nu: !!timestamp 2001-12-14t21:59:43.10-05:00\n",
    "set omap pairs": "s: !!set {a, b}\no: !!omap [a: 1, b: 2]\np: !!pairs [a: 1, a: 2]\n",
    "tag on the wrong node": "a: !!str [a]\n",
    "int tag on text": "a: !!int abc\n",
    "bool tag on text": "a: !!bool maybe\n",
    "int tag on a list": "a: !!int [1]\n",
    "map tag on text": "a: !!map abc\n",
    "unknown tag": "a: !!foo bar\n",
    "python tag": "a: !!python/object:os.system x\n",
    "local tag": "a: !thing x\n",
    "non-specific tag": "a: ! 123\nb: ! \"123\"\nc: ! true\nd: ! \"true\\n\"\n",
    "tagged keys": "!!int 5: a\n? !!binary aGk=\n: b\n!!null x: c\n",
    "block scalars": "a: |\n  line 1\n  line 2\nb: >-\n  folded\n  text\nc: |+\n  keep\n\n"
                    "d: |\n  123\ne: >\n  true\n",
    "complex key": "? [a, b]\n: 1\n",
    "flow complex key": "{[a]: 1}\n",
    "mapping key": "? {a: 1}\n: 2\n",
    "duplicate keys": "a: 1\nb: 2\na: 3\n",
    "duplicate keys nested": "x: {a: 1, a: {b: 2}}\n",
    "syntax error": "a: [1, 2\nb: 3\n",
    "bad indentation": "a:\n  b: 1\n c: 2\n",
    "tab indentation": "a:\n\tb: 1\n",
    "undefined alias": "a: *nope\n",
    "duplicate anchor": "a: &x 1\nb: &x 2\n",
    "two documents": "---\na: 1\n---\nb: 2\n",
    "empty": "",
    "comment only": "# nothing\n",
    "explicit empty document": "---\n",
    "scalar document": "42\n",
    "text document": "hello world\n",
    "root sequence": "- a\n- [b, 1]\n- {c: 2}\n",
    "alias inside its own sequence": "&a [1, *a]\n",
    "alias inside its own mapping": "&a {x: *a}\n",
    "alias inside its own nested sequence": "x: &a [1, *a]\n",
    "json-looking yaml": "{a: 1, b: [yes, 2024-01-01]}\n",
    "json": "{\"a\": 1, \"b\": [true, 1.0, null]}\n",
    "unicode": "é: \"\\u00e9\"\nemoji: \"\\U0001F600\"\nnbsp: a\u00a0b\n",
    "escapes": "a: \"line\\nbreak\\ttab\"\nb: 'it''s'\n",
    "equals and special firsts": "=: eq\n<: lt\n<<<: not merge\n'!': bang\n'&': amp\nyes: y\n",
    "yaml tag resolver": "a: ! '&'\n",
    "long text starting like a number": "a: 1 apple\nb: -1 days\nc: .5 cups\nd: true story\n",
    "nesting past the fast path": "a: " + "[" * 120 + "1" + "]" * 120 + "\n",
    "nesting of maps past the fast path": "".join(f"{' ' * i}k{i}:\n" for i in range(110))
                                          + " " * 110 + "leaf: 1\n",
}


# Stock PyYAML builds these as self-containing values that no later stage (nor JSON)
# can hold: toolcat refuses them, located (tests/load/test_yaml_alias_budget.py).
REFUSED = {"alias inside its own sequence", "alias inside its own mapping",
           "alias inside its own nested sequence"}
# Numbers JSON cannot hold (infinity, NaN): refused at their line, never written as
# null (tests/load/test_values_kept_exactly.py); the words PyYAML would read as text stay.
NON_FINITE = "infinities and nan"


def test_non_finite_numbers_are_refused_and_their_lookalikes_stay_text() -> None:
    with pytest.raises(ToolcatError) as caught:
        reader.parse_bytes(FIXTURES[NON_FINITE].encode(), Path("/specs/t.yaml"))
    assert caught.value.problems[0].location == "line 1 column 5"
    text = reader.parse_bytes(b"n: [.nAn, -.nan, inf, nan]\n", Path("/specs/t.yaml"))
    assert text == {"n": [".nAn", "-.nan", "inf", "nan"]}


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_self_containing_yaml_is_refused_with_its_line(name: str) -> None:
    with pytest.raises(ToolcatError) as caught:
        reader.parse_bytes(FIXTURES[name].encode(), Path("/specs/t.yaml"))
    problem = caught.value.problems[0]
    assert problem.location.startswith("line ")
    assert "refers to its own anchor" in problem.message


# Read differently from stock PyYAML on purpose (issue 28 items 7 and 16): values JSON
# cannot hold are refused at their line, an explicit timestamp stays its text, a key
# written twice is refused (a spec's bundler collects it for its validation mode).
CHANGED = {
    "binary": ("error", "line 1 column 4", "!!binary value has no JSON equivalent"),
    "bad binary": ("error", "line 1 column 4", "!!binary value has no JSON equivalent"),
    "set omap pairs": ("error", "line 1 column 4", "!!set value has no JSON equivalent"),
    "duplicate keys": ("error", "line 3 column 1", "the key 'a' is written twice"),
    "duplicate keys nested": ("error", "line 1 column 11", "the key 'a' is written twice"),
    "timestamp tag": ("value", {"t": "2001-12-14", "u": "2001-12-14t21:59:43.10-05:00"}, ""),
}


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_yaml_read_differently_on_purpose(name: str) -> None:
    kind, expected, message = CHANGED[name]
    got = _outcome(reader.parse_bytes, FIXTURES[name].encode(), Path("/specs/t.yaml"))
    assert got[0] == kind, got
    if kind == "value":
        assert got[1] == expected
    else:
        assert (got[1][0].location, message in got[1][0].message) == (expected, True), got


@pytest.mark.parametrize("name", [n for n in FIXTURES
                                  if n not in REFUSED | {NON_FINITE} | set(CHANGED)])
def test_tricky_yaml_reads_as_before(name: str) -> None:
    data = FIXTURES[name].encode()
    for path in (Path(f"/specs/{name}.yaml"), Path(f"/specs/{name}.yml")):
        mismatch = _mismatch(data, path)
        assert mismatch is None, mismatch


def test_fixtures_reach_both_paths() -> None:
    """The common shapes are built by yaml_build; the rare ones go to the stock path."""
    fast, stock = [], []
    for name, text in FIXTURES.items():
        try:
            loader = yaml_reader.SpecLoader(text.encode())
            root = loader.get_single_node()
        except yaml.YAMLError:
            continue
        try:
            yaml_build.build(loader, root, yaml_reader.check_repeats)
            fast.append(name)
        except Exception:
            stock.append(name)
    assert {"int keys", "numbers", "merge list", "anchors and aliases", "explicit tags",
            "block scalars", "timestamp tag"} <= set(fast)
    assert {"set omap pairs", "unknown tag", "complex key", "merge not a mapping",
            "alias inside its own sequence", "nesting past the fast path",
            "nesting of maps past the fast path"} <= set(stock)


def test_values_and_errors_are_the_documented_ones() -> None:
    """A few outcomes spelled out, so the oracle itself is pinned."""
    path = Path("/specs/t.yaml")
    data = reader.parse_bytes(FIXTURES["numbers"].encode(), path)
    assert data["n"][:8] == [31, 31, 15, 17, 2134, 100000.0, 1e-5, 1500.0]
    assert data["n"][13:17] == ["1_000", "0b101", "1:20", "12e"]
    merged = reader.parse_bytes(FIXTURES["merge list"].encode(), path)["c"]
    assert merged == {"x": 1, "p": "a", "q": "b", "r": "c"}
    with pytest.raises(ToolcatError) as caught:
        reader.parse_bytes(FIXTURES["syntax error"].encode(), path)
    assert caught.value.problems[0].location == "line 2 column 2"
    with pytest.raises(ToolcatError) as caught:
        reader.parse_bytes(FIXTURES["complex key"].encode(), path)
    assert "a mapping key must be a scalar" in caught.value.problems[0].message


def test_an_alias_gives_the_anchored_value() -> None:
    data = reader.parse_bytes(FIXTURES["anchors and aliases"].encode(), Path("/specs/a.yaml"))
    assert data["u"] == ["hello", 12, {"a": [1, 2]}, ["x", "hello"], ["x", "hello"]]
    assert data["u"][2] is data["m"]
    assert data["g"] == 1.5
