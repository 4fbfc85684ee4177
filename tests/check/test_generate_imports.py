"""An ad hoc ``generate`` of a JSON spec imports only what that run needs (issue 25).

Every small document pays the generating process's imports before its first byte is
read. pydantic (with the YAML reader of checked files) is for a config or an override
file, the JSONPath engine for overlays, the Swagger 2.0 converter for a 2.0 document,
urllib.request (and http.client under it) for a ``file:`` URI in a ``$ref``: a run that
has none of them imports none of them; PyYAML is for a YAML file. A second run that has
an override file, an overlay and a 2.0 document shows the probe sees each of them
imported when needed. The probe writes the parent's ``sys.modules`` as it exits (the
forked validator is not the generating process).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SPEC = {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"},
        "paths": {"/pets/{id}": {"get": {
            "operationId": "getPet",
            "parameters": [{"name": "id", "in": "path", "required": True,
                            "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "object",
                           "properties": {"name": {"type": "string"}}}}}}}}}}}
SWAGGER = {"swagger": "2.0", "info": {"title": "Pets", "version": "1"},
           "paths": {"/pets": {"get": {"operationId": "listPets",
                                       "responses": {"200": {"description": "ok"}}}}}}
OVERLAY = """overlay: 1.0.0
info: {title: t, version: '1'}
actions:
  - target: $.info
    update: {description: patched}
"""
OVERRIDES = """operations:
  listPets: {title: List the pets}
"""

PROBE = """
import atexit, json, os, sys
written = sys.argv.pop(1)
parent = os.getpid()
def write():
    if os.getpid() == parent:
        open(written, "w").write(json.dumps(sorted(sys.modules)))
atexit.register(write)
from toolcat.cli import main
sys.argv[0] = "toolcat"
main()
"""

# Imported only by a run that needs them (the module, and what it brings).
HEAVY = ("pydantic", "pydantic_core", "jsonpath_rfc9535", "urllib.request", "http.client",
         "toolcat.parse.checked_yaml", "toolcat.config.checked", "toolcat.overrides.schema",
         "toolcat.load.swagger2", "yaml", "toolcat.parse.yaml_reader",
         "importlib.metadata")   # versions come from the folder names (identity.py)


def _modules(tmp_path: Path, *args: str) -> list[str]:
    written = tmp_path / "modules.json"
    env = {**os.environ, "TOOLCAT_CACHE": "off"}
    done = subprocess.run([sys.executable, "-c", PROBE, str(written), "generate", "-q",
                           *args, "--out", "out"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out" / "catalog.json").is_file()
    names: list[str] = json.loads(written.read_text())
    return names


def _loaded(names: list[str], package: str) -> bool:
    return any(n == package or n.startswith(package + ".") for n in names)


def test_a_json_spec_imports_no_pydantic_jsonpath_or_converter(tmp_path: Path) -> None:
    (tmp_path / "openapi.json").write_text(json.dumps(SPEC))
    names = _modules(tmp_path, "--spec", "openapi.json")
    assert _loaded(names, "toolcat.model.build"), "the probe saw no drafting"
    heavy = [p for p in HEAVY if _loaded(names, p)]
    assert heavy == [], f"an ad hoc generate of a JSON spec imported {heavy}"


def test_overrides_overlays_and_swagger_import_what_they_need(tmp_path: Path) -> None:
    (tmp_path / "swagger.json").write_text(json.dumps(SWAGGER))
    (tmp_path / "overlay.yaml").write_text(OVERLAY)
    (tmp_path / "overrides.yaml").write_text(OVERRIDES)
    names = _modules(tmp_path, "--spec", "swagger.json", "--overlay", "overlay.yaml",
                     "--overrides", "overrides.yaml")
    missing = [p for p in HEAVY if p not in ("urllib.request", "http.client",
                                              "importlib.metadata")
               and not _loaded(names, p)]
    assert missing == [], f"the probe did not see {missing} imported"
    catalog = json.loads((tmp_path / "out" / "catalog.json").read_text())
    assert [t["tool"]["title"] for t in catalog["tools"]] == ["List the pets"]
