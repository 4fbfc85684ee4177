"""``toolcat diff --base REV`` in a real, temporary git repository.

The working tree's catalogs (the config's, and every generated/*/catalog.json)
are compared with the same paths at REV; a catalog on one side only is all
tools added, or all removed.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from toolcat.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "generated" / "broadcast" / "catalog.json"
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com",
                           "-c", "commit.gpgsign=false", *args], cwd=repo,
                          capture_output=True, text=True, check=True)
    return done.stdout


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], cwd: Path,
        *args: str) -> tuple[int, str, str]:
    monkeypatch.chdir(cwd)
    monkeypatch.setattr(sys, "argv", ["toolcat", "diff", *args])
    with pytest.raises(SystemExit) as exc:
        main()
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return int(exc.value.code or 0), out, err


@pytest.fixture
def catalog() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_bytes())  # type: ignore[no-any-return]


def put(repo: Path, rel: str, doc: dict[str, Any]) -> None:
    path = repo / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=2))


@pytest.fixture
def repo(tmp_path: Path, catalog: dict[str, Any]) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    git(root, "init", "-q")
    put(root, "generated/demo/catalog.json", catalog)
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "catalog")
    return root


def names(doc: dict[str, Any]) -> list[str]:
    return [t["tool"]["name"] for t in doc["tools"]]


def test_unchanged_working_tree_is_an_empty_report(
        repo: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    assert run(monkeypatch, capsys, repo, "--base", "HEAD", "--fail-on", "any") == (0, "", "")


def test_a_changed_catalog_is_compared_with_the_revision(
        repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        catalog: dict[str, Any]) -> None:
    changed = copy.deepcopy(catalog)
    removed = changed["tools"].pop(0)["tool"]["name"]
    changed["digest"] = "sha256:changed"
    put(repo, "generated/demo/catalog.json", changed)
    code, out, _ = run(monkeypatch, capsys, repo, "--base", "HEAD", "--fail-on", "breaking")
    assert code == 1
    assert out.startswith(f"{catalog['name']} (generated/demo/catalog.json): 1 breaking")
    assert f"- {removed}  BREAKING" in out
    code, out, _ = run(monkeypatch, capsys, repo, "--base", "HEAD", "--format", "markdown")
    assert code == 0
    assert f"| `{removed}` | **breaking** | removed |" in out
    # Once committed, the same change is the difference between HEAD~1 and HEAD only.
    git(repo, "commit", "-q", "-am", "remove a tool")
    assert run(monkeypatch, capsys, repo, "--base", "HEAD")[1] == ""
    assert f"- {removed}  BREAKING" in run(monkeypatch, capsys, repo, "--base", "HEAD~1")[1]


def test_a_new_catalog_is_all_added_and_a_deleted_one_all_removed(
        repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        catalog: dict[str, Any]) -> None:
    put(repo, "generated/fresh/catalog.json", catalog)
    (repo / "generated/demo/catalog.json").unlink()
    code, out, _ = run(monkeypatch, capsys, repo, "--base", "HEAD", "--fail-on", "breaking")
    assert code == 1
    count = len(catalog["tools"])
    assert f"(generated/demo/catalog.json): {count} breaking, 0 compatible changes in " \
        f"{count} tools (0 added, {count} removed, 0 changed); {count} -> no catalog tools" \
        in out
    assert f"(generated/fresh/catalog.json): 0 breaking, {count} compatible changes in " \
        f"{count} tools ({count} added, 0 removed, 0 changed); no catalog -> {count} tools" \
        in out
    assert all(f"+ {n}  compatible" in out and f"- {n}  BREAKING" in out
               for n in names(catalog))


def test_the_config_names_catalogs_outside_generated(
        repo: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        catalog: dict[str, Any]) -> None:
    (repo / "specs").mkdir()
    (repo / "specs/toolcat.yaml").write_text(
        "catalogs:\n  elsewhere:\n    spec: api.json\n    output: ../out/elsewhere\n")
    smaller = copy.deepcopy(catalog)
    smaller["tools"] = smaller["tools"][:1]
    put(repo, "out/elsewhere/catalog.json", smaller)
    code, out, _ = run(monkeypatch, capsys, repo, "--base", "HEAD")
    assert code == 0
    assert "(out/elsewhere/catalog.json): 0 breaking, 1 compatible change in 1 tool" in out
    # Run from a subfolder, the config is found with --config and paths stay relative.
    code, sub, _ = run(monkeypatch, capsys, repo / "specs", "--base", "HEAD",
                       "--config", "toolcat.yaml")
    assert code == 0
    assert "(../out/elsewhere/catalog.json)" in sub


@pytest.mark.parametrize(("where", "args", "message"), [
    ("repo", ("--base", "no-such-branch"), "git knows no commit 'no-such-branch'"),
    ("plain", ("--base", "HEAD"), "not inside a git repository"),
    ("empty", ("--base", "HEAD"), "no catalogs found"),
    ("repo", ("--base", "HEAD", "--config", "nope.yaml"), "nope.yaml: config file not found"),
])
def test_base_errors_exit_2(repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            capsys: pytest.CaptureFixture[str], where: str,
                            args: tuple[str, ...], message: str) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    empty = tmp_path / "empty"
    empty.mkdir()
    git(empty, "init", "-q")
    git(empty, "commit", "-q", "--allow-empty", "-m", "nothing")
    cwd = {"repo": repo, "plain": plain, "empty": empty}[where]
    code, out, err = run(monkeypatch, capsys, cwd, *args)
    assert (code, out) == (2, "")
    assert message in err
    assert "fix: " in err
