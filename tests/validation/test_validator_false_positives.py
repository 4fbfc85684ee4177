"""Issue 22 item 7: where openapi-spec-validator rejects what the specification allows,
strict mode does not refuse; each such case is pinned by name with the specification's
words (load/validation/false_positives.py), and matched narrowly: the same value
anywhere the specification does not allow it keeps the validator's verdict.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from helpers.inprocess import RunCli
from toolcat.load.validation.false_positives import PINNED


def _swagger(responses: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"swagger": "2.0", "info": {"title": "t", "version": "1"}, "paths": {"/f": {"get": {
        "operationId": "f", "produces": ["application/octet-stream"],
        "responses": responses}}}, **extra}


FILE_RESPONSE = {"200": {"description": "the file", "schema": {"type": "file"}}}


def _run(tmp_path: Path, toolcat: RunCli, doc: dict[str, Any]) -> Any:
    spec = tmp_path / "swagger.json"
    spec.write_text(json.dumps(doc))
    return toolcat("generate", "--spec", spec, "--out", tmp_path / "out")


def test_every_pin_names_the_specification_text() -> None:
    assert [p.name for p in PINNED] == ["swagger2-file-response"]
    assert all("\"" in p.specification and len(p.specification) > 60 for p in PINNED)


def test_swagger2_file_response_generates_in_strict_mode(tmp_path: Path,
                                                         toolcat: RunCli) -> None:
    result = _run(tmp_path, toolcat, _swagger(FILE_RESPONSE))
    assert result.returncode == 0, result.stderr
    catalog = json.loads((tmp_path / "out" / "catalog.json").read_text())
    assert catalog["source"]["verdict"] == "valid"
    assert catalog["tools"][0]["binding"]["responseContentType"] == "application/octet-stream"


def test_a_file_type_where_the_specification_forbids_it_is_still_refused(
        tmp_path: Path, toolcat: RunCli) -> None:
    doc = _swagger({"200": {"description": "o", "schema": {"$ref": "#/definitions/D"}}},
                   definitions={"D": {"type": "object", "properties": {
                       "blob": {"type": "file"}}}})
    result = _run(tmp_path, toolcat, doc)
    assert result.returncode == 2, result.stderr
    assert "/definitions/D/properties/blob/type: invalid OpenAPI" in result.stderr


def test_openapi3_file_type_is_still_refused(tmp_path: Path, toolcat: RunCli) -> None:
    doc = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/f": {
        "get": {"responses": {"200": {"description": "o", "content": {
            "application/octet-stream": {"schema": {"type": "file"}}}}}}}}}
    result = _run(tmp_path, toolcat, doc)
    assert result.returncode == 2, result.stderr


def test_strict_refusal_names_warn_mode_and_overlays(tmp_path: Path, toolcat: RunCli) -> None:
    doc = _swagger({"200": {"description": "o", "schema": {"type": "file", "minimum": "x"}}})
    result = _run(tmp_path, toolcat, doc)
    assert result.returncode == 2, result.stderr
    assert "set `validation: warn` on the catalog" in result.stderr
    assert "OpenAPI Overlay" in result.stderr
    assert "in an overlay beside it" in result.stderr
