"""models.py's bytes are black's: ruff only prepares black's input.

ruff formats datamodel-code-generator's module in black's mode first
(text/python_format.ruff_prepared), so that black's first pass leaves it unchanged and
black skips its second (on Stripe 12 CPU seconds instead of 25). The bytes are those of
black alone on the unprepared module, on the example API and on a corpus document
(Stripe's and GitHub's too, measured once: docs/performance.md).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.generate import build
from helpers.paths import shared
from toolcat.model.types import Catalog
from toolcat.models import render
from toolcat.text.python_format import black_format, ruff_prepared

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
    module, prepared, data = _render(catalog, monkeypatch)
    alone = black_format(module)
    assert module != alone, "the module needs formatting: nothing would be compared"
    assert data == alone.encode(), "models.py differs from black's formatting of the module"
    assert ruff_prepared(module) == alone, "ruff's formatting differs from black's"
    assert data == prepared.encode(), \
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
    module, _prepared, data = _render(build(spec), monkeypatch)
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
