"""`toolcat check` as CI runs it, and what `generate` does with bad input or a crash.

Exit codes are the contract: 0 up to date, 1 stale (with a diff and the command
that fixes it), 2 bad input (file and location named, never a traceback). The
CLI runs in a subprocess, exactly as the console script would.
"""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from helpers.generate import read_folder, run_cli
from helpers.generated_copy import fresh_copy
from helpers.paths import EXAMPLE_SPEC
from toolcat.output import files
from toolcat.output.files import Files

POINTER_OR_LINE = re.compile(r"^\S+\.json: (/paths/\S+|/components/\S+|line \d+)", re.M)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example, generated ad hoc once; each test works on its own copy.

    The ad hoc catalog name comes from the spec's folder, so every copy keeps the
    folder name ``broadcast``.
    """
    base = tmp_path_factory.mktemp("generated") / "broadcast"
    base.mkdir()
    shutil.copy(EXAMPLE_SPEC, base / "v1.json")
    result = run_cli("generate", "--spec", base / "v1.json", "--out", base / "out")
    assert result.returncode == 0, result.stderr
    return base


@pytest.fixture
def work(generated: Path, tmp_path: Path) -> Path:
    return fresh_copy(generated, tmp_path, "broadcast")


def _check(work: Path) -> Any:
    return run_cli("check", "--spec", work / "v1.json", "--out", work / "out")


def test_fresh_output_passes(work: Path) -> None:
    result = _check(work)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "up to date" in result.stdout


def test_edited_byte_is_stale(work: Path) -> None:
    catalog = work / "out" / "catalog.json"
    data = bytearray(catalog.read_bytes())
    at = data.index(b'"showFiller"') + 1
    data[at:at + 1] = b"S"
    catalog.write_bytes(bytes(data))

    result = _check(work)

    assert result.returncode == 1, result.stdout + result.stderr
    assert "changed: catalog.json" in result.stdout
    assert "--- " in result.stdout, "no unified diff"
    assert "+++ " in result.stdout, "no unified diff"
    assert '-          "ShowFiller": {' in result.stdout
    assert '+          "showFiller": {' in result.stdout
    fix = [line for line in result.stdout.splitlines() if line.startswith("fix:")]
    assert fix, "no fix: line"
    # The module's own command (outside a repository: run from the catalog folder).
    assert fix[0] == ("fix: run `toolcat generate --spec v1.json --out out --name "
                      f"broadcast_api` from {work} and commit the result"), fix[0]


def test_deleted_file_is_missing(work: Path) -> None:
    (work / "out" / "__init__.py").unlink()
    result = _check(work)
    assert result.returncode == 1
    assert "missing: __init__.py" in result.stdout


def test_extra_file_is_reported(work: Path) -> None:
    (work / "out" / "notes.md").write_text("hand-written\n")
    result = _check(work)
    assert result.returncode == 1
    assert "extra: notes.md" in result.stdout


# -- bad input: exit 2, a location, no traceback ---------------------------------------------

def _example() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(EXAMPLE_SPEC.read_bytes())
    return loaded


def _with(mutate: Any) -> bytes:
    document = copy.deepcopy(_example())
    mutate(document)
    return json.dumps(document, indent=2).encode()


def _body_schema(document: dict[str, Any]) -> dict[str, Any]:
    schema: dict[str, Any] = document["paths"]["/channels"]["post"]["requestBody"][
        "content"]["application/json"]
    return schema


BROKEN = {
    "invalid-json": EXAMPLE_SPEC.read_bytes().replace(b'"paths": {', b'"paths": {,', 1),
    "bad-parameter-location": _with(lambda d: d["paths"]["/channels"]["get"]["parameters"][0]
                                    .update({"in": "body2"})),
    "dangling-ref": _with(lambda d: _body_schema(d).update(
        schema={"$ref": "#/components/schemas/NoSuchRequest"})),
    # Caught by the validator rather than while building tools: nothing uses it.
    "dangling-ref-unused": _with(lambda d: d["components"]["schemas"].update(
        Unused={"type": "object", "properties": {"x": {"$ref": "#/components/schemas/Nope"}}})),
    "remote-ref": _with(lambda d: _body_schema(d).update(
        schema={"$ref": "https://example.com/x.json#/X"})),
}


# What each message must quote, so the reader can find the mistake.
NAMED = {
    "invalid-json": "invalid JSON",
    "bad-parameter-location": "/paths/~1channels/get/parameters/0/in",
    "dangling-ref": "#/components/schemas/NoSuchRequest",
    "dangling-ref-unused": "/components/schemas/Unused/properties/x/$ref",
    "remote-ref": "https://example.com/x.json#/X",
}


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_broken_spec_is_an_error(tmp_path: Path, case: str) -> None:
    spec = tmp_path / f"{case}.json"
    spec.write_bytes(BROKEN[case])
    for command in ("generate", "check"):
        result = run_cli(command, "--spec", spec, "--out", tmp_path / "out")
        assert result.returncode == 2, f"{command}: {result.stdout}{result.stderr}"
        assert "Traceback" not in result.stderr + result.stdout
        assert spec.name in result.stderr, result.stderr
        assert POINTER_OR_LINE.search(result.stderr), f"no location in: {result.stderr}"
        assert NAMED[case] in result.stderr, result.stderr
    assert not (tmp_path / "out").exists(), "a failed generate wrote output"


# -- an interrupted regen leaves the previous output whole ------------------------------------

def _old(out: Path) -> Files:
    files.write_catalog(out, {"catalog.json": b'{"old": true}\n', "__init__.py": b"# old\n"})
    return read_folder(out)


def test_failed_swap_keeps_previous_output(tmp_path: Path, example_files: Files,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    before = _old(out)
    rename = Path.rename

    def failing_rename(self: Path, target: Any) -> Any:
        if Path(target) == out and self.name.startswith(f".{out.name}.") and (
                self != files._backup(out)):
            raise OSError(28, "No space left on device")   # the staging folder's rename
        return rename(self, target)

    monkeypatch.setattr(Path, "rename", failing_rename)
    with pytest.raises(OSError, match="No space left"):
        files.write_catalog(out, example_files)
    monkeypatch.undo()

    assert read_folder(out) == before, "the previous output was not left whole"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"], "staging or backup left"


def test_failed_write_keeps_previous_output(tmp_path: Path, example_files: Files,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    before = _old(out)

    def failing_fsync(fd: int) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises(OSError, match="Input/output"):
        files.write_catalog(out, example_files)
    monkeypatch.undo()

    assert read_folder(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
