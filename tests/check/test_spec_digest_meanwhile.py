"""The spec's digest worked out while the run goes on (pipeline.py, ``_digest_meanwhile``).

Once the validator's process has forked, a thread hashes the spec's files (hashlib lets
go of the interpreter's lock over large bytes): the digest the catalog records, and each
file's sha256 the folder's record names, remembered by the run's ``Inputs`` so the record
hashes nothing again. The answer is the one ``spec_digest`` gives; what the thread raised
is raised where the answer is asked for.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.paths import EXAMPLE_SPEC
from toolcat import pipeline
from toolcat.errors import ToolcatError
from toolcat.parse.inputs import Inputs, SpecFiles
from toolcat.vocab import digests


def _files(tmp_path: Path) -> tuple[Inputs, SpecFiles]:
    spec = tmp_path / "api.json"
    spec.write_bytes(EXAMPLE_SPEC.read_bytes())
    read = Inputs()
    return read, SpecFiles({spec: read(spec)})


def test_the_digest_is_spec_digests_and_the_records_hashes_are_remembered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    read, files = _files(tmp_path)
    expected = pipeline.spec_digest(files, tmp_path)
    answer = pipeline._digest_meanwhile(files, tmp_path, (), read)
    assert answer() == expected
    assert answer() == expected, "asked twice, the same answer"
    hashed: list[int] = []
    monkeypatch.setattr("toolcat.parse.inputs.sha256_hex",
                        lambda data: hashed.append(len(data)) or digests.sha256_hex(data))
    (data,) = files.values()
    assert read.sha256_hex(data) == digests.sha256_hex(data)
    assert hashed == [], "the record hashed the spec again: the thread did not remember it"


def test_what_the_thread_raised_is_raised_where_the_answer_is_asked(
        tmp_path: Path) -> None:
    read, files = _files(tmp_path)
    missing = tmp_path / "overlay.yaml"   # spec_digest reads each overlay: this one is gone
    answer = pipeline._digest_meanwhile(files, tmp_path, (missing,), read)
    with pytest.raises(ToolcatError, match="cannot read file"):
        answer()


def test_a_built_catalog_records_the_same_digest(tmp_path: Path) -> None:
    read, files = _files(tmp_path)
    (spec,) = files
    loaded = pipeline.load_spec(spec, read=read)
    assert loaded.sha256 == pipeline.spec_digest(files, tmp_path)
    loaded.validated()
