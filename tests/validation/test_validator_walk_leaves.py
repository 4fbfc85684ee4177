"""The schema walk marks a leaf subschema visited without walking it (walk._leaf): the
same schemas end up visited, and the same problems are found, as when every leaf is
walked."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from toolcat.load.validation import validate, walk

LEAVES = {"type": "string"}
DOCUMENT: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
    "components": {"schemas": {
        "Pet": {"type": "object", "required": ["id"], "properties": {
            "id": {"type": "integer", "default": "one"},          # not a leaf: default
            "name": {"type": "string", "maxLength": 3},           # a leaf
            "tags": {"type": "array", "items": {"type": "string"}},   # a leaf under items
            "shared": LEAVES, "again": LEAVES,                    # one leaf, twice
            "kind": {"oneOf": [{"type": "string"}, {"$ref": "#/components/schemas/Kind"}]},
            "not": {"not": {"type": "boolean"}},
            "empty": {},
            "odd": {"anyOf": [{"type": "integer", "default": "x"}, {"enum": [1]}]},
        }},
        "Kind": {"type": "string", "default": 7},
        "Both": {"allOf": [{"$ref": "#/components/schemas/Pet"}, {"required": ["zzz"]}]},
    }},
}


class _Recorded(set[int]):
    """validate._IdList, remembering every instance made."""

    append = set.add
    made: ClassVar[list[_Recorded]] = []

    def __init__(self) -> None:
        super().__init__()
        _Recorded.made.append(self)


def _run(monkeypatch: pytest.MonkeyPatch, leaves: bool) -> tuple[Any, set[int], int]:
    _Recorded.made = []
    taken = []
    real = walk._leaf

    def leaf(visited: Any, contents: Any, key: Any) -> bool:
        found = real(visited, contents, key) if leaves else False
        taken.append(found)
        return found

    with monkeypatch.context() as patched:
        patched.setattr(validate, "_IdList", _Recorded)
        patched.setattr(walk, "_leaf", leaf)
        problems = validate._problems(DOCUMENT, "spec.json", None)
    visited, _meta_checked = _Recorded.made
    return problems, set(visited), sum(taken)


def test_leaves_are_visited_as_if_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    walked, walked_ids, none = _run(monkeypatch, leaves=False)
    skipped, skipped_ids, taken = _run(monkeypatch, leaves=True)
    assert none == 0
    assert taken >= 7, taken     # name, tags' items, shared (twice), oneOf[0], not, empty
    assert skipped_ids == walked_ids
    assert skipped == walked
    assert [p.location for p in walked] == [
        "/components/schemas/Pet/properties/id/default",
        "/components/schemas/Kind/default",
        "/components/schemas/Pet/properties/odd/anyOf/0/default"]
