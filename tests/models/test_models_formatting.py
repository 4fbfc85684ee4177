"""models.py's bytes are black's: ruff only prepares black's input.

ruff formats datamodel-code-generator's module in black's mode first
(text/python_format.ruff_prepared), so that black's first pass leaves it unchanged and
black skips its second (on Stripe 12 CPU seconds instead of 25); black then reads each
repeated class-body statement once (text/python_format.format_repeats_once). The bytes
are those of black alone on the unprepared module, on the example API, on a corpus
document and on a fixed module made of the shapes where reading once could go wrong
(Stripe's, Cloudflare's and GitHub's too, measured once: docs/performance.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.generate import build
from helpers.paths import shared
from toolcat.model.types import Catalog
from toolcat.models import render
from toolcat.text.python_format import black_format, format_repeats_once, ruff_prepared

CORPUS_SAMPLE = ("museum/openapi.yaml",)


def _render(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str, bytes]:
    """One render: (the module before any formatting, black's input, the bytes)."""
    raw: list[str] = []
    given: list[str] = []

    def recording_prepared(text: str) -> str:
        raw.append(text)
        return ruff_prepared(text)

    def recording_black(text: str) -> str:
        given.append(text)
        return black_format(text)   # black's one run: the bytes written

    monkeypatch.setattr(render, "ruff_prepared", recording_prepared)
    data = render.render_models(catalog, formatter=recording_black)
    assert len(raw) == 1, "render_models formatted the module without ruff_prepared"
    (module,), (prepared,) = raw, given
    return module, prepared, data


def _check(catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    module, given, data = _render(catalog, monkeypatch)
    alone = black_format(module)
    assert module != alone, "the module needs formatting: nothing would be compared"
    assert data == alone.encode(), "models.py differs from black's formatting of the module"
    assert ruff_prepared(module) == alone, "ruff's formatting differs from black's"
    assert len(given) < len(data), "black read every repeated statement again"
    assert black_format(given) == given, \
        "black's input is not already in black's style: black runs its second pass"


def test_bytes_are_blacks_on_the_example(example_catalog: Catalog,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _check(example_catalog, monkeypatch)


@pytest.mark.parametrize("document", CORPUS_SAMPLE)
def test_bytes_are_blacks_on_corpus_documents(document: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    _check(build(shared("corpus", *document.split("/"))), monkeypatch)


# ruff and black part ways on an assignment that does not fit (Cloudflare's models):
# black parenthesises the value, ruff splits the annotation.
_DIVERGING = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "components": {"schemas": {"Since": {"type": ["string", "integer"], "default": -10080,
                                         "examples": ["2015-01-01T12:23:00Z"]}}},
    "paths": {f"/{name}": {"get": {
        "operationId": name,
        "parameters": [{"name": "since", "in": "query",
                        "schema": {"$ref": "#/components/schemas/Since"}}],
        "responses": {"200": {"description": "ok"}}}} for name in ("a", "b")}}


def test_black_decides_where_ruff_differs(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tmp_path / "spec.json"
    spec.write_text(json.dumps(_DIVERGING))
    module, _given, data = _render(build(spec), monkeypatch)
    alone = black_format(module)
    assert ruff_prepared(module) != alone, "ruff and black agree: nothing is tested"
    assert "= (\n        -10080\n    )" in alone
    assert data == alone.encode(), "models.py differs from black's formatting of the module"


def test_ruff_failing_leaves_the_text_to_black() -> None:
    broken = "def f(:\n"
    assert ruff_prepared(broken) == broken


def test_ruff_missing_leaves_the_text_to_black(monkeypatch: pytest.MonkeyPatch) -> None:
    import ruff

    def missing() -> str:
        raise FileNotFoundError("ruff")

    monkeypatch.setattr(ruff, "find_ruff_bin", missing)
    assert ruff_prepared("x  =  1\n") == "x  =  1\n"


# Repeats in the shapes where black reading a statement once could go wrong: the same
# string first in a body (a docstring black strips) and later (a string it keeps), a
# docstring with no blank line after it (black adds one), statements black splits in
# ways ruff does not (Cloudflare's), a trailing comma that explodes a call, comments,
# single quotes: nothing here is in black's style yet, so black runs both its passes.
_FIELDS = "".join(f"    {line}\n" for line in (
    "name: Annotated[str | None, Field(description='A description long enough that the "
    "statement does not fit on one line')] = None",
    '"""   padded field text   """',
    "since: Annotated[StrictStr | StrictInt | None, "
    "Field(examples=['2015-01-01T12:23:00Z'])] = -10080",
    "config = ConfigDict(extra='forbid',)",
    "kept: int = 1  # a comment black moves",
    "tail: Literal['a','b']"))
_DOC = '    """   Padded docstring whose spaces black strips.   """\n'
FIXED_MODULE = (
    "from typing import Annotated, Literal\n"
    "from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr\n"
    f"class A(BaseModel):\n{_DOC}{_FIELDS}\n\n"
    f"class B(BaseModel):\n    config = ConfigDict(extra='forbid',)\n{_DOC}{_FIELDS}\n"
    f"class C(BaseModel):\n{_DOC}{_FIELDS}"
    f"class D(BaseModel):\n{_DOC}\n    # a comment line\n{_FIELDS}"
    "class Long(\n    BaseModel):\n" + _DOC + _FIELDS)


def test_reading_repeats_once_gives_blacks_bytes() -> None:
    given: list[str] = []

    def recording_black(text: str) -> str:
        given.append(text)
        return black_format(text)

    alone = black_format(FIXED_MODULE)
    assert format_repeats_once(FIXED_MODULE, recording_black) == alone, \
        "reading repeats once changed black's bytes"
    assert len(given) == 1, "black ran on the whole module again: nothing was read once"
    assert given[0].count("_toolcat_repeat_") >= 10, "the repeats were not read once"
    assert black_format(alone) == alone


_LONG = "    y: Annotated[int, Field(description='a field read twice')] = 100000\n"


@pytest.mark.parametrize("text", [
    f"class A:\n    x: int  # fmt: skip\n{_LONG}{_LONG}",
    f"class A:\n    _toolcat_repeat_0: int = 100000\n{_LONG}{_LONG}",
    f"class A:\n{_LONG}{_LONG}".replace("\n", "\r\n"),
    f"class A:\n{_LONG}{_LONG}def f(:\n",
])
def test_text_it_cannot_read_goes_to_black_whole(text: str) -> None:
    given: list[str] = []

    def recording_black(value: str) -> str:
        given.append(value)
        return value

    assert format_repeats_once(text, recording_black) == text
    assert given == [text]
