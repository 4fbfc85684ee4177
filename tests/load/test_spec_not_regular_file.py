"""A spec must be a regular file of bounded size: a FIFO, a device or a folder is refused.

``--spec`` a FIFO hung forever (the cache hashed it before anything else) and
``--spec /dev/zero`` read until memory ran out. Every read of an input now opens
without blocking, refuses anything but a regular file, and stops one byte past
``limits.MAX_FILE_BYTES``; a ``$ref`` to such a file is refused at the reference.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.fixtures import write_spec
from helpers.generate import run_cli
from toolcat.errors import ToolcatError
from toolcat.load.bundle import bundle
from toolcat.parse import limits
from toolcat.parse.reader import read_document

SPEC = {"openapi": "3.0.0", "info": {"title": "t", "version": "1"}, "paths": {}}


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_generate_refuses_a_spec_that_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    spec = Path(kind)
    if kind == "fifo":
        spec = tmp_path / "spec.yaml"
        os.mkfifo(spec)
    result = run_cli("generate", "--spec", spec, "--out", tmp_path / "out")
    assert result.returncode == 2, result.stderr
    assert f"{spec}: not a regular file" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ToolcatError, match="not a regular file"):
        read_document(tmp_path)


@pytest.mark.parametrize("ref", ["pipe.yaml", ".", "", "sub/"])
def test_a_ref_to_a_fifo_or_folder_is_refused_at_the_ref(tmp_path: Path, ref: str) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "sub").mkdir()
    spec = write_spec(tmp_path, {**SPEC, "paths": {"/a": {"$ref": ref}}})
    with pytest.raises(ToolcatError, match="not a regular file") as caught:
        bundle(spec)
    assert caught.value.problems[0].location == "/paths/~1a", caught.value.render()


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    spec = write_spec(tmp_path, SPEC)
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", spec.stat().st_size - 1)
    with pytest.raises(ToolcatError, match="larger than toolcat's limit") as caught:
        read_document(spec)
    assert caught.value.problems[0].file == str(spec)
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", spec.stat().st_size)
    assert read_document(spec)[0] == SPEC
