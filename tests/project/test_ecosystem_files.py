"""The files other repositories use toolcat through: the pre-commit hook and the Action.

Both run the toolcat of the tag a team names (``rev:`` / ``@tag``), installed from
this repository, and ``toolcat check`` on every catalog of the config. The Action's
steps run here as a runner would run them (bash, the same environment variables),
installing this checkout into a fresh venv and checking a project with it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from helpers.paths import REPO

SPEC = REPO / "tests" / "fixtures" / "verify_token" / "openapi.yaml"


def test_the_pre_commit_hook_checks_every_catalog() -> None:
    (hook,) = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "toolcat-check"
    assert hook["language"] == "python"          # pre-commit installs this repository
    assert hook["entry"] == "toolcat check"
    assert hook["pass_filenames"] is False       # check reads the config, never file names
    assert hook["always_run"] is True            # no pattern can miss a later catalog
    assert "files" not in hook


def _action() -> dict[str, object]:
    action: dict[str, object] = yaml.safe_load((REPO / "action.yml").read_text())
    return action


def test_the_action_never_pastes_an_input_into_a_script() -> None:
    steps = _action()["runs"]["steps"]  # type: ignore[index]
    for step in steps:
        assert "${{" not in step.get("run", ""), step


def _runner_steps(action_path: Path, temp: Path, args: str) -> list[tuple[str, dict[str, str]]]:
    """Each bash step with its env, the expressions a runner would fill filled in."""
    values = {"inputs.args": args, "github.action_path": str(action_path),
              "runner.temp": str(temp), "steps.python.outputs.python-path": sys.executable}
    out = []
    for step in _action()["runs"]["steps"]:  # type: ignore[index]
        if "run" not in step:
            continue
        env = {k: re.sub(r"\$\{\{ *([^}]+?) *\}\}", lambda m: values[m.group(1)], str(v))
               for k, v in step.get("env", {}).items()}
        out.append((step["run"], env))
    return out


def test_the_action_installs_its_own_checkout_and_checks(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(SPEC, project / "openapi.yaml")
    (project / "toolcat.yaml").write_text("catalogs:\n  vault:\n    spec: openapi.yaml\n"
                                          "    output: generated/vault\n")
    generate = subprocess.run([Path(sys.executable).parent / "toolcat", "generate",
                               "--config", "toolcat.yaml"], cwd=project, capture_output=True,
                              text=True, check=False)
    assert generate.returncode == 0, generate.stderr
    temp = tmp_path / "runner"
    temp.mkdir()
    results = []
    for script, env in _runner_steps(REPO, temp, "--config toolcat.yaml"):
        results.append(subprocess.run(["bash", "-e", "-c", script], cwd=project,
                                      env={**os.environ, **env}, capture_output=True,
                                      text=True, check=False, timeout=600))
        assert results[-1].returncode == 0, results[-1].stderr
    assert results[-1].stdout == "vault: up to date (2 tools)\n"
    installed = temp / "toolcat-venv" / "bin" / "toolcat"
    assert installed.is_file()
    (project / "generated" / "vault" / "catalog.json").write_text("{}\n")
    script, env = _runner_steps(REPO, temp, "--config toolcat.yaml")[-1]
    stale = subprocess.run(["bash", "-e", "-c", script], cwd=project,
                           env={**os.environ, **env}, capture_output=True, text=True,
                           check=False)
    assert stale.returncode == 1
    assert "vault: STALE" in stale.stdout
