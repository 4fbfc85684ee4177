"""The spec's digest worked out while the run goes on (pipeline.py, ``_digest_meanwhile``).

Once the validator's process has forked, a thread hashes the spec's files (hashlib lets
go of the interpreter's lock over large bytes): the digest the catalog records, and each
file's sha256 the folder's record names, remembered by the run's ``Inputs`` so the record
hashes nothing again. The answer is the one ``spec_digest`` gives; what the thread raised
is raised where the answer is asked for.
"""

from __future__ import annotations

import threading
from pathlib import Path

import orjson
import pytest
from helpers.paths import EXAMPLE_SPEC
from toolcat import pipeline
from toolcat.config import Target
from toolcat.errors import ToolcatError
from toolcat.output.record import make_record
from toolcat.parse.inputs import Inputs, SpecFiles
from toolcat.run import Run
from toolcat.vocab import digests
from toolcat.vocab.files import CATALOG_FILE


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


def test_the_records_catalog_digest_is_hashed_while_the_catalog_is_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """catalog.json, rendered before the catalog check, is hashed in a thread the run's
    ``Inputs`` remember: the record hashes it no more, and says the same."""
    _, files = _files(tmp_path)
    (spec,) = files
    target = Target(name="api", spec=spec, spec_label="api.json", output=tmp_path / "out")
    run = Run(target)
    built = pipeline.build(run, render=True)
    made = built.files or {}
    catalog = made[CATALOG_FILE]
    hashed: list[int] = []
    real = digests.sha256_hex
    monkeypatch.setattr("toolcat.parse.inputs.sha256_hex",
                        lambda data: hashed.append(len(data)) or real(data))
    for thread in threading.enumerate():   # the hashing thread, if still at work
        if thread.name == "toolcat-catalog-digest":
            thread.join()
    record = make_record(target, built.spec_files, made, len(built.catalog.tools), run.read)
    assert len(catalog) not in hashed, "the record hashed catalog.json again"
    monkeypatch.undo()
    assert record == make_record(target, built.spec_files, made, len(built.catalog.tools))
    assert orjson.loads(record)["outputs"][CATALOG_FILE] == digests.sha256_tagged(catalog)
