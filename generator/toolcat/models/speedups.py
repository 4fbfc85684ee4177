"""Pure speedups for datamodel-code-generator, active only while models.py's classes are
generated (``render._generate``).

The pattern of ``load/validation/speedups.py``: each patch replaces one slow step with a
step that returns the same value; it is written against datamodel-code-generator's exact
version and skipped at any other (the classes are then generated more slowly, unchanged);
``speedups()`` installs the patches that apply and removes them on exit, so no other
caller of the library ever runs patched code.

* ``base-model-index``: for each base class of an ``allOf`` whose model is not at hand,
  the parser looks the model up by a linear scan of every model parsed so far
  (``_inherited_schemas.get_generated_base_models``): quadratic, 1.9 of the 25 CPU
  seconds on Stripe. The first model of each reference path is kept in an index
  instead, extended as the list grows. The list's elements are checked to be the same
  objects at every lookup (any other change to the list rebuilds it), and a model whose
  reference path is set again (``DataModel.set_reference_path``, the library's one way
  to move a parsed model) drops the index: the lookup finds what the scan finds.
  ``tests/models/test_models_speedups.py`` runs both side by side on every lookup.

The index holds the models it has seen and is dropped when ``speedups()`` exits.
Patches are module and class attributes: generate from one thread at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from operator import is_
from typing import Any

from ..load.validation.speedups import Patch, Undo
from ..load.validation.speedups import speedups as _installed

VERSION = {"datamodel-code-generator": "0.89.0"}


@contextmanager
def speedups(patches: tuple[Patch, ...] | None = None) -> Iterator[tuple[str, ...]]:
    """Install the patches that apply (default: all); yield their names; remove them."""
    with _installed(PATCHES if patches is None else patches) as names:
        yield names


def _replace(owner: Any, name: str, value: Any) -> Undo:
    original = vars(owner)[name]
    setattr(owner, name, value)
    return lambda: setattr(owner, name, original)


class FirstByPath:
    """The first model of a list with each reference path, for a list that grows."""

    def __init__(self) -> None:
        self.models: list[Any] | None = None
        self.seen: list[Any] = []
        self.first: dict[str, Any] = {}

    def forget(self) -> None:
        self.models, self.seen, self.first = None, [], {}

    def find(self, models: list[Any], path: str) -> Any:
        """``next((m for m in models if m.reference.path == path), None)``."""
        seen = self.seen
        if (models is not self.models or len(models) < len(seen)
                or not all(map(is_, seen, models))):
            self.forget()
            self.models, seen = models, self.seen
        first = self.first
        for model in models[len(seen):]:
            first.setdefault(model.reference.path, model)
            seen.append(model)
        return first.get(path)


def _install_base_model_index() -> Undo | None:
    from datamodel_code_generator.model.base import DataModel  # noqa: PLC0415
    from datamodel_code_generator.parser import _inherited_schemas as inherited  # noqa: PLC0415

    set_path = vars(DataModel).get("set_reference_path")
    if not callable(set_path) or not callable(vars(inherited).get("get_generated_base_models")):
        return None
    index = FirstByPath()

    def set_reference_path(self: Any, new_path: str) -> None:
        index.forget()
        set_path(self, new_path)

    def get_generated_base_models(parser: Any, base_classes: list[Any]) -> list[Any]:
        # The library's function, with the scan of parser.results answered by the index.
        data_models: list[Any] = []
        for base in base_classes:
            data_model = base.source if isinstance(base.source, DataModel) else None
            if data_model is None:
                data_model = index.find(parser.results, base.path)
            if data_model is not None:
                data_models.append(data_model)
        return data_models

    undos = [_replace(DataModel, "set_reference_path", set_reference_path),
             _replace(inherited, "get_generated_base_models", get_generated_base_models)]

    def undo() -> None:
        for each in reversed(undos):
            each()
        index.forget()

    return undo


PATCHES: tuple[Patch, ...] = (
    Patch("base-model-index", VERSION, _install_base_model_index),
)

