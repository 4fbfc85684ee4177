"""Patches that keep openapi-spec-validator's time bounded by the document's size.

Unlike ``speedups`` (same answers, sooner) these are about termination:
small valid documents made the validator run for minutes. Each returns the same
value as the code it replaces, and is installed only for the exact versions it
was written against (``speedups.speedups`` does the installing).

* ``collect-properties``: ``SchemaValidator._collect_properties`` walks an
  ``allOf`` tree again for every path to it: an ``allOf`` DAG 20 levels deep with
  3 references per level (4 KB) is 3**20 walks. The property names of a schema
  depend only on the schema, so they are remembered per schema object.
* ``unique-items``: jsonschema's ``uniq`` compares every pair when the items cannot
  be sorted, so the metaschema's ``uniqueItems`` on an enum of 20,000 strings plus
  one object is 200 million comparisons. Items are mapped to hashable keys that
  are equal exactly when jsonschema's ``equal`` says so (``True`` is not ``1``,
  ``1`` is ``1.0``, containers compare by members), and counted in a set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .speedups import Patch, Undo, _set_attribute


def _install_collect_properties() -> Undo | None:
    from openapi_spec_validator.validation.keywords import SchemaValidator  # noqa: PLC0415

    slow = SchemaValidator.__dict__.get("_collect_properties")
    if not callable(slow):
        return None
    found: dict[tuple[int, int], tuple[Any, set[str]]] = {}

    def _collect_properties(self: Any, schema: Any) -> set[str]:
        value = schema.read_value()
        key = (id(self), id(value))
        hit = found.get(key)
        if hit is None:
            # Held with the value, so its id cannot be reused while the memo lives.
            hit = found[key] = (value, set(slow(self, schema)))
        return set(hit[1])

    undo = _set_attribute(SchemaValidator, "_collect_properties", _collect_properties)

    def remove() -> None:
        undo()
        found.clear()

    return remove


def _key(value: Any) -> Any:
    """A hashable stand-in for ``value``: equal exactly when jsonschema's ``equal`` is."""
    if value is True or value is False:
        return ("bool", value)
    if isinstance(value, str):
        return ("str", value)
    if isinstance(value, Mapping):
        return ("map", frozenset((k, _key(v)) for k, v in value.items()))
    if isinstance(value, Sequence):
        return ("seq", tuple(_key(v) for v in value))
    return ("value", value)  # numbers and None: Python's equality, as in ``equal``


def uniq(container: Any) -> bool:
    keys = [_key(item) for item in container]
    return len(set(keys)) == len(keys)


def _install_unique_items() -> Undo | None:
    import jsonschema._keywords as keywords  # type: ignore[import-untyped] # noqa: PLC0415

    original = getattr(keywords, "uniq", None)
    if not callable(original):
        return None
    keywords.uniq = uniq  # what uniqueItems calls (imported by name into _keywords)

    def undo() -> None:
        keywords.uniq = original

    return undo


BOUNDS: tuple[Patch, ...] = (
    Patch("collect-properties", {"openapi-spec-validator": "0.9.0"},
          _install_collect_properties),
    Patch("unique-items", {"jsonschema": "4.26.0"}, _install_unique_items),
)
