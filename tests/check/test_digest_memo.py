"""A run hashes each input file once per digest, and nothing outlives the run (issue 25).

A cached check of the 13 MB GitHub spec hashed it three times (the ad hoc name, the
outputs memo's key, its listing) and ``generate`` six. The digests live with the run's
``Inputs`` (parse/inputs.py): only bytes the run itself read are remembered, each under
the id of the object the run holds, so a freed string's reused id never answers for
another; ``sha256_hex`` itself keeps nothing, so a long ``serve`` holds no spec's bytes
for it. This machine's cache hashes with its own digest (cache/digest.py, BLAKE3), once a
run too: a cached check hashes the spec with it alone.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from blake3 import blake3
from helpers.inprocess import RunCli
from helpers.project import SPEC
from toolcat.cache import digest as cache_digest
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


class _CountingBlake3:
    """``blake3`` for ``cache/digest.py``: counts the bytes hashed per content."""

    def __init__(self) -> None:
        self.seen: list[bytes] = []

    def __call__(self, data: bytes = b"") -> Any:
        self.seen.append(bytes(data))
        return blake3(data)


# (sha256, the cache's digest) of the spec: generate writes its sha256 in the record
# and keys this machine's cache by the other; a cached check asks the cache alone.
@pytest.mark.parametrize(("command", "expected"), [("generate", (1, 1)), ("check", (0, 1))])
def test_the_spec_is_hashed_once_per_command(tmp_path: Path, toolcat: RunCli,
                                             monkeypatch: pytest.MonkeyPatch,
                                             command: str, expected: tuple[int, int]) -> None:
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TOOLCAT_CACHE", raising=False)
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(SPEC))
    args = ("--spec", spec, "--out", tmp_path / "out")
    assert toolcat("generate", "-q", *args).returncode == 0
    counting, fast = _Counting(), _CountingBlake3()
    monkeypatch.setattr(digests, "hashlib", counting)
    monkeypatch.setattr(cache_digest, "blake3", fast)
    run = toolcat(command, "-q", *args)
    assert run.returncode == 0, run.stderr
    if command == "check":
        assert "up to date" in run.stdout, run.stdout
    times = (counting.seen.count(spec.read_bytes()), fast.seen.count(spec.read_bytes()))
    assert times == expected, f"{command} hashed the spec (sha256, cache) {times} times"


def test_the_cache_digest_is_remembered_per_run(tmp_path: Path) -> None:
    """The run's ``Inputs`` hash their own bytes once per digest, a copy each time."""
    spec = tmp_path / "spec.json"
    spec.write_bytes(b"{}" + os.urandom(64))
    inputs, fast = Inputs(), _CountingBlake3()
    data = inputs(spec)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cache_digest, "blake3", fast)
        digest = cache_digest.cache_hasher(inputs)
        assert {digest(data) for _ in range(3)} == {blake3(data).hexdigest()}
        assert fast.seen.count(data) == 1, "the run hashed its own bytes more than once"
        copy = bytes(bytearray(data))
        assert digest(copy) == digest(copy) == blake3(data).hexdigest()
        assert fast.seen.count(data) == 3
        assert hasher(inputs)(data) == hashlib.sha256(data).hexdigest()
