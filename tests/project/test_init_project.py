"""``toolcat init`` in a project that is not this repository (no Makefile, no specs/).

From nothing to a checked catalog: init finds the OpenAPI document, writes a
config, a CI workflow and a pre-commit hook that only need ``toolcat`` on the
PATH, and names the next command; generate and check then pass. It never
overwrites a file, and a project with no spec or several is told what to pass.
"""

from __future__ import annotations

import json
import subprocess
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml
from helpers.generate import run_cli
from toolcat.init.templates import install_requirement, workflow_text

SPEC = {"openapi": "3.0.3", "info": {"title": "Media Library", "version": "1"},
        "paths": {"/items": {"get": {"operationId": "listItems",
                                     "responses": {"200": {"description": "ok"}}}}}}


def _project(tmp_path: Path, where: str = "api/openapi.json") -> Path:
    spec = tmp_path / where
    spec.parent.mkdir(parents=True, exist_ok=True)
    spec.write_text(json.dumps(SPEC))
    (tmp_path / "README.md").write_text("not a spec\n")
    (tmp_path / "package.json").write_text('{"name": "x", "version": "1.0.0"}')
    # A team's project is a git repository: regenerate commands are named from its root.
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    return tmp_path


def test_init_generate_check_in_an_empty_project(tmp_path: Path) -> None:
    root = _project(tmp_path)
    result = run_cli("init", cwd=root)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "wrote specs/toolcat.yaml", "wrote .github/workflows/toolcat.yml",
        "wrote .pre-commit-config.yaml", "wrote generated/.gitignore",
        "next: run `toolcat generate`, then commit the config, generated/ and the workflow"]
    config = yaml.safe_load((root / "specs" / "toolcat.yaml").read_text())
    assert config == {"catalogs": {"media_library": {
        "spec": "../api/openapi.json", "output": "../generated/media_library"}}}

    assert run_cli("generate", cwd=root).returncode == 0
    check = run_cli("check", cwd=root)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout == "media_library: up to date (1 tools)\n"
    module = (root / "generated" / "media_library" / "__init__.py").read_text()
    assert "Do not edit: run `toolcat generate media_library` instead." in module
    assert "make" not in module

    workflow = (root / ".github" / "workflows" / "toolcat.yml").read_text()
    parsed = yaml.safe_load(workflow)
    steps = parsed["jobs"]["catalogs"]["steps"]
    assert [s.get("run") for s in steps if "run" in s] == [
        'pipx install "$TOOLCAT_INSTALL"', "toolcat check"]
    # This checkout is installed editable (a local folder): the version, marked to be set.
    assert parsed["env"]["TOOLCAT_INSTALL"] == f"toolcat=={version('toolcat')}"
    assert "SET IT to git+URL@TAG" in workflow
    (cache,) = [s for s in steps if s.get("uses", "").startswith("actions/cache@")]
    assert cache["with"]["path"] == steps[-1]["env"]["TOOLCAT_CACHE_DIR"]
    assert "make" not in workflow
    assert (root / "generated" / ".gitignore").read_text() == "__pycache__/\n"

    hooks = yaml.safe_load((root / ".pre-commit-config.yaml").read_text())
    (hook,) = hooks["repos"][0]["hooks"]
    assert hooks["repos"][0]["repo"] == "local"
    assert hook["entry"] == "toolcat check"
    assert hook["language"] == "system"
    # Every catalog, also those added later: no files: pattern written at init time.
    assert hook["always_run"] is True
    assert "files" not in hook

    # toolcat's own output (catalog.json has an "openapi" key too) is not a candidate.
    (root / "specs" / "toolcat.yaml").unlink()
    again = run_cli("init", cwd=root)
    assert again.returncode == 0, again.stderr
    assert "wrote specs/toolcat.yaml" in again.stdout


def test_spec_at_the_root_and_config_elsewhere(tmp_path: Path) -> None:
    root = _project(tmp_path, "openapi.json")
    assert run_cli("init", cwd=root).returncode == 0
    # A config outside the default place: the module names --config.
    (root / "specs" / "toolcat.yaml").rename(root / "specs" / "catalogs.yaml")
    assert run_cli("generate", "--config", "specs/catalogs.yaml", cwd=root).returncode == 0
    module = (root / "generated" / "media_library" / "__init__.py").read_text()
    assert ("run `toolcat generate media_library --config specs/catalogs.yaml` instead"
            in module)
    (root / "openapi.json").write_text(json.dumps({**SPEC, "paths": {}}))
    stale = run_cli("check", "--config", "specs/catalogs.yaml", cwd=root)
    assert stale.returncode == 1
    assert ("fix: run `toolcat generate media_library --config specs/catalogs.yaml` and "
            "commit the result") in stale.stdout


def test_existing_files_are_kept(tmp_path: Path) -> None:
    root = _project(tmp_path)
    (root / ".pre-commit-config.yaml").write_text("repos: []\n")
    result = run_cli("init", cwd=root)
    assert result.returncode == 0, result.stderr
    assert "kept .pre-commit-config.yaml (exists): add the toolcat-check hook:" in result.stdout
    assert "  - repo: local" in result.stdout
    assert (root / ".pre-commit-config.yaml").read_text() == "repos: []\n"


@pytest.mark.parametrize(("specs", "message", "fix"), [
    ([], "no OpenAPI document found", "toolcat init --spec path/to/openapi.yaml"),
    (["a/openapi.json", "b/swagger.yaml"], "several OpenAPI documents found: a/openapi.json, "
     "b/swagger.yaml", "toolcat init --spec a/openapi.json"),
])
def test_no_spec_or_several(tmp_path: Path, specs: list[str], message: str, fix: str) -> None:
    for rel in specs:
        path = tmp_path / rel
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(SPEC) if rel.endswith(".json") else
                        "swagger: '2.0'\ninfo: {title: B, version: '1'}\npaths: {}\n")
    result = run_cli("init", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "fix: " in result.stderr
    assert fix in result.stderr
    assert not (tmp_path / "specs").exists()


def test_spec_given(tmp_path: Path) -> None:
    _project(tmp_path, "a/openapi.json")
    _project(tmp_path, "b/openapi.json")
    result = run_cli("init", "--spec", "b/openapi.json", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    config = yaml.safe_load((tmp_path / "specs" / "toolcat.yaml").read_text())
    assert config["catalogs"]["media_library"]["spec"] == "../b/openapi.json"
    missing = run_cli("init", "--spec", "c.json", cwd=tmp_path)
    assert missing.returncode == 2
    assert "c.json: spec file not found" in missing.stderr


@pytest.mark.parametrize(("direct_url", "requirement", "source"), [
    (None, "toolcat==0.1.0", "index"),
    ({"url": "https://git.example/team/toolcat.git",
      "vcs_info": {"vcs": "git", "requested_revision": "v0.1.0", "commit_id": "ab" * 20}},
     "git+https://git.example/team/toolcat.git@v0.1.0", "git"),
    ({"url": "https://git.example/team/toolcat.git",
      "vcs_info": {"vcs": "git", "commit_id": "ab" * 20}},
     f"git+https://git.example/team/toolcat.git@{'ab' * 20}", "git"),
    ({"url": "https://files.example/toolcat-0.1.0-py3-none-any.whl",
      "archive_info": {"hashes": {}}},
     "https://files.example/toolcat-0.1.0-py3-none-any.whl", "archive"),
    ({"url": "file:///home/me/dist/toolcat-0.1.0-py3-none-any.whl", "archive_info": {}},
     "toolcat==0.1.0", "local"),
    ({"url": "file:///home/me/toolcat", "dir_info": {"editable": True}},
     "toolcat==0.1.0", "local"),
])
def test_the_workflow_installs_what_runs_here(direct_url: dict[str, object] | None,
                                              requirement: str, source: str) -> None:
    assert install_requirement("0.1.0", direct_url) == (requirement, source)
    workflow = yaml.safe_load(workflow_text("0.1.0", direct_url))
    assert workflow["env"]["TOOLCAT_INSTALL"] == requirement
