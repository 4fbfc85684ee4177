"""Relative ``$ref``s reach only files under the spec's folder, and no message quotes
a file that is not a spec.

``$ref: '../secret/.env'`` printed ``API_TOKEN=...`` in an error message, and a
JSON file reached that way was copied into catalog.json. Now a reference whose
target (symlinks resolved) lies outside the allowed folder is refused before the
file is opened (its existence is not even revealed); ``ref_root:`` in the catalog
config (or ``--ref-root`` ad hoc) widens that folder on purpose. Inside it, a
file that is not a JSON/YAML document is refused without quoting it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.fixtures import generate, write_spec
from helpers.generate import run_cli
from toolcat.errors import ToolcatError
from toolcat.load.bundle import bundle

SECRET = "API_TOKEN=s3cr3t-do-not-print"


def _spec(ref: str) -> dict[str, object]:
    return {"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {"/a": {
        "get": {"operationId": "a", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {
                "$ref": ref}}}}}}}}}


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "secret").mkdir()
    (tmp_path / "secret" / ".env").write_text(SECRET + "\n")
    (tmp_path / "secret" / "pet.json").write_text(
        f'{{"type": "object", "properties": {{"token": {{"enum": ["{SECRET}"]}}}}}}')
    return tmp_path


def test_dotenv_outside_the_folder_is_refused_unread(tree: Path) -> None:
    spec = write_spec(tree / "api", _spec("../secret/.env"))
    result = run_cli("generate", "--spec", spec, "--out", tree / "out")
    assert result.returncode == 2, result.stderr
    assert "s3cr3t" not in result.stderr + result.stdout
    assert "/paths/~1a/get/responses/200/content/application~1json/schema" in result.stderr
    assert "outside the folder toolcat may read references from" in result.stderr
    assert not (tree / "out").exists()


@pytest.mark.parametrize("ref", ["../secret/pet.json", "../secret/missing.json",
                                 "link/pet.json", "../../../../../../etc/passwd"])
def test_every_way_out_is_refused(tree: Path, ref: str) -> None:
    (tree / "api").mkdir()
    os.symlink(tree / "secret", tree / "api" / "link")
    spec = write_spec(tree / "api", _spec(ref))
    with pytest.raises(ToolcatError) as caught:
        bundle(spec)
    assert "outside the folder" in caught.value.render()
    assert "s3cr3t" not in caught.value.render()


def test_ref_root_widens_the_folder_on_purpose(tree: Path) -> None:
    spec = write_spec(tree / "api", _spec("../secret/pet.json"))
    catalog = generate(spec, validate=False, ref_root=tree)
    assert catalog["tools"][0]["tool"]["name"] == "a"
    result = run_cli("generate", "--spec", spec, "--out", tree / "out", "--ref-root", tree)
    assert result.returncode == 0, result.stderr


def test_ref_root_in_the_config_is_relative_to_it(tree: Path) -> None:
    write_spec(tree / "api", _spec("../secret/pet.json"))
    config = tree / "toolcat.yaml"
    config.write_text("catalogs:\n  api:\n    spec: api/spec.yaml\n    output: out\n")
    refused = run_cli("generate", "--config", config)
    assert refused.returncode == 2, refused.stderr
    assert "ref_root:" in refused.stderr
    config.write_text(config.read_text() + "    ref_root: .\n")
    allowed = run_cli("generate", "--config", config)
    assert allowed.returncode == 0, allowed.stderr


@pytest.mark.parametrize("content", [SECRET + "\n", f"{SECRET}: [unclosed\n",
                                     f"- {SECRET}\n- ]\n"])
def test_a_file_that_is_not_a_document_is_never_quoted(tree: Path, content: str) -> None:
    (tree / "api").mkdir()
    (tree / "api" / "notes.txt").write_text(content)
    spec = write_spec(tree / "api", _spec("notes.txt"))
    with pytest.raises(ToolcatError) as caught:
        bundle(spec, tree)
    assert "s3cr3t" not in caught.value.render(), caught.value.render()
