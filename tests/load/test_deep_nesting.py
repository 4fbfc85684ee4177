"""Nesting is bounded: past 128 levels a spec is refused with its location, never a crash.

An 80 KB YAML file nested 40,000 deep killed toolcat with SIGSEGV (libyaml's
composer recurses on the C stack); the same bytes as JSON, and JSON 200 deep,
ended in "the document nests too deeply" or an internal error, without the file.
Now both formats stop at ``limits.MAX_DEPTH`` with the file and a line (YAML) or a
JSON pointer (JSON), and exactly ``MAX_DEPTH`` levels still read.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.generate import run_cli
from toolcat.errors import ToolcatError
from toolcat.parse.limits import MAX_DEPTH, check_tree_depth, check_tree_refs
from toolcat.parse.reader import parse_bytes

HEAD = 'openapi: 3.0.0\ninfo: {title: deep, version: "1"}\npaths: {}\nx-deep: '


def _refusal(data: bytes, name: str, walk: object = check_tree_depth) -> tuple[str, str]:
    with pytest.raises(ToolcatError) as caught:
        parse_bytes(data, Path(name), None, walk)  # type: ignore[arg-type]
    problem = caught.value.problems[0]
    assert problem.file == name
    assert f"limit of {MAX_DEPTH} levels" in problem.message
    return problem.location, problem.message


def test_yaml_nested_40000_deep_exits_2_with_its_line(tmp_path: Path) -> None:
    spec = tmp_path / "deep.yaml"
    spec.write_text(HEAD + "[" * 40_000 + "]" * 40_000 + "\n")
    result = run_cli("generate", "--spec", spec, "--out", tmp_path / "out")
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert "Traceback" not in result.stderr
    assert f"{spec}: line 4 column " in result.stderr
    assert f"limit of {MAX_DEPTH} levels" in result.stderr
    assert not (tmp_path / "out").exists()


def test_yaml_block_nesting_is_refused_with_its_line() -> None:
    text = HEAD + "\n" + "".join(f"{' ' * (i + 1)}- \n" for i in range(3000))
    location, _ = _refusal(text.encode(), "block.yaml")
    assert location.startswith("line ")


def test_yaml_nesting_through_aliases_counts() -> None:
    """Each part is 100 deep; an alias puts one under the other (200 levels)."""
    inner = "[" * 100 + "1" + "]" * 100
    text = f"{HEAD}\n  a: &a {inner}\n  b: {'[' * 100}*a{']' * 100}\n"
    location, _ = _refusal(text.encode(), "aliases.yaml")
    assert location.startswith("line ")


@pytest.mark.parametrize("name", ["deep.json", "deep.yaml"])
def test_the_limit_itself_reads_and_one_more_is_refused(name: str) -> None:
    # x-deep is at level 1; its value adds MAX_DEPTH - 1 arrays: MAX_DEPTH in all.
    ok = '{"openapi": "3.0.0", "x-deep": ' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}"
    assert parse_bytes(ok.encode(), Path(name))["openapi"] == "3.0.0"
    deep = ok.replace('"x-deep": [', '"x-deep": [[').replace("]}", "]]}")
    _refusal(deep.encode(), name)


def test_json_nested_too_deep_names_the_pointer() -> None:
    schema: dict[str, object] = {"type": "string"}
    for _ in range(200):
        schema = {"type": "object", "properties": {"a": schema}}
    document = {"openapi": "3.0.0", "paths": {"/a": {"post": {"requestBody": {
        "content": {"application/json": {"schema": schema}}}}}}}
    location, _ = _refusal(json.dumps(document).encode(), "deep.json")
    assert location.startswith(
        "/paths/~1a/post/requestBody/content/application~1json/schema/properties/a/")
    assert location.count("/") == MAX_DEPTH


def _deep_json(levels: int) -> bytes:
    schema: dict[str, object] = {"type": "string"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}}
    return json.dumps({"openapi": "3.0.0", "paths": {}, "x-s": [schema]}).encode()


def test_the_runs_json_walk_refuses_as_the_depth_check_does() -> None:
    """``check_tree_refs`` (a run's reader: the depth and the bundle's question in one
    pass) reads and refuses exactly what ``check_tree_depth`` does, at the same place."""
    def walk(tree: object, file: str) -> bool:
        return check_tree_refs(tree, file).rounded

    fits = _deep_json((MAX_DEPTH - 4) // 2)
    assert parse_bytes(fits, Path("fits.json"), None, walk)["openapi"] == "3.0.0"
    for levels in ((MAX_DEPTH - 2) // 2, 200):
        data = _deep_json(levels)
        assert _refusal(data, "deep.json", walk) == _refusal(data, "deep.json")


def test_ad_hoc_generate_of_deep_json_exits_2_with_the_pointer(tmp_path: Path) -> None:
    spec = tmp_path / "deep.json"
    spec.write_bytes(_deep_json(200))
    result = run_cli("generate", "--spec", spec, "--out", tmp_path / "out")
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    assert f"{spec}: /x-s/0/properties/a/" in result.stderr, result.stderr[-500:]
    assert f"limit of {MAX_DEPTH} levels" in result.stderr
