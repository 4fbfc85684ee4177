"""Issue 28 item 16: a key written twice in one object is never lost silently.

In a spec it is a located finding of the validation mode (strict refuses, warn
warns and keeps the last value, as JSON and YAML parsers do); in a file the user
writes (toolcat.yaml, overrides) it is always an error with its line.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from helpers.inprocess import RunCli
from toolcat.errors import ToolcatError
from toolcat.parse.duplicates import Repeats, may_repeat
from toolcat.parse.reader import parse_bytes

OK = {"200": {"description": "o"}}
JSON_SPEC = ('{"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {'
             f'"/a": {{"get": {{"operationId": "x", "responses": {json.dumps(OK)}}}}}, '
             f'"/b": {{"get": {{"operationId": "y", "responses": {json.dumps(OK)}}}}}, '
             f'"/a": {{"post": {{"operationId": "z", "responses": {json.dumps(OK)}}}}}}}}}')
YAML_SPEC = """\
openapi: 3.0.3
info: {title: t, version: "1"}
paths:
  /a:
    get: {operationId: x, responses: {"200": {description: o}}}
  /b:
    get: {operationId: y, responses: {"200": {description: o}}}
  /a:
    post: {operationId: z, responses: {"200": {description: o}}}
"""
WHERE = {"spec.json": "/paths/~1a", "spec.yaml": "line 8 column 3"}


@pytest.mark.parametrize(("name", "text"), [("spec.json", JSON_SPEC), ("spec.yaml", YAML_SPEC)])
def test_strict_refuses_a_path_written_twice(name: str, text: str, tmp_path: Path,
                                              toolcat: RunCli) -> None:
    spec = tmp_path / name
    spec.write_text(text)
    result = toolcat("generate", "--spec", spec, "--out", tmp_path / "out")
    assert result.returncode == 2, result.stderr
    assert f"{name}: {WHERE[name]}: the key '/a' is written twice in one object" \
        in result.stderr, result.stderr
    assert "validation: warn" in result.stderr   # the way forward is named
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("name", "text"), [("spec.json", JSON_SPEC), ("spec.yaml", YAML_SPEC)])
def test_warn_keeps_the_last_and_says_where(name: str, text: str, tmp_path: Path,
                                            toolcat: RunCli) -> None:
    spec = tmp_path / name
    spec.write_text(text)
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--validation", "warn")
    assert result.returncode == 0, result.stderr
    assert f"warning: {spec}: {WHERE[name]}: the key '/a' is written twice" in result.stderr \
        or f"warning: {name}: {WHERE[name]}" in result.stderr, result.stderr
    catalog = json.loads((out / "catalog.json").read_text())
    assert sorted(t["tool"]["name"] for t in catalog["tools"]) == ["y", "z"]
    assert catalog["source"]["verdict"] == "invalid"


def test_a_key_that_overrides_a_merge_key_is_no_duplicate() -> None:
    text = b"base: &b {x: 1, y: 2}\nthing:\n  <<: *b\n  x: 3\n"
    assert parse_bytes(text, Path("a.yaml")) == {"base": {"x": 1, "y": 2},
                                                 "thing": {"x": 3, "y": 2}}


def test_a_key_twice_in_one_yaml_mapping_refuses_by_default() -> None:
    with pytest.raises(ToolcatError) as raised:
        parse_bytes(b"a: 1\nb:\n  c: 1\n  c: 2\n", Path("a.yaml"))
    assert raised.value.problems[0].location == "line 4 column 3"


def test_duplicate_catalog_in_toolcat_yaml_is_an_error(tmp_path: Path,
                                                       toolcat: RunCli) -> None:
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalogs:\n  api: {spec: a.json, output: out1}\n"
                      "  api: {spec: b.json, output: out2}\n")
    result = toolcat("check", "--config", config)
    assert result.returncode == 2, result.stderr
    assert f"{config}: line 3 column 3: the key 'api' is written twice" in result.stderr


@pytest.mark.parametrize("text", [
    b'{"a": "x:y", "b": {"c": "1:2:3"}}',              # colons in strings only
    b'{"a": "say \\"k\\": v", "b": 1}',                 # a quoted key inside a string
])
def test_no_false_alarm_on_colons_inside_strings(text: bytes) -> None:
    assert not may_repeat(text, orjson.loads(text))


@pytest.mark.parametrize("text", [
    b'{"a": 1, "a": 2}',
    b'{"a": {"b": "1:2"}, "a": 3}',                    # the lost value held colons
    b'{"x": "\\u003a", "a": 1, "a": 2}',               # an escaped colon elsewhere
    b'[{"k": 1}, {"k": 1, "k" : 2}]',                   # white space before the colon
])
def test_every_json_duplicate_is_found_and_located(text: bytes) -> None:
    repeats = Repeats("f.json", keep=True)
    parse_bytes(text, Path("f.json"), repeats)
    assert [p.location for p in repeats.found] in (["/a"], ["/1/k"]), repeats.found


@pytest.mark.parametrize("text", [
    b'{"a": 1, "a": 2}',
    b'{"a": {"b": "1:2"}, "a": 3}',
    b'{"x": "\\u003a", "a": 1, "a": 2}',
    b'[{"k": 1}, {"k": 1, "k" : 2}]',
    b'{"a": "x:y", "b": {"c": "1:2:3"}}',                # none: nothing found
    b'{"p": {"y": 1, "x": [1], "y": {"z": 2}}, "q": 18446744073709551617}',   # exact_json
])
def test_a_check_left_for_later_finds_and_reads_what_the_check_at_once_does(
        text: bytes) -> None:
    """A spec's JSON check waits until the validator has forked (``Repeats.defer``): the
    tree is the one the check at once returns (each key's first place, last value), and
    ``settled`` finds the same duplicates at the same places."""
    now = Repeats("f.json", keep=True)
    read_now = parse_bytes(text, Path("f.json"), now)
    later = Repeats("f.json", keep=True, defer=True)
    read_later = parse_bytes(text, Path("f.json"), later)
    assert read_later == read_now
    assert json.dumps(read_later) == json.dumps(read_now), "keys in another order"
    assert later.settled() == now.found
    assert later.later == [], "a check left waiting once settled"


def test_the_check_left_for_later_sees_the_tree_as_read_not_as_changed_since() -> None:
    """Later stages change the tree in place (overlays, repairs): a key added since
    would make up the colon the dropped duplicate took away. The tree's written form is
    taken when read."""
    repeats = Repeats("f.json", keep=True, defer=True)
    tree = parse_bytes(b'{"a": 1, "a": 2}', Path("f.json"), repeats)
    tree["b"] = 3   # one colon more in the tree than it was read with
    assert [p.location for p in repeats.settled()] == ["/a"], repeats.found
