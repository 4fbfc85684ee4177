"""A run hashes each input file once, and nothing outlives the run (issue 25).

A cached check of the 13 MB GitHub spec hashed it three times (the ad hoc name, the
outputs memo's key, its listing) and ``generate`` six. The digests live with the run's
``Inputs`` (parse/inputs.py): only bytes the run itself read are remembered, each under
the id of the object the run holds, so a freed string's reused id never answers for
another; ``sha256_hex`` itself keeps nothing, so a long ``serve`` holds no spec's bytes
for it.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from helpers.inprocess import RunCli
from helpers.project import SPEC
from toolcat.parse.inputs import Inputs, hasher
from toolcat.vocab import digests
from toolcat.vocab.digests import sha256_hex


class _Counting:
    """``hashlib`` for ``vocab/digests.py``: counts ``sha256(data)`` per content."""

    def __init__(self) -> None:
        self.seen: list[bytes] = []

    def sha256(self, data: bytes = b"") -> Any:
        self.seen.append(bytes(data))
        return hashlib.sha256(data)


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> _Counting:
    counting = _Counting()
    monkeypatch.setattr(digests, "hashlib", counting)
    return counting


def test_a_run_hashes_the_bytes_it_read_once(tmp_path: Path, hashed: _Counting) -> None:
    spec = tmp_path / "spec.json"
    spec.write_bytes(b"{}" + os.urandom(64))
    inputs = Inputs()
    data = inputs(spec)
    expected = hashlib.sha256(data).hexdigest()
    assert [hasher(inputs)(data) for _ in range(3)] == [expected] * 3
    assert hashed.seen.count(data) == 1, "the run hashed its own bytes more than once"
    copy = bytes(bytearray(data))   # not the run's object: hashed, never remembered
    assert hasher(inputs)(copy) == hasher(inputs)(copy) == expected
    assert hashed.seen.count(data) == 3


def test_nothing_is_remembered_outside_a_run(tmp_path: Path, hashed: _Counting) -> None:
    data = os.urandom((1 << 20) + 7)
    assert sha256_hex(data) == sha256_hex(data) == hashlib.sha256(data).hexdigest()
    assert hasher(Inputs().read)(data) == hashlib.sha256(data).hexdigest()
    assert hashed.seen.count(data) == 3, "sha256_hex or a bare reader remembered a digest"
    spec = tmp_path / "spec.json"
    spec.write_bytes(data)
    first, second = Inputs(), Inputs()
    hasher(first)(first(spec))
    hasher(second)(second(spec))
    assert hashed.seen.count(data) == 5, "two runs shared a digest"


def test_ids_of_freed_strings_never_answer(tmp_path: Path) -> None:
    inputs = Inputs()
    spec = tmp_path / "spec.json"
    spec.write_bytes(b"{}")
    inputs(spec)
    for i in range(24):
        data = os.urandom(4096)   # freed at the next turn: its id may come back
        assert hasher(inputs)(data) == hashlib.sha256(data).hexdigest(), f"turn {i}"


@pytest.mark.parametrize("command", ["generate", "check"])
def test_the_spec_is_hashed_once_per_command(tmp_path: Path, toolcat: RunCli,
                                             monkeypatch: pytest.MonkeyPatch,
                                             command: str) -> None:
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TOOLCAT_CACHE", raising=False)
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    args = ("--spec", spec, "--out", tmp_path / "out")
    assert toolcat("generate", "-q", *args).returncode == 0
    counting = _Counting()
    monkeypatch.setattr(digests, "hashlib", counting)
    run = toolcat(command, "-q", *args)
    assert run.returncode == 0, run.stderr
    times = counting.seen.count(spec.read_bytes())
    assert times == 1, f"{command} hashed the spec {times} times"
