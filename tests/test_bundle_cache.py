"""The bundle cache returns exactly what bundling would, or bundles again.

Every test builds a small two-file spec in a temporary folder and a cache folder
of its own. The bundler is wrapped so each test can see whether it ran: a hit
must not run it, and every kind of change or damage must.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.load import cache
from generator.load.bundle import Bundle, bundle
from generator.load.cache import cached_bundle


@pytest.fixture
def spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TOOLCAT_CACHE", raising=False)
    root = tmp_path / "api"
    root.mkdir()
    (root / "pet.yaml").write_text("type: object\nproperties:\n  name: {type: string}\n")
    (root / "openapi.yaml").write_text(
        "openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths:\n  /pets:\n    get:\n"
        "      operationId: listPets\n      responses:\n        '200':\n"
        "          description: ok\n          content:\n            application/json:\n"
        "              schema: {$ref: 'pet.yaml'}\n")
    return root / "openapi.yaml"


class Counting:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, path: Path) -> Bundle:
        self.calls += 1
        return bundle(path)


def _pet(result: Bundle) -> dict[str, object]:
    schemas = result.document["components"]["schemas"]
    return dict(schemas["pet"]["properties"])


def test_hit_skips_bundling_and_returns_the_same(spec: Path) -> None:
    make = Counting()
    first = cached_bundle(spec, make)
    second = cached_bundle(spec, make)
    assert make.calls == 1, "the second run bundled again although nothing changed"
    assert second.document == first.document == bundle(spec).document
    assert list(second.files.items()) == list(first.files.items())


def test_changed_referenced_file_bundles_again(spec: Path) -> None:
    make = Counting()
    cached_bundle(spec, make)
    (spec.parent / "pet.yaml").write_text("type: object\nproperties:\n  tag: {type: string}\n")
    result = cached_bundle(spec, make)
    assert make.calls == 2, "a change in a $ref'd file was served from the cache"
    assert _pet(result) == {"tag": {"type": "string"}}


def test_changed_root_bundles_again(spec: Path) -> None:
    make = Counting()
    cached_bundle(spec, make)
    spec.write_text(spec.read_text().replace("listPets", "listAllPets"))
    result = cached_bundle(spec, make)
    assert make.calls == 2
    assert "listAllPets" in json.dumps(result.document)


def test_changed_code_bundles_again(spec: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make = Counting()
    cached_bundle(spec, make)
    monkeypatch.setattr(cache, "code_digest", lambda: "another toolcat")
    cached_bundle(spec, make)
    assert make.calls == 2, "an entry written by other code was used"


def test_damaged_entry_bundles_again(spec: Path, tmp_path: Path) -> None:
    make = Counting()
    cached_bundle(spec, make)
    (entry,) = (tmp_path / "cache").glob("*.bundle")
    data = entry.read_bytes()
    assert b"listPets" in data
    entry.write_bytes(data.replace(b"listPets", b"listPots"))
    result = cached_bundle(spec, make)
    assert make.calls == 2, "an entry whose payload no longer matches its digest was used"
    assert "listPots" not in json.dumps(result.document)
    entry.write_bytes(b"garbage")
    cached_bundle(spec, make)
    assert make.calls == 3


def test_off_switch(spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCAT_CACHE", "off")
    make = Counting()
    cached_bundle(spec, make)
    cached_bundle(spec, make)
    assert make.calls == 2
    assert not (tmp_path / "cache").exists()


def test_value_marshal_cannot_hold_stays_uncached(spec: Path, tmp_path: Path) -> None:
    class Odd:
        pass

    def odd(path: Path) -> Bundle:
        result = bundle(path)
        result.document["x-odd"] = Odd()
        return result

    assert isinstance(cached_bundle(spec, odd).document["x-odd"], Odd)
    assert not list((tmp_path / "cache").glob("*.bundle"))


def test_pruned_to_the_most_recent(spec: Path, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)
    for title in ("a", "b", "c"):
        spec.write_text(spec.read_text().replace("title: ", f"title: {title}"))
        cached_bundle(spec, bundle)
    assert len(list((tmp_path / "cache").glob("*.bundle"))) == 2
