"""The folder's record is provenance: portable, deterministic, and never evidence.

`generate` writes ``.toolcat-inputs.json`` (generator/output/record.py). `check`
compares it like every file but trusts nothing in it (tests/check/test_check_forgeries.py
forges it; tests/check/test_check_compares_everything.py).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import shutil
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from helpers.fixtures import write_spec
from helpers.generate import run_cli
from helpers.generated_copy import project_fixtures
from toolcat import identity
from toolcat.config import Target, load_config
from toolcat.vocab.files import RECORD_FILE

SPEC = {
    "openapi": "3.1.0", "info": {"title": "widgets", "version": "1"},
    "paths": {"/widgets/{id}": {"get": {
        "operationId": "getWidget",
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"$ref": "schemas/widget.yaml"}}}}}}}},
}
WIDGET = {"type": "object", "properties": {"name": {"type": "string"}}}
OVERRIDES = "operations:\n  getWidget:\n    append_description: Cached for a minute.\n"
CONFIG = ("catalogs:\n  widgets:\n    spec: api/spec.yaml\n    output: out/widgets\n"
          "    overrides: api/overrides.yaml\n")


generated, project = project_fixtures(SPEC, CONFIG, {
    "api/schemas/widget.yaml": WIDGET, "api/overrides.yaml": OVERRIDES})


def _target(project: Path) -> Target:
    return load_config(project / "toolcat.yaml")[0]


def _record(project: Path) -> dict[str, object]:
    data: dict[str, object] = orjson.loads(
        (project / "out" / "widgets" / RECORD_FILE).read_bytes())
    return data


def _edit_record(key: str, value: object) -> Callable[[Path], None]:
    def edit(project: Path) -> None:
        data = _record(project)
        data[key] = value
        (project / "out" / "widgets" / RECORD_FILE).write_bytes(orjson.dumps(data))
    return edit


def _replace(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(project: Path) -> None:
        path = project / rel
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, new, 1))
    return edit


def test_record_is_portable_and_deterministic(project: Path, tmp_path: Path) -> None:
    data = (project / "out" / "widgets" / RECORD_FILE).read_bytes()
    assert str(project).encode() not in data
    assert str(tmp_path).encode() not in data
    record = _record(project)
    assert sorted(record["spec"]) == ["schemas/widget.yaml", "spec.yaml"]  # type: ignore[call-overload]
    assert sorted(record["outputs"]) == ["CATALOG.md", "__init__.py", "catalog.json"]  # type: ignore[call-overload]
    assert record["settings"] == {"name": "widgets", "spec": "api/spec.yaml", "prefix": "",
                                  "nameBudget": 64, "openWorld": False, "models": False,
                                  "templates": None,
                                  # outside a repository: run from the folder holding
                                  # the catalog folder (test_regenerate_command.py)
                                  "regenerate": "toolcat generate widgets --config ../toolcat.yaml",
                                  "regenerateFrom": "the folder holding this one"}
    again = run_cli("generate", "--config", project / "toolcat.yaml", seed="12345")
    assert again.returncode == 0, again.stderr
    assert (project / "out" / "widgets" / RECORD_FILE).read_bytes() == data


def test_edited_catalog_with_an_intact_record_is_stale(project: Path) -> None:
    _replace("out/widgets/catalog.json", "Cached", "Kept")(project)
    result = run_cli("check", "--config", project / "toolcat.yaml")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "changed: catalog.json" in result.stdout


def test_stale_record_alone_is_stale(project: Path) -> None:
    """The record is a file of the folder: check renders and compares it too."""
    _edit_record("versions", ["toolcat==0"])(project)
    result = run_cli("check", "--config", project / "toolcat.yaml")
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"changed: {RECORD_FILE}" in result.stdout


def test_record_names_the_exact_versions_and_no_file_digest(project: Path) -> None:
    """Versions, not a digest of toolcat's files: editing toolcat leaves it alone. Only
    the exactly pinned packages: a click or mcp release changes no byte."""
    versions = dict(entry.split("==") for entry in _record(project)["versions"])  # type: ignore[attr-defined]
    for name in ("toolcat", "black", "datamodel-code-generator", "openapi-spec-validator",
                 "orjson", "pyyaml"):
        assert versions[name] == importlib.metadata.version(name), name
    assert not {"click", "jinja2", "pydantic", "mcp", "starlette"} & set(versions)
    assert "generator" not in _record(project)


def test_requirement_versions_are_the_installed_ones() -> None:
    versions = dict(entry.split("==") for entry in identity.requirement_versions())
    for name in ("toolcat", "black", "click", "jinja2", "openapi-spec-validator",
                 "orjson", "pydantic", "pyyaml", "jsonschema", "referencing"):
        assert name in versions, f"{name} missing from toolcat's identity"
    for name, version in versions.items():
        if version != "absent":
            assert importlib.metadata.version(name) == version, name


def test_a_template_edit_changes_the_identity(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    templates = tmp_path / "templates"
    shutil.copytree(identity.DEFAULT_TEMPLATES, templates)
    monkeypatch.setattr(identity, "DEFAULT_TEMPLATES", templates)
    identity.files_digest.cache_clear()
    try:
        before = identity.files_digest()
        first = sorted(templates.iterdir())[0]
        first.write_text(first.read_text() + "\n")
        identity.files_digest.cache_clear()
        assert identity.files_digest() != before
    finally:
        identity.files_digest.cache_clear()


def test_record_names_ref_root_and_validation_when_set(tmp_path: Path) -> None:
    """Settings that change what is read or refused are part of the provenance."""
    write_spec(tmp_path / "api" / "v1", {
        "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {"operationId": "getX", "responses": {"200": {
            "description": "ok", "content": {"application/json": {
                "schema": {"$ref": "../shared/x.json"}}}}}}}}}, "spec.yaml")
    write_spec(tmp_path / "api" / "shared", {"type": "object"}, "x.json")
    result = run_cli("generate", "--spec", tmp_path / "api" / "v1" / "spec.yaml",
                     "--out", tmp_path / "out", "--ref-root", tmp_path / "api",
                     "--validation", "warn", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    settings = orjson.loads((tmp_path / "out" / RECORD_FILE).read_bytes())["settings"]
    assert settings["refRoot"] == ".."
    assert settings["validation"] == "warn"
    assert str(tmp_path).encode() not in orjson.dumps(settings)


def _every_file_digest(tree: dict[str, Path]) -> str:
    """The definition: every regular file under each base, bytecode and the package's
    link to its templates aside, sorted by path, as ``Path.rglob`` lists them."""
    digest = hashlib.sha256()
    for label, base in tree.items():
        for file in sorted(base.rglob("*")):
            inside = file.relative_to(base).parts
            if label == "generator" and inside[0] == identity.TEMPLATES:
                continue
            if file.is_file() and "__pycache__" not in file.parts:
                digest.update(f"{label}/{file.relative_to(base).as_posix()}\0".encode())
                digest.update(file.read_bytes() + b"\0")
    return digest.hexdigest()


def test_the_identity_covers_every_file_in_path_order(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Names that sort differently as strings and as paths ("a-b/x" before "a/x" as text,
    after it as parts), bytecode, a nested folder, a linked folder: the same digest as
    the definition, on toolcat's own files and on this tree."""
    assert identity.files_digest.__wrapped__() == _every_file_digest(
        {"generator": identity.PACKAGE, "templates": identity.DEFAULT_TEMPLATES})
    package, templates = tmp_path / "package", tmp_path / "shipped"
    for folder in ("a", "a-b", "a/deep", "__pycache__", "a/__pycache__"):
        (package / folder).mkdir(parents=True, exist_ok=True)
        (package / folder / "x.py").write_text(f"# {folder}\n")
    templates.mkdir()
    (templates / "t.jinja").write_text("{{ x }}\n")
    (package / identity.TEMPLATES).symlink_to(templates)
    (package / "linked").symlink_to(package / "a")
    monkeypatch.setattr(identity, "PACKAGE", package)
    monkeypatch.setattr(identity, "DEFAULT_TEMPLATES", templates)
    assert identity.files_digest.__wrapped__() == _every_file_digest(
        {"generator": package, "templates": templates})
