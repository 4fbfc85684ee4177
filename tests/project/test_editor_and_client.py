"""The ecosystem's conventions: the config's JSON Schema, the desktop client entry, completion.

* ``schemas/config.schema.json`` ships in the package, equals what the config's
  pydantic models give now, is printed by ``toolcat schema config``, accepts the
  configs toolcat writes and rejects a misspelt key (what an editor shows).
* ``toolcat mcp-config NAME`` prints an entry whose command is absolute and which
  works from another folder (``verify`` runs it from there), with the catalog's
  credential variables by name and never a value.
* click's shell completion answers for ``toolcat``.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest
import yaml
from helpers.paths import CONFIG, REPO
from helpers.verify_run import run_verify
from toolcat.config.checked import config_json_schema
from toolcat.init.templates import config_text

SHIPPED = REPO / "generator" / "toolcat" / "schemas" / "config.schema.json"
SPEC = REPO / "tests" / "fixtures" / "verify_token" / "openapi.yaml"
TOOLCAT = Path(sys.executable).parent / "toolcat"
SECRET = "zz-vault-secret-never-printed"


def test_the_shipped_schema_is_what_the_models_give() -> None:
    assert SHIPPED.read_text(encoding="utf-8") == config_json_schema(), (
        "regenerate: python -c 'from toolcat.config.checked import config_json_schema; "
        f"print(config_json_schema(), end=\"\")' > {SHIPPED.relative_to(REPO)}")


def test_schema_command_prints_it() -> None:
    run = subprocess.run([TOOLCAT, "schema", "config"], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stderr
    assert run.stdout == SHIPPED.read_text(encoding="utf-8")


def test_the_schema_accepts_written_configs_and_names_a_misspelt_key() -> None:
    validator = jsonschema.Draft202012Validator(json.loads(SHIPPED.read_text()))
    for config in (yaml.safe_load(CONFIG.read_text()),
                   yaml.safe_load(config_text("pets", "../openapi.yaml", "../generated/pets"))):
        assert list(validator.iter_errors(config)) == []
    bad = {"catalogs": {"pets": {"spec": "a.yaml", "output": "out", "modles": True}}}
    errors = [e.message for e in validator.iter_errors(bad)]
    assert errors == ["Additional properties are not allowed ('modles' was unexpected)"]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("client")
    shutil.copy(SPEC, root / "openapi.yaml")
    (root / "toolcat.yaml").write_text("catalogs:\n  vault:\n    spec: openapi.yaml\n"
                                       "    output: generated/vault\n"
                                       "    credentials: {token: VAULT_TOKEN}\n")
    run = subprocess.run([TOOLCAT, "generate", "--config", "toolcat.yaml"], cwd=root,
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    return root


def test_mcp_config_entry_names_credentials_and_works_from_any_folder(
        project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    env = {**os.environ, "VAULT_TOKEN": SECRET}
    run = subprocess.run([TOOLCAT, "mcp-config", "vault", "--config", "toolcat.yaml"],
                         cwd=project, env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert SECRET not in run.stdout + run.stderr
    server = json.loads(run.stdout)["mcpServers"]["vault"]
    assert server["command"] == str(TOOLCAT)
    assert server["args"] == ["serve", "vault", "--config", str(project / "toolcat.yaml"),
                              "--quiet"]
    assert server["env"] == {"VAULT_TOKEN": ""}
    assert "fill in under env: VAULT_TOKEN" in run.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    command = shlex.join([server["command"], *server["args"]])
    code, out, err = run_verify(monkeypatch, capsys, "--catalog",
                             project / "generated" / "vault" / "catalog.json",
                             "--command", command, "--timeout", "60")
    assert code == 0, out + err
    assert "2 catalog tools, 2 server tools" in out


def test_bash_completion_script() -> None:
    env = {**os.environ, "_TOOLCAT_COMPLETE": "bash_source"}
    run = subprocess.run([TOOLCAT], env=env, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    assert "_toolcat_completion()" in run.stdout
    env = {**os.environ, "_TOOLCAT_COMPLETE": "bash_complete", "COMP_WORDS": "toolcat mcp",
           "COMP_CWORD": "1"}
    run = subprocess.run([TOOLCAT], env=env, capture_output=True, text=True, check=False)
    assert run.stdout.splitlines() == ["plain,mcp-config"]
