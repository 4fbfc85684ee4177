"""No value changes silently: it is written exactly, or refused with its location.

YAML ``.inf`` became ``null`` (``enum: [.inf, 1.5]`` -> ``[null, 1.5]``), the JSON
integer 18446744073709551617 became ``1.8446744073709552e+19`` (orjson reads
integers past 64 bits as floats), and ``schema: {$ref: '#'}`` embedded the whole
document as a schema. Now integers of any size are kept digit for digit, numbers
JSON cannot hold are refused at their line, and a ``$ref`` to the document or a
top-level section is refused at the reference.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest
from helpers.fixtures import generate, write_spec
from toolcat.config import Target
from toolcat.errors import ToolcatError
from toolcat.parse.limits import check_tree_depth, check_tree_refs
from toolcat.parse.reader import parse_bytes
from toolcat.pipeline import CATALOG_FILE, build_catalog, render_files, spec_verdict

BIG = 18446744073709551617


def _spec(schema: Any) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {
        "post": {"operationId": "a", "responses": {"200": {"description": "ok"}},
                 "requestBody": {"required": True, "content": {"application/json": {
                     "schema": schema}}}}}}}


@pytest.mark.parametrize("name", ["spec.json", "spec.yaml"])
def test_wide_integers_are_kept_digit_for_digit(tmp_path: Path, name: str) -> None:
    schema = {"type": "object", "properties": {"n": {
        "type": "integer", "maximum": BIG, "minimum": -BIG, "enum": [BIG, 1]}}}
    text = json.dumps(_spec(schema))  # JSON is YAML too; orjson cannot write BIG
    spec = write_spec(tmp_path, text, name)
    catalog = build_catalog(Target(name="t", spec=spec, spec_label=name,
                                   output=tmp_path / "out"), spec_verdict(spec))
    written = render_files(catalog)[CATALOG_FILE]
    assert b'"maximum": 18446744073709551617,' in written
    field = json.loads(written)["tools"][0]["tool"]["inputSchema"]["properties"]["n"]
    assert (field["maximum"], field["minimum"], field["enum"]) == (BIG, -BIG, [BIG, 1])
    assert type(field["maximum"]) is int


@pytest.mark.parametrize(("text", "line"), [
    ("enum: [.inf, 1.5]", 3), ("default: -.Inf", 3), ("enum: [1.5, .NaN]", 3),
    ("maximum: 1e999", 3)])
def test_yaml_numbers_json_cannot_hold_are_refused_at_their_line(text: str,
                                                                  line: int) -> None:
    data = f"openapi: 3.0.3\nx-schema:\n  {text}\n".encode()
    with pytest.raises(ToolcatError) as caught:
        parse_bytes(data, Path("spec.yaml"))
    problem = caught.value.problems[0]
    assert problem.location.startswith(f"line {line} "), problem
    assert "has no JSON value" in problem.message


@pytest.mark.parametrize("text", ['{"maximum": 1e400}', '{"big": 123456789012345678901,'
                                  ' "x": NaN}', '{"x": -Infinity}'])
def test_json_numbers_json_cannot_hold_are_refused_with_their_line(text: str) -> None:
    with pytest.raises(ToolcatError) as caught:
        parse_bytes(text.encode(), Path("spec.json"))
    assert caught.value.problems[0].location.startswith("line 1"), caught.value.render()


@pytest.mark.parametrize("ref", ["#", "#/paths", "#/components/schemas", "#/info"])
def test_a_ref_to_the_document_or_a_section_is_refused(tmp_path: Path, ref: str) -> None:
    spec = write_spec(tmp_path, _spec({"type": "object", "properties": {"x": {"$ref": ref}}})
                      | {"components": {"schemas": {"A": {"type": "string"}}}})
    with pytest.raises(ToolcatError) as caught:
        generate(spec, validate=False)
    problem = caught.value.problems[0]
    assert problem.location == ("/paths/~1a/post/requestBody/content/application~1json"
                                "/schema/properties/x/$ref"), problem
    assert f"$ref '{ref}' names the document or one of its top-level sections" in (
        problem.message)


@pytest.mark.parametrize(("text", "wide"), [
    ('{"n": 18446744073709551616}', True),      # 2**64: the first orjson rounds
    ('{"e": [1, {"x": -9223372036854775809}]}', True),   # below -2**63
    ("123456789012345678901234", True),
    ('{"x": 1.5e300}', True),                    # a large float: read twice, same value
    ('{"n": 18446744073709551615}', False),     # 2**64 - 1: exact
    ('{"n": -9223372036854775808}', False),     # -2**63: exact
    ('{"token": "e72e16c7e42f292c6912e7710c838", "id": "12345678901234567890123"}', False),
    ('{"x": 1e18, "y": [0.5]}', False),
])
def test_a_second_read_only_where_orjson_may_have_rounded(text: str, wide: bool) -> None:
    """Only a file that may hold an integer orjson rounded is read a second time: both
    depth walks (the plain one and a run's) see such a float in their one pass."""
    tree = orjson.loads(text)
    assert check_tree_depth(tree, "x.json") == wide
    assert check_tree_refs(tree, "x.json").rounded == wide
