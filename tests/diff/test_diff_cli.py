"""``toolcat diff OLD NEW``: sides, formats, colour, and exit codes (0, 1 by --fail-on, 2)."""

from __future__ import annotations

import copy
import json
import os
import pty
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers.inprocess import run_main

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "generated" / "broadcast" / "catalog.json"


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        *args: str | Path) -> tuple[int, str, str]:
    """``toolcat diff ARGS`` in process: its exit code, stdout and stderr."""
    result = run_main(monkeypatch, capsys, "diff", *args)
    return result.returncode, result.stdout, result.stderr


@pytest.fixture(scope="module")
def catalog() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_bytes())  # type: ignore[no-any-return]


def write(folder: Path, doc: dict[str, Any]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "catalog.json").write_text(json.dumps(doc, indent=2))
    return folder


def compatible_change(doc: dict[str, Any]) -> dict[str, Any]:
    """A new description on the first tool: compatible."""
    out = copy.deepcopy(doc)
    out["tools"][0]["tool"]["description"] += " More words."
    out["digest"] = "sha256:changed"
    return out


def breaking_change(doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The last tool removed: breaking."""
    out = copy.deepcopy(doc)
    removed = out["tools"].pop()["tool"]["name"]
    out["digest"] = "sha256:changed"
    return out, removed


def test_identical_catalogs_print_nothing_and_exit_0(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        catalog: dict[str, Any]) -> None:
    old, new = write(tmp_path / "old", catalog), write(tmp_path / "new", catalog)
    for fmt in ("text", "markdown"):
        assert run(monkeypatch, capsys, old, new, "--format", fmt, "--fail-on", "any") \
            == (0, "", "")


def test_a_side_is_a_file_or_a_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        catalog: dict[str, Any]) -> None:
    old = write(tmp_path / "old", catalog)
    new, removed = breaking_change(catalog)
    new_folder = write(tmp_path / "new", new)
    by_folder = run(monkeypatch, capsys, old, new_folder)
    by_file = run(monkeypatch, capsys, old / "catalog.json", new_folder / "catalog.json")
    assert by_folder[0] == by_file[0] == 0
    assert f"- {removed}  BREAKING" in by_folder[1]
    assert by_folder[1].replace(str(new_folder / "catalog.json"), "X") == \
        by_file[1].replace(str(new_folder / "catalog.json"), "X")


@pytest.mark.parametrize(("fail_on", "breaking", "compatible"),
                         [("none", 0, 0), ("any", 1, 1), ("breaking", 1, 0)])
def test_fail_on_sets_the_exit_code(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        catalog: dict[str, Any], fail_on: str, breaking: int, compatible: int) -> None:
    old = write(tmp_path / "old", catalog)
    broken = write(tmp_path / "broken", breaking_change(catalog)[0])
    reworded = write(tmp_path / "reworded", compatible_change(catalog))
    assert run(monkeypatch, capsys, old, broken, "--fail-on", fail_on)[0] == breaking
    assert run(monkeypatch, capsys, old, reworded, "--fail-on", fail_on)[0] == compatible
    assert run(monkeypatch, capsys, old, old, "--fail-on", fail_on)[0] == 0


def test_markdown_has_a_summary_line_and_a_table_per_tool(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        catalog: dict[str, Any]) -> None:
    new, removed = breaking_change(compatible_change(catalog))
    changed = catalog["tools"][0]["tool"]["name"]
    code, out, _ = run(monkeypatch, capsys, write(tmp_path / "old", catalog),
                       write(tmp_path / "new", new), "--format", "markdown")
    assert code == 0
    assert "**1 breaking**, 1 compatible change in 2 tools: 0 added, 1 removed, 1 changed" \
        in out
    assert f"| `{removed}` | **breaking** | removed |" in out
    assert f"#### `{changed}`: 0 breaking, 1 compatible" in out
    assert "| compatible | tool | description changed |" in out


@pytest.mark.parametrize(("args", "message"), [
    (("missing-old", "missing-new"), "missing-old: no such file or folder"),
    (("{folder}", "{folder}"), "this folder holds no catalog.json"),
    (("{bad}", "{bad}"), "not valid JSON"),
    (("{other}", "{other}"), "not a toolcat catalog: there is no 'tools' list"),
    (("{future}", "{future}"), "catalog format 99 is not one this toolcat reads"),
    (("{twice}", "{twice}"), "tool 'x' appears twice"),
    (("{one}",), "give two catalogs (OLD NEW), or --base REV"),
    (("{one}", "{one}", "--base", "HEAD"), "give either OLD NEW or --base REV, not both"),
    (("{one}", "{one}", "--format", "html"), "Invalid value for '--format'"),
])
def test_errors_exit_2_with_file_and_fix(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        catalog: dict[str, Any], args: tuple[str, ...], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "folder").mkdir()
    (tmp_path / "bad.json").write_text("{not json")
    (tmp_path / "other.json").write_text('{"openapi": "3.1.0"}')
    (tmp_path / "future.json").write_text(json.dumps({**catalog, "format": 99}))
    entry = {"tool": {"name": "x", "inputSchema": {}}, "binding": {"arguments": {}}}
    (tmp_path / "twice.json").write_text(json.dumps({**catalog, "tools": [entry, entry]}))
    write(tmp_path / "one", catalog)
    names = {"folder": "folder", "bad": "bad.json", "other": "other.json",
             "future": "future.json", "twice": "twice.json", "one": "one"}
    code, out, err = run(monkeypatch, capsys, *(a.format(**names) for a in args))
    assert code == 2
    assert message in err, err
    assert out == ""
    if "Invalid value" not in message and "give" not in message:
        assert "fix: " in err


def test_text_is_coloured_only_on_a_terminal(tmp_path: Path, catalog: dict[str, Any]) -> None:
    old = write(tmp_path / "old", catalog)
    new = write(tmp_path / "new", breaking_change(catalog)[0])
    command = [sys.executable, "-c", "from toolcat.cli import main; main()", "diff",
               str(old), str(new)]
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    piped = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    assert piped.returncode == 0
    assert "\x1b[" not in piped.stdout
    assert "BREAKING" in piped.stdout
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(command, stdout=follower, stderr=subprocess.PIPE, check=False,
                              env=env, timeout=60)
        os.close(follower)
        shown = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(leader)
    assert done.returncode == 0
    assert b"\x1b[31m\x1b[1mBREAKING" in shown
