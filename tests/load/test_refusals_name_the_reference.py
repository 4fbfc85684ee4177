"""The validator's crashes and impossible ``$ref`` file names are located refusals
(issue 28, item 14).

A ``$ref`` cycle through ``allOf`` made the validator recurse without end: reported at
``/`` with "report this to toolcat". ``$ref`` file names holding a NUL, a part over 255
bytes, a path over 4,096 bytes, or a symlink loop ended in "internal error". Each is
now refused at the reference (file and JSON pointer), naming it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from helpers.fixtures import write_spec
from helpers.generate import run_cli

INFO = {"title": "t", "version": "1"}
SCHEMA_AT = "/paths/~1x/get/responses/200/content/application~1json/schema"


def _spec(ref: str, components: dict[str, Any] | None = None) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "openapi": "3.1.0", "info": INFO,
        "paths": {"/x": {"get": {"operationId": "getX", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {
                "$ref": ref}}}}}}}}}
    if components:
        spec["components"] = {"schemas": components}
    return spec


def _refused(spec: Path, *extra: str) -> str:
    result = run_cli("generate", "--spec", spec, "--out", spec.parent / "out", *extra)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "internal error" not in result.stderr, result.stderr
    assert "report this" not in result.stderr, result.stderr
    assert "Traceback" not in result.stderr
    return result.stderr


def _all_of(ref: str) -> dict[str, Any]:
    return {"allOf": [{"$ref": ref}, {"description": "d"}]}


@pytest.mark.parametrize("schemas", [
    {"A": _all_of("#/components/schemas/B"), "B": _all_of("#/components/schemas/A")},
    {"A": _all_of("#/components/schemas/B"), "B": {"$ref": "#/components/schemas/C"},
     "C": _all_of("#/components/schemas/A")},
])
def test_a_ref_cycle_through_all_of_is_located(tmp_path: Path,
                                               schemas: dict[str, Any]) -> None:
    spec = write_spec(tmp_path, _spec("#/components/schemas/A", schemas))
    stderr = _refused(spec)
    assert f"{spec}: /components/schemas/A/allOf/0: invalid OpenAPI: $ref cycle " \
           "through allOf" in stderr, stderr
    assert "-> /components/schemas/B" in stderr


@pytest.mark.parametrize("ref", [
    "a\u0000b.json",                                 # NUL
    "x" * 300 + ".json",                             # a part over 255 bytes
    "/".join(["abcdefgh"] * 600) + ".json",          # a path over 4,096 bytes
    "loop1.json",                                    # a symlink loop
])
@pytest.mark.parametrize("mode", ["strict", "warn"])
def test_an_impossible_ref_file_name_is_refused_at_the_reference(
        tmp_path: Path, ref: str, mode: str) -> None:
    os.symlink("loop2.json", tmp_path / "loop1.json")
    os.symlink("loop1.json", tmp_path / "loop2.json")
    spec = write_spec(tmp_path, _spec(ref), "spec.json")
    stderr = _refused(spec, "--validation", mode)
    assert f"{spec.name}: {SCHEMA_AT}: $ref names a file toolcat cannot open" in stderr, stderr
