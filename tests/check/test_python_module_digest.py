"""black's output comes from black or from this machine's memo, never from the folder.

The module's header names the digest of black's input and of its output. A render
runs black unless this machine's cache (generator/cache/formatted.py) holds its
answer for exactly this input, black version and mode; the module on disk is never
read, so a hand-edited module with a recomputed header cannot make itself current.
The built-in template in black's style skips black (tests/check/test_black_style.py):
these tests render through a user's copy of it, which black formats.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path

import black
import pytest
from toolcat.cache.formatted import cached_formatter
from toolcat.identity import DEFAULT_TEMPLATES
from toolcat.model.types import Catalog
from toolcat.render import python_module
from toolcat.render.python_module import render_python
from toolcat.text import python_format
from toolcat.text.python_format import black_format, black_key


@pytest.fixture(scope="module")
def fresh(example_catalog: Catalog) -> bytes:
    return render_python(example_catalog)


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("TOOLCAT_CACHE", raising=False)
    return tmp_path / "cache"


@pytest.fixture
def own(tmp_path: Path) -> Path:
    """A user's templates folder with a copy of the module template: black formats it."""
    folder = tmp_path / "templates"
    folder.mkdir()
    shutil.copy(DEFAULT_TEMPLATES / python_module.TEMPLATE, folder)
    return folder


class Counting:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, text: str) -> str:
        self.calls += 1
        return black_format(text)


def test_whole_module_is_black_formatted(fresh: bytes) -> None:
    mode = black.Mode(target_versions={black.TargetVersion.PY311}, line_length=88)
    text = fresh.decode()
    assert black.format_str(text, mode=mode) == text, "header lines break black's format"


def test_header_names_both_digests(fresh: bytes) -> None:
    first, second, body = fresh.split(b"\n", 2)
    assert first.startswith(python_module.RENDERED.encode()), first
    assert second.decode() == python_module.FORMATTED + python_module._sha256(body)


def test_memo_answers_the_second_render(example_catalog: Catalog, fresh: bytes,
                                        cache: Path, own: Path) -> None:
    black_run = Counting()
    formatter = cached_formatter(black_run, black_key)
    assert render_python(example_catalog, own, formatter=formatter) == fresh
    assert render_python(example_catalog, own, formatter=formatter) == fresh
    assert black_run.calls == 1, "black ran again although this machine knew its answer"
    assert list(cache.glob("*.black"))


def test_memo_off_runs_black(example_catalog: Catalog, fresh: bytes, cache: Path, own: Path,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLCAT_CACHE", "off")
    black_run = Counting()
    formatter = cached_formatter(black_run, black_key)
    render_python(example_catalog, own, formatter=formatter)
    assert render_python(example_catalog, own, formatter=formatter) == fresh
    assert black_run.calls == 2


def test_new_input_is_formatted_again(example_catalog: Catalog, fresh: bytes,
                                      cache: Path, own: Path) -> None:
    black_run = Counting()
    formatter = cached_formatter(black_run, black_key)
    render_python(example_catalog, own, formatter=formatter)
    fewer = dataclasses.replace(example_catalog, tools=example_catalog.tools[:-1])
    result = render_python(fewer, own, formatter=formatter)
    assert black_run.calls == 2
    assert result != fresh
    assert example_catalog.tools[-1].name.encode() not in result


def test_black_version_is_part_of_the_key(example_catalog: Catalog, fresh: bytes,
                                          cache: Path, own: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    black_run = Counting()
    formatter = cached_formatter(black_run, black_key)
    render_python(example_catalog, own, formatter=formatter)
    monkeypatch.setattr(python_format, "installed_version", lambda name: "0.0.0")
    result = render_python(example_catalog, own, formatter=formatter)
    assert black_run.calls == 2, "an answer of another black version was reused"
    assert result.split(b"\n", 1)[0] != fresh.split(b"\n", 1)[0]


def test_render_takes_no_module_from_disk() -> None:
    """The old shortcut read the module on disk; nothing may take its place."""
    assert "previous" not in render_python.__code__.co_varnames
    assert not hasattr(python_module, "read_previous")
