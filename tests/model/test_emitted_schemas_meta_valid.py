"""Every emitted schema passes the 2020-12 meta-schema, or the run exits 2 where to fix it.

Issue 9 item 7: in 3.0 ``{$ref: ..., type: 5, minimum: 'x'}`` had its siblings
copied into the tool; in 3.1 a request body ``{minimum: '1'}`` (which the OpenAPI
validator does not check) was written as is. Both passed with exit 0. Now each
emitted inputSchema and outputSchema is meta-validated and a failure is reported
at the spec's JSON pointer of the offending keyword.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from helpers.inprocess import RunCli


def _doc(version: str, op: dict[str, Any], schemas: dict[str, Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"openapi": version, "info": {"title": "t", "version": "1"},
                           "paths": {"/a": {"post": {"operationId": "postA",
                                                     "responses": {"200": {"description": "ok"}},
                                                     **op}}}}
    if schemas:
        doc["components"] = {"schemas": schemas}
    return doc


def _json_body(schema: dict[str, Any]) -> dict[str, Any]:
    return {"requestBody": {"content": {"application/json": {"schema": schema}}}}


def _response(schema: dict[str, Any]) -> dict[str, Any]:
    return {"responses": {"200": {"description": "ok", "content": {
        "application/json": {"schema": schema}}}}}


BODY = "/paths/~1a/post/requestBody/content/application~1json/schema"
RESPONSE = "/paths/~1a/post/responses/200/content/application~1json/schema"

# name: (document, spec pointer reported, emitted pointer, value shown)
CASES: dict[str, tuple[dict[str, Any], str, str, str]] = {
    "3.0 $ref siblings copied": (
        _doc("3.0.3", {"parameters": [{"name": "q", "in": "query", "schema": {
            "$ref": "#/components/schemas/X", "type": 5, "minimum": "x"}}]},
             {"X": {"type": "string"}}),
        "/paths/~1a/post/parameters/0/schema/type", "inputSchema", "/properties/q/type"),
    "3.1 body minimum as a string": (
        _doc("3.1.0", _json_body({"type": "object", "properties": {
            "n": {"type": "integer", "minimum": "1"}}})),
        f"{BODY}/properties/n/minimum", "inputSchema", "/properties/n/minimum"),
    "3.0 $ref sibling inside a component": (
        _doc("3.0.3", _json_body({"type": "object", "properties": {
            "n": {"$ref": "#/components/schemas/N"}}}),
             {"N": {"$ref": "#/components/schemas/M", "maxLength": -1},
              "M": {"type": "string"}}),
        "/components/schemas/N/maxLength", "inputSchema", "/$defs/N/maxLength"),
    "3.0 $ref sibling at a response root": (
        _doc("3.0.3", _response({"$ref": "#/components/schemas/R", "required": "id"}),
             {"R": {"type": "object", "properties": {"id": {"type": "string"}}}}),
        f"{RESPONSE}/required", "outputSchema", "/required"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_invalid_emitted_schema_exits_2_located(tmp_path: Path, case: str, toolcat: RunCli) -> None:
    doc, where, kind, emitted = CASES[case]
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(doc, sort_keys=False))
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--name", "api")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert f"spec.yaml: {where}: tool 'post_a': its {kind} would not be valid JSON Schema " \
           f"2020-12 at {emitted}:" in result.stderr, result.stderr
    assert "fix: correct the schema at that location" in result.stderr
    assert not out.exists()


def test_valid_siblings_still_generate(tmp_path: Path, toolcat: RunCli) -> None:
    """The guard refuses only what is invalid: a described $ref is fine."""
    doc = _doc("3.0.3", {"parameters": [{"name": "q", "in": "query", "schema": {
        "$ref": "#/components/schemas/X", "description": "why"}}]}, {"X": {"type": "string"}})
    spec = tmp_path / "spec.yaml"
    spec.write_text(yaml.safe_dump(doc, sort_keys=False))
    result = toolcat("generate", "--spec", spec, "--out", tmp_path / "out", "--name", "api")
    assert result.returncode == 0, result.stderr
