"""No verdict of `check` rests on a claim stored in a committed file.

Each forgery edits the committed folder and then recomputes every digest toolcat
writes (the record's output hashes, the module's header, catalog.json's "digest"),
as an attacker who read the code would: `check` must still exit 1, because it
regenerates (validation included) and compares bytes. Copying the spec's digest
into catalog.json's ``source`` must not skip validation, and a record naming
/dev/zero or a FIFO must be neither read nor followed.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner, Result
from helpers.generate import run_cli
from helpers.generated_copy import project_fixtures
from toolcat.catalog.format import tools_digest
from toolcat.cli import cli
from toolcat.jsonio import dumps
from toolcat.load.bundle import bundle
from toolcat.pipeline import spec_digest
from toolcat.vocab.digests import sha256_hex, sha256_tagged
from toolcat.vocab.files import CATALOG_FILE, MODULE_FILE, RECORD_FILE, SUMMARY_FILE

ITEM = {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
OK = {"200": {"description": "ok"}}
SPEC = {
    "openapi": "3.1.0", "info": {"title": "widgets", "version": "1"},
    "paths": {"/widgets/{id}": {
        "get": {"operationId": "getWidget", "parameters": [ITEM], "responses": OK},
        "delete": {"operationId": "deleteWidget", "parameters": [ITEM], "responses": OK},
    }},
}
CONFIG = "catalogs:\n  widgets:\n    spec: api/spec.yaml\n    output: out/widgets\n"


generated, project = project_fixtures(SPEC, CONFIG)


def _check(project: Path) -> Result:
    """check in this process: a subprocess per forgery costs a second of start-up."""
    return CliRunner().invoke(cli, ["check", "--config", str(project / "toolcat.yaml")])


def _out(project: Path) -> Path:
    return project / "out" / "widgets"


def _catalog(project: Path) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads((_out(project) / CATALOG_FILE).read_bytes())
    return data


def _tool(catalog: dict[str, Any], name: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in catalog["tools"] if e["tool"]["name"] == name)
    return found


def _write_catalog(project: Path, catalog: dict[str, Any]) -> None:
    catalog["digest"] = tools_digest([entry["tool"] for entry in catalog["tools"]])
    (_out(project) / CATALOG_FILE).write_bytes(dumps(catalog))


def _recompute_record(project: Path) -> None:
    """What a careful forger does last: the record's hashes match the forged files."""
    path = _out(project) / RECORD_FILE
    record = orjson.loads(path.read_bytes())
    record["outputs"] = {name: sha256_tagged((_out(project) / name).read_bytes())
                         for name in record["outputs"]}
    path.write_bytes(dumps(record))


def _edit_tool(name: str, edit: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def forge(project: Path) -> None:
        catalog = _catalog(project)
        edit(_tool(catalog, name))
        _write_catalog(project, catalog)
    return forge


def _set(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(entry: dict[str, Any]) -> None:
        node = entry
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return edit


def _module_with(code: bytes) -> Callable[[Path], None]:
    """Code added to the module, its header's output digest recomputed."""
    def forge(project: Path) -> None:
        path = _out(project) / MODULE_FILE
        first, second, body = path.read_bytes().split(b"\n", 2)
        body += code
        second = b"# toolcat-formatted: " + sha256_hex(body).encode()
        path.write_bytes(first + b"\n" + second + b"\n" + body)
    return forge


def _summary_edit(project: Path) -> None:
    path = _out(project) / SUMMARY_FILE
    data = path.read_bytes()
    assert DELETE.encode() in data
    path.write_bytes(data.replace(DELETE.encode(), b"get_widget_safe", 1))


DELETE = "delete_widget"
FORGERIES: dict[str, Callable[[Path], None]] = {
    "DELETE tool made read-only": _edit_tool(DELETE, _set(("tool", "annotations",
                                                           "readOnlyHint"), True)),
    "DELETE tool made not destructive": _edit_tool(DELETE, _set(
        ("tool", "annotations", "destructiveHint"), False)),
    "binding path changed": _edit_tool(DELETE, _set(("binding", "path"), "/admin/{id}")),
    "binding method changed": _edit_tool(DELETE, _set(("binding", "method"), "GET")),
    "description hand-edited": _edit_tool(DELETE, _set(("tool", "description"),
                                                       "Harmless.")),
    "code added to __init__.py": _module_with(b"__import__('os').system('true')\n"),
    "import hook added to __init__.py": _module_with(b"import antigravity  # noqa\n"),
    "CATALOG.md edited": _summary_edit,
}


def test_the_tool_forged_exists(generated: Path) -> None:
    names = [e["tool"]["name"] for e in _catalog(generated)["tools"]]
    assert DELETE in names, names


@pytest.mark.parametrize("forgery", sorted(FORGERIES))
def test_forged_folder_with_recomputed_record_is_stale(generated: Path, project: Path,
                                                      forgery: str) -> None:
    FORGERIES[forgery](project)
    _recompute_record(project)
    changed = [name for name in (CATALOG_FILE, MODULE_FILE, SUMMARY_FILE)
               if (_out(project) / name).read_bytes() != (_out(generated) / name).read_bytes()]
    assert len(changed) == 1, f"{forgery}: the forgery changed {changed}"
    result = _check(project)
    assert result.exit_code == 1, f"{forgery}: check passed\n{result.output}"
    assert "STALE" in result.output


def test_hand_edited_description_is_not_called_formatting(project: Path) -> None:
    FORGERIES["description hand-edited"](project)
    result = _check(project)
    assert result.exit_code == 1
    assert "formatting only" not in result.output, result.output
    assert DELETE in result.output.split("changed: catalog.json")[0], result.output


def test_copied_verdict_does_not_skip_validation(project: Path) -> None:
    """The spec turns invalid (a path parameter that is not required); catalog.json's
    source is forged to name the new spec's digest and the current validator."""
    spec = project / "api" / "spec.yaml"
    spec.write_text(spec.read_text().replace("required: true", "required: false"))
    generate = run_cli("generate", "--config", project / "toolcat.yaml")
    assert generate.returncode == 2, "generate accepts the broken spec: fix the fixture"
    scratch = project / "scratch"
    made = run_cli("generate", "--spec", spec, "--out", scratch, "--name", "widgets")
    assert made.returncode == 2
    catalog = _catalog(project)
    catalog["source"]["sha256"] = _spec_digest(spec)
    _write_catalog(project, catalog)
    _recompute_record(project)
    result = run_cli("check", "--config", project / "toolcat.yaml")
    assert result.returncode == 2, result.stdout + result.stderr
    assert "invalid OpenAPI" in result.stderr


def _spec_digest(spec: Path) -> str:
    return spec_digest(bundle(spec).files, spec.resolve().parent)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_record_naming_dev_zero_and_a_fifo_is_not_read(project: Path) -> None:
    fifo = project / "api" / "pipe.yaml"
    os.mkfifo(fifo)
    path = _out(project) / RECORD_FILE
    record = orjson.loads(path.read_bytes())
    record["spec"] = {"../../../../../../../../dev/zero": "sha256:" + "0" * 64,
                      "pipe.yaml": "sha256:" + "0" * 64, **record["spec"]}
    path.write_bytes(dumps(record))
    result = run_cli("check", "--config", project / "toolcat.yaml", timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr   # forged, yet not read
    assert f"changed: {RECORD_FILE}" in result.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_fifo_and_symlinks_in_the_folder_are_reported_not_read(project: Path) -> None:
    out = _out(project)
    os.mkfifo(out / "extra.fifo")
    (out / CATALOG_FILE).unlink()
    (out / CATALOG_FILE).symlink_to("/dev/zero")
    result = run_cli("check", "--config", project / "toolcat.yaml", timeout=60)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "changed: catalog.json" in result.stdout
    assert "extra: extra.fifo" in result.stdout
