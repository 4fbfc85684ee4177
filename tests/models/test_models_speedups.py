"""datamodel-code-generator's speedups (models/speedups.py) answer as the library does.

Each lookup of the ``base-model-index`` patch is run beside the library's own scan on
corpus documents whose ``allOf`` bases are looked up (the patch's function is wrapped
by one that asks both and compares), the generated classes are compared with and
without the patches, and the index is held to the scan on a list changed in every way
the library may change it.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest
from helpers.generate import build
from helpers.paths import shared
from toolcat.models import render
from toolcat.models import speedups as models_speedups
from toolcat.models.document import models_document
from toolcat.models.speedups import PATCHES, FirstByPath, speedups

SAMPLE = ("train-travel/openapi.yaml", "museum/openapi.yaml")


def _schema(document: str) -> dict[str, Any]:
    return models_document(build(shared("corpus", *document.split("/")))).schema


@pytest.mark.parametrize("document", SAMPLE)
def test_every_lookup_finds_what_the_scan_finds(document: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from datamodel_code_generator.model.base import DataModel
    from datamodel_code_generator.parser import _inherited_schemas as inherited

    scan = inherited.get_generated_base_models
    asked: list[int] = []
    install = PATCHES[0].install

    def checked_install() -> Any:
        undo = install()
        fast = inherited.get_generated_base_models

        def both(parser: Any, base_classes: list[Any]) -> list[Any]:
            found, expected = fast(parser, base_classes), scan(parser, base_classes)
            assert [id(m) for m in found] == [id(m) for m in expected], \
                f"base models of {[b.path for b in base_classes]}: index and scan differ"
            asked.append(sum(not isinstance(b.source, DataModel) for b in base_classes))
            return found

        inherited.get_generated_base_models = both
        return undo

    monkeypatch.setattr(models_speedups, "PATCHES",
                        (models_speedups.Patch(PATCHES[0].name, PATCHES[0].written_for,
                                               checked_install),))
    render.model_classes(_schema(document))
    assert sum(asked), "no base model was looked up in the index: nothing was compared"
    assert inherited.get_generated_base_models is scan, "the patch outlived the call"


def test_classes_are_the_same_without_the_patches(monkeypatch: pytest.MonkeyPatch) -> None:
    schema = _schema(SAMPLE[0])
    fast = render.model_classes(schema)
    monkeypatch.setattr(models_speedups, "PATCHES", ())
    assert render.model_classes(schema) == fast


def test_patches_are_written_for_the_installed_version() -> None:
    with speedups() as names:
        assert names == tuple(p.name for p in PATCHES), \
            "a patch is skipped: datamodel-code-generator is not the version it was written for"
    stale = models_speedups.Patch("stale", {"datamodel-code-generator": "0.0.1"},
                                  lambda: pytest.fail("installed against another version"))
    with speedups((stale,)) as names:
        assert names == ()


@dataclass
class _Reference:
    path: str


@dataclass(eq=False)
class _Model:
    reference: _Reference
    fields: tuple[Any, ...] = ()

    def invalidate_render_caches(self) -> None:   # DataModel.set_reference_path calls it
        pass


def _scan(models: list[_Model], path: str) -> _Model | None:
    return next((m for m in models if m.reference.path == path), None)


def test_the_index_follows_every_change_to_the_list() -> None:
    index = FirstByPath()
    models = [_Model(_Reference(p)) for p in ("#/a", "#/b", "#/a")]

    def agree() -> None:
        for path in ("#/a", "#/b", "#/c"):
            assert index.find(models, path) is _scan(models, path), path

    agree()
    models.append(_Model(_Reference("#/c")))           # grows
    agree()
    models[0] = _Model(_Reference("#/b"))              # replaced, same length
    agree()
    del models[0]                                      # shrinks
    agree()
    models.insert(0, _Model(_Reference("#/c")))        # grows, not at the end
    agree()
    other = list(models)                               # another list, same models
    assert index.find(other, "#/c") is other[0]
    models[1].reference.path = "#/c"                   # moved (set_reference_path forgets)
    index.forget()
    agree()


def test_moving_a_model_drops_the_index() -> None:
    from datamodel_code_generator.model.base import DataModel
    from datamodel_code_generator.parser import _inherited_schemas as inherited

    models = [_Model(_Reference("#/a")), _Model(_Reference("#/b"))]
    parser = SimpleNamespace(results=models)
    base = SimpleNamespace(source=None, path="#/b")
    with speedups():
        assert inherited.get_generated_base_models(parser, [base]) == [models[1]]
        DataModel.set_reference_path(models[0], "#/b")   # type: ignore[arg-type]
        assert inherited.get_generated_base_models(parser, [base]) == [models[0]], \
            "the index kept a model's old reference path"
