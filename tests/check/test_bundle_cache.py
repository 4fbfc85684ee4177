"""The caches return exactly what a run would produce, or let the run happen.

Every test builds a small two-file spec in a temporary folder and a cache folder
of its own. The bundler is wrapped so each test can see whether it ran: a hit
must not run it, and every kind of change or damage must. The outputs memo must
stop answering after any change to an input, to the output folder, or to toolcat.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from toolcat.cache import bundles, store
from toolcat.cache.bundles import cached_bundle
from toolcat.config import Target
from toolcat.load.bundle import Bundle, bundle
from toolcat.output import fresh
from toolcat.output.files import on_disk, write_catalog


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
    monkeypatch.setattr(bundles, "code_digest", lambda: "another toolcat")
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
    monkeypatch.setattr(store, "MAX_ENTRIES", 2)
    for title in ("a", "b", "c"):
        spec.write_text(spec.read_text().replace("title: ", f"title: {title}"))
        cached_bundle(spec, bundle)
    assert len(list((tmp_path / "cache").glob("*.bundle"))) == 2


# -- the outputs memo ------------------------------------------------------------------

OUTPUT = {"catalog.json": b"{}\n", "__init__.py": b"# module\n"}


@pytest.fixture
def target(spec: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Target:
    """A target whose output folder holds OUTPUT, recorded as what it produces."""
    overrides = spec.parent / "overrides.yaml"
    overrides.write_text("operations: {}\n")
    made = Target(name="api", spec=spec, spec_label=spec.name, output=tmp_path / "out",
                  prefix="api_", overrides=overrides)
    read = cached_bundle(spec, bundle).files
    write_catalog(made.output, OUTPUT)
    fresh.remember_outputs(made, read, OUTPUT, 7)
    return made


def test_unchanged_run_is_known_fresh(target: Target) -> None:
    assert fresh.fresh_outputs(target, on_disk(target.output)) == 7


@pytest.mark.parametrize("change", ["edited output", "extra output", "missing output",
                                    "referenced file", "root", "overrides", "settings",
                                    "toolcat", "off"])
def test_any_change_means_not_known(target: Target, change: str,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    out, folder = target.output, target.spec.parent
    if change == "edited output":
        (out / "__init__.py").write_bytes(b"# module, edited\n")
    elif change == "extra output":
        (out / "notes.md").write_text("hi\n")
    elif change == "missing output":
        (out / "catalog.json").unlink()
    elif change == "referenced file":
        (folder / "pet.yaml").write_text("type: object\n")
    elif change == "root":
        target.spec.write_text(target.spec.read_text() + "# a comment\n")
    elif change == "overrides":
        (folder / "overrides.yaml").write_text("operations: {listPets: {}}\n")
    elif change == "settings":
        target = replace(target, prefix="pets_")
    elif change == "toolcat":
        monkeypatch.setattr(fresh, "environment_digest", lambda: "another toolcat")
    elif change == "off":
        monkeypatch.setenv("TOOLCAT_CACHE", "off")
    known = fresh.fresh_outputs(target, on_disk(target.output))
    assert known is None, f"{change}: still reported fresh"


def test_nothing_known_when_the_spec_files_remembered_are_not_those_on_disk(
        target: Target, tmp_path: Path) -> None:
    for entry in (tmp_path / "cache").glob("*.outputs"):
        entry.unlink()
    read = bundle(target.spec).files
    read = {path: data + b"# not what is on disk\n" for path, data in read.items()}
    fresh.remember_outputs(target, read, OUTPUT, 7)
    assert fresh.fresh_outputs(target, on_disk(target.output)) is None


@pytest.mark.parametrize("name", ["openapi.json", "openapi.yaml"])
def test_one_file_is_stored_the_second_time_it_misses(
        name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A run that happens once writes no entry for a one-file spec; the second writes
    it, the third is a hit. (A spec of several files is written at once: the tests
    above.)"""
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TOOLCAT_CACHE", raising=False)
    spec = tmp_path / name
    spec.write_text(json.dumps({"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
                                "paths": {}}))
    make = Counting()
    cached_bundle(spec, make)
    assert not list((tmp_path / "cache").glob("*.bundle")), "a one-off run wrote an entry"
    second = cached_bundle(spec, make)
    assert len(list((tmp_path / "cache").glob("*.bundle"))) == 1
    third = cached_bundle(spec, make)
    assert make.calls == 2, "the entry the second run wrote was not used"
    assert third.document == second.document == bundle(spec).document
