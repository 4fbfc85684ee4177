"""The folder's record lets `check` confirm an unchanged folder without regenerating.

`generate` writes ``.toolcat-inputs.json`` (generator/output/record.py). `check`
trusts it only when every input it lists is byte-for-byte unchanged and the
folder holds exactly the files it lists; every other case takes the ordinary
path. Each input is changed in turn below, and each must defeat the record.
"""

from __future__ import annotations

import importlib.metadata
import shutil
from collections.abc import Callable
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from helpers.fixtures import write_spec
from helpers.generate import run_cli

import generator.output.record as record_module
from generator import identity, pipeline
from generator.cli import cli
from generator.config import Target, load_config
from generator.output.files import on_disk
from generator.output.record import confirmed
from generator.vocab.files import RECORD_FILE

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


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("project")
    write_spec(root / "api", SPEC)
    write_spec(root / "api", WIDGET, "schemas/widget.yaml")
    (root / "api" / "overrides.yaml").write_text(OVERRIDES)
    (root / "toolcat.yaml").write_text(CONFIG)
    result = run_cli("generate", "--config", root / "toolcat.yaml")
    assert result.returncode == 0, result.stderr
    return root


@pytest.fixture
def project(generated: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(generated, copy)
    return copy


def _target(project: Path) -> Target:
    return load_config(project / "toolcat.yaml")[0]


def _confirmed(project: Path) -> int | None:
    target = _target(project)
    return confirmed(target, on_disk(target.output))


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


def _append(rel: str, text: bytes) -> Callable[[Path], None]:
    def edit(project: Path) -> None:
        with open(project / rel, "ab") as handle:
            handle.write(text)
    return edit


def _unlink(rel: str) -> Callable[[Path], None]:
    return lambda project: (project / rel).unlink()


def _replace(rel: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(project: Path) -> None:
        path = project / rel
        assert old in path.read_text()
        path.write_text(path.read_text().replace(old, new, 1))
    return edit


def _drop_root_spec(project: Path) -> None:
    data = _record(project)
    spec = dict(data["spec"])  # type: ignore[call-overload]
    del spec["spec.yaml"]
    _edit_record("spec", spec)(project)


CHANGES: dict[str, Callable[[Path], None]] = {
    "root spec edited (one newline)": _append("api/spec.yaml", b"\n"),
    "referenced spec file edited": _append("api/schemas/widget.yaml", b"\n"),
    "referenced spec file deleted": _unlink("api/schemas/widget.yaml"),
    "override file edited": _append("api/overrides.yaml", b"\n"),
    "prefix setting changed": _append("toolcat.yaml", b"    prefix: w_\n"),
    "name budget setting changed": _append("toolcat.yaml", b"    name_budget: 40\n"),
    "open-world setting changed": _append("toolcat.yaml", b"    open_world: true\n"),
    "catalog.json edited": _replace("out/widgets/catalog.json", "Cached", "Kept"),
    "__init__.py edited": _append("out/widgets/__init__.py", b"# hand edit\n"),
    "CATALOG.md deleted": _unlink("out/widgets/CATALOG.md"),
    "extra file in the folder": lambda p: (p / "out/widgets/notes.txt").write_text("x"),
    "record missing": _unlink(f"out/widgets/{RECORD_FILE}"),
    "record damaged": lambda p: (p / f"out/widgets/{RECORD_FILE}").write_bytes(b"{"),
    "record of another format": _edit_record("format", 2),
    "record made by another toolcat": _edit_record("generator", "sha256:" + "0" * 64),
    "record without the root spec": _drop_root_spec,
    "record listing no tool count": _edit_record("tools", None),
}


def test_untouched_folder_is_confirmed(project: Path) -> None:
    assert _confirmed(project) == 1


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_every_change_defeats_the_record(project: Path, change: str) -> None:
    CHANGES[change](project)
    assert _confirmed(project) is None, f"{change}: the record still vouched for the folder"


def test_another_toolcat_defeats_the_record(project: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(record_module, "generator_digest", lambda: "sha256:" + "1" * 64)
    assert _confirmed(project) is None


def test_record_is_portable_and_deterministic(project: Path, tmp_path: Path) -> None:
    data = (project / "out" / "widgets" / RECORD_FILE).read_bytes()
    assert str(project).encode() not in data
    assert str(tmp_path).encode() not in data
    record = _record(project)
    assert sorted(record["spec"]) == ["schemas/widget.yaml", "spec.yaml"]  # type: ignore[call-overload]
    assert sorted(record["outputs"]) == ["CATALOG.md", "__init__.py", "catalog.json"]  # type: ignore[call-overload]
    assert record["settings"] == {"name": "widgets", "spec": "api/spec.yaml", "prefix": "",
                                  "nameBudget": 64, "openWorld": False,
                                  "regenerate": "toolcat generate widgets --config toolcat.yaml"}
    again = run_cli("generate", "--config", project / "toolcat.yaml", seed="12345")
    assert again.returncode == 0, again.stderr
    assert (project / "out" / "widgets" / RECORD_FILE).read_bytes() == data


def test_check_trusts_a_matching_record_without_regenerating(
        project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCAT_CACHE", "off")

    def no_build(*args: object, **kwargs: object) -> None:
        raise AssertionError("check regenerated although the record matched")

    monkeypatch.setattr(pipeline, "build", no_build)
    monkeypatch.setattr(pipeline, "build_catalog", no_build)
    result = CliRunner().invoke(cli, ["check", "--config", str(project / "toolcat.yaml")])
    assert result.exit_code == 0, result.output
    assert "widgets: up to date (1 tools)" in result.output


def test_edited_catalog_with_an_intact_record_is_stale(project: Path) -> None:
    CHANGES["catalog.json edited"](project)
    result = run_cli("check", "--config", project / "toolcat.yaml")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "changed: catalog.json" in result.stdout


def test_stale_record_alone_is_not_stale(project: Path) -> None:
    """The record is a hint: a record that no longer matches only costs a regeneration."""
    _edit_record("generator", "sha256:" + "0" * 64)(project)
    result = run_cli("check", "--config", project / "toolcat.yaml")
    assert result.returncode == 0, result.stdout + result.stderr


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
