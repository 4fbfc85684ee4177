"""``toolcat diff --base REV`` refuses to compare catalogs that are stale against their specs.

After editing a spec but before regenerating, the committed catalog still shows
the old API: comparing it would print nothing and exit 0, as if the change were
harmless. The diff says which catalog is stale and the command that regenerates it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from helpers.generate import run_cli

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                    "-c", "commit.gpgsign=false", *args], cwd=repo, check=True,
                   capture_output=True)


def _spec(ops: list[str]) -> str:
    return json.dumps({"openapi": "3.1.0", "info": {"title": "Demo", "version": "1"},
                       "paths": {f"/{op}": {"get": {"operationId": op, "responses": {
                           "200": {"description": "ok"}}}} for op in ops}})


def test_stale_then_regenerated(tmp_path: Path) -> None:
    repo = tmp_path / "project"
    (repo / "specs").mkdir(parents=True)
    (repo / "specs" / "api.json").write_text(_spec(["listItems", "getItem"]))
    (repo / "specs" / "toolcat.yaml").write_text(
        "catalogs:\n  demo:\n    spec: api.json\n    output: ../generated/demo\n")
    _git(repo, "init", "-q")   # first: the module names its command from the repository root
    assert run_cli("generate", cwd=repo).returncode == 0
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "catalog")

    fresh = run_cli("diff", "--base", "HEAD", "--fail-on", "any", cwd=repo)
    assert (fresh.returncode, fresh.stdout, fresh.stderr) == (0, "", "")

    (repo / "specs" / "api.json").write_text(_spec(["listItems"]))
    stale = run_cli("diff", "--base", "HEAD", cwd=repo)
    assert stale.returncode == 2, stale.stdout + stale.stderr
    assert "catalog 'demo' is stale against its spec specs/api.json" in stale.stderr
    assert "fix: run `toolcat generate demo` first, then diff again" in stale.stderr
    assert stale.stdout == ""

    assert run_cli("generate", cwd=repo).returncode == 0
    after = run_cli("diff", "--base", "HEAD", "--fail-on", "breaking", cwd=repo)
    assert after.returncode == 1, after.stderr
    assert "- get_item  BREAKING" in after.stdout


def test_stale_says_where_to_run_the_fix(tmp_path: Path) -> None:
    """A catalog folder outside the repository: its module's command runs from the folder
    holding it, and the diff's fix says so, as check's and serve's do."""
    repo = tmp_path / "project"
    (repo / "specs").mkdir(parents=True)
    (repo / "specs" / "api.json").write_text(_spec(["listItems", "getItem"]))
    (repo / "specs" / "toolcat.yaml").write_text(
        "catalogs:\n  demo:\n    spec: api.json\n    output: ../../elsewhere/demo\n")
    _git(repo, "init", "-q")
    assert run_cli("generate", cwd=repo).returncode == 0
    _git(repo, "add", ".")
    _git(repo, "commit", "-q", "-m", "spec")
    (repo / "specs" / "api.json").write_text(_spec(["listItems"]))
    stale = run_cli("diff", "--base", "HEAD", cwd=repo)
    assert stale.returncode == 2, stale.stdout + stale.stderr
    assert ("fix: run `toolcat generate demo --config ../project/specs/toolcat.yaml` from "
            f"{tmp_path / 'elsewhere'} first, then diff again") in stale.stderr, stale.stderr
