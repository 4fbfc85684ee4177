"""Broken references: located exit 2 where a tool needs them, harmless where none does.

* A ``$ref`` inside an ``x-`` extension is not part of any tool: train-travel's
  ``x-topics`` points at a Markdown file that is not there, and it still generates.
* ``$ref: null`` (YAML reads an unquoted ``#...`` as a comment) and a dangling
  ``$ref`` stop generation with their JSON pointer and a fix, never a traceback.
  The validator refuses such a document first; with validation skipped (a
  recorded verdict) the generator itself names the pointer, and only when a tool
  needs the schema.
* A missing file, a missing pointer in a file, a remote URL and a reference cycle
  through non-schema objects are refused by the bundler, naming file and place.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.fixtures import generate, real, run_cli, write_spec
from toolcat.errors import ToolcatError

HEAD = 'openapi: 3.1.0\ninfo: {title: t, version: "1"}\n'
PET_WITH_NULL_REF = HEAD + """\
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/Pet"}
components:
  schemas:
    Pet:
      type: object
      properties:
        owner:
          $ref: #/components/schemas/Owner
    Owner: {type: object}
"""


def _error(path: Path, *, validate: bool) -> str:
    with pytest.raises(ToolcatError) as caught:
        generate(path, validate=validate)
    return caught.value.render()


def test_train_travel_extension_ref_does_not_stop_generation() -> None:
    catalog = generate(real("corpus", "train-travel", "openapi.yaml"))
    assert len(catalog["tools"]) == 7


def test_null_ref_needed_by_a_tool(tmp_path: Path) -> None:
    path = write_spec(tmp_path, PET_WITH_NULL_REF)
    text = _error(path, validate=False)
    assert "/components/schemas/Pet/properties/owner/$ref: $ref must be a string, " \
           "found None" in text
    assert "quote the reference" in text
    result = run_cli("generate", "--spec", path, "--out", tmp_path / "out")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "owner/$ref" in result.stderr


def test_null_ref_no_tool_needs(tmp_path: Path) -> None:
    spec = PET_WITH_NULL_REF.replace('{$ref: "#/components/schemas/Pet"}', "{type: object}")
    catalog = generate(write_spec(tmp_path, spec), validate=False)
    assert [e["tool"]["name"] for e in catalog["tools"]] == ["list_pets"]


def test_dangling_ref_needed_by_a_tool(tmp_path: Path) -> None:
    spec = PET_WITH_NULL_REF.replace("$ref: #/components/schemas/Owner",
                                     "$ref: '#/components/schemas/Nobody'")
    path = write_spec(tmp_path, spec)
    text = _error(path, validate=False)
    assert "/components/schemas/Pet/properties/owner/$ref: $ref " \
           "'#/components/schemas/Nobody' does not resolve" in text
    result = run_cli("generate", "--spec", path, "--out", tmp_path / "out")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "#/components/schemas/Nobody" in result.stderr


def test_missing_file_and_pointer(tmp_path: Path) -> None:
    write_spec(tmp_path, {"Owner": {"type": "object"}}, "models.yaml")
    spec = PET_WITH_NULL_REF.replace("$ref: #/components/schemas/Owner",
                                     "$ref: 'missing.yaml'")
    text = _error(write_spec(tmp_path, spec), validate=False)
    assert "spec.yaml: /components/schemas/Pet/properties/owner" in text
    assert "$ref names a file that does not exist" in text
    spec = PET_WITH_NULL_REF.replace("$ref: #/components/schemas/Owner",
                                     "$ref: 'models.yaml#/Nobody'")
    text = _error(write_spec(tmp_path, spec), validate=False)
    assert "$ref 'models.yaml#/Nobody' does not resolve: 'models.yaml' has no '/Nobody'" \
        in text


def test_remote_ref_refused(tmp_path: Path) -> None:
    spec = PET_WITH_NULL_REF.replace("$ref: #/components/schemas/Owner",
                                     "$ref: 'https://example.com/owner.yaml'")
    text = _error(write_spec(tmp_path, spec), validate=False)
    assert "remote $ref 'https://example.com/owner.yaml' refused" in text


def test_non_schema_cycle_refused(tmp_path: Path) -> None:
    write_spec(tmp_path, {"get": {"$ref": "#/get"}}, "item.yaml")
    spec = HEAD + "paths:\n  /loop: {$ref: 'item.yaml#/get'}\n"
    assert "$ref cycle through non-schema objects" in _error(write_spec(tmp_path, spec),
                                                             validate=False)
