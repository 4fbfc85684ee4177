"""The ad hoc catalog name (from ``info.title``) is remembered by the root file's bytes.

A cached ``check`` without ``--name`` used to parse the whole spec only to name the
catalog (Stripe: 1.2 s -> 0.36 s). The memo must never give a stale name: a changed
title, a moved spec or a changed toolcat derive it again; no cache means no entry.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from toolcat.cache import names
from toolcat.cache.names import cached_name
from toolcat.cli import default_catalog_name
from toolcat.errors import ToolcatError

SPEC = "openapi: 3.0.3\ninfo: {{title: {title}, version: '1'}}\npaths: {{}}\n"


@pytest.fixture
def spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TOOLCAT_CACHE", raising=False)
    (tmp_path / "api").mkdir()
    path = tmp_path / "api" / "openapi.yaml"
    path.write_text(SPEC.format(title="Pet Store"))
    return path


class Counting:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, spec: Path) -> str:
        self.calls += 1
        return f"name{self.calls}"


def test_the_name_is_derived_once_per_root_file(spec: Path) -> None:
    derive = Counting()
    assert cached_name(spec, derive) == "name1"
    assert cached_name(spec, derive) == "name1"
    assert derive.calls == 1, "the second run parsed the spec again although it is the same"


def test_a_changed_title_gives_the_new_name(spec: Path) -> None:
    assert default_catalog_name(spec) == "pet_store"
    spec.write_text(SPEC.format(title="Zoo Keeper"))
    assert default_catalog_name(spec) == "zoo_keeper"


def test_another_place_or_toolcat_derives_again(spec: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    derive = Counting()
    cached_name(spec, derive)
    moved = tmp_path / "other" / "openapi.yaml"
    moved.parent.mkdir()
    moved.write_bytes(spec.read_bytes())
    assert cached_name(moved, derive) == "name2", "a name is keyed by the spec's place"
    monkeypatch.setattr(names, "code_digest", lambda: "another toolcat")
    assert cached_name(spec, derive) == "name3", "a name is keyed by toolcat's code"


def test_off_switch_keeps_nothing(spec: Path, tmp_path: Path,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCAT_CACHE", "off")
    derive = Counting()
    cached_name(spec, derive)
    cached_name(spec, derive)
    assert derive.calls == 2
    assert not (tmp_path / "cache").exists()


def test_an_unparsable_spec_is_refused_each_time(spec: Path) -> None:
    spec.write_text("openapi: [unclosed\n")
    for _ in range(2):
        with pytest.raises(ToolcatError, match=r"openapi\.yaml"):
            default_catalog_name(spec)
