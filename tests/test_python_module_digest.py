"""The Python module reuses the bytes on disk only when black would produce them again.

``render_python`` skips black when the module on disk records the digest of this
very input and its body still hashes to the recorded output digest. Each test
below breaks one of those two conditions and watches black run again; the first
shows the skip itself happens (black replaced by a function that fails).
"""

from __future__ import annotations

import dataclasses

import black
import pytest

from generator.model.types import Catalog
from generator.render import python_module
from generator.render.python_module import render_python


def _no_black(text: str) -> str:
    raise AssertionError("black ran although the module on disk could be reused")


@pytest.fixture(scope="module")
def fresh(example_catalog: Catalog) -> bytes:
    return render_python(example_catalog)


def test_whole_module_is_black_formatted(fresh: bytes) -> None:
    mode = black.Mode(target_versions={black.TargetVersion.PY311}, line_length=88)
    text = fresh.decode()
    assert black.format_str(text, mode=mode) == text, "header lines break black's format"


def test_header_names_both_digests(fresh: bytes) -> None:
    first, second, body = fresh.split(b"\n", 2)
    assert first.startswith(python_module.RENDERED.encode()), first
    assert second.decode() == python_module.FORMATTED + python_module._sha256(body)


def test_unchanged_module_is_reused_without_black(example_catalog: Catalog, fresh: bytes,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(python_module, "black_format", _no_black)
    assert render_python(example_catalog, previous=fresh) == fresh


def test_hand_edited_body_is_formatted_again(example_catalog: Catalog, fresh: bytes) -> None:
    edited = fresh.replace(b"def load()", b"def load( )")
    assert edited != fresh
    assert render_python(example_catalog, previous=edited) == fresh


def test_new_input_is_formatted_again(example_catalog: Catalog, fresh: bytes) -> None:
    tools = example_catalog.tools[:-1]
    fewer = dataclasses.replace(example_catalog, tools=tools)
    result = render_python(fewer, previous=fresh)
    assert result == render_python(fewer)
    assert result != fresh
    assert example_catalog.tools[-1].name.encode() not in result


def test_black_version_is_part_of_the_input(example_catalog: Catalog, fresh: bytes,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(python_module, "version", lambda name: "0.0.0")
    calls: list[str] = []
    original = python_module.black_format

    def counting(text: str) -> str:
        calls.append(text)
        return original(text)

    monkeypatch.setattr(python_module, "black_format", counting)
    result = render_python(example_catalog, previous=fresh)
    assert calls, "a module formatted by another black version was reused"
    assert result.split(b"\n", 1)[0] != fresh.split(b"\n", 1)[0]
