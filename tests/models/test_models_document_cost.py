"""The models document costs one rewrite per tool's root plus one per shared definition.

Every tool carries its own copy of the definitions it reaches; a definition many tools
share is rewritten (its ``$ref``s renamed) once, and what it refers to is read once per
distinct text, so adding a tool adds only its own root's work (issue 25: the document
step was tools x definitions).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from toolcat.model.types import Catalog, Source
from toolcat.models import document

SIZE = {"type": "string", "enum": ["S", "M", "L"]}
WIDGET = {"type": "object", "properties": {"size": {"$ref": "#/$defs/Size"},
                                           "tags": {"type": "array",
                                                    "items": {"type": "string"}}}}
ROOT = {"type": "object", "properties": {"w": {"$ref": "#/$defs/Widget"}},
        "additionalProperties": False}


def _catalog(example_catalog: Catalog, tools: int) -> Catalog:
    template = example_catalog.tools[0]
    return Catalog("w", Source("s", "sha", "3.1.0", "v"), tuple(
        dataclasses.replace(template, name=f"tool_{i}", output_schema=None,
                            input_schema={**ROOT, "$defs": {"Widget": WIDGET, "Size": SIZE}})
        for i in range(tools)))


def _counting(monkeypatch: pytest.MonkeyPatch, name: str) -> list[int]:
    calls = [0]
    original: Callable[..., Any] = getattr(document, name)

    def counted(*args: Any) -> Any:
        calls[0] += 1
        return original(*args)
    monkeypatch.setattr(document, name, counted)
    return calls


def test_each_tool_adds_only_its_root_rewrite(example_catalog: Catalog,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    rewrites = _counting(monkeypatch, "_rewrite")
    document._rewrite(ROOT, lambda ref: ref)
    per_root = rewrites[0]
    counts = []
    for tools in (1, 5, 25):
        rewrites[0] = 0
        document.models_document(_catalog(example_catalog, tools))
        counts.append(rewrites[0])
    assert counts[1] - counts[0] == 4 * per_root, (counts, per_root)
    assert counts[2] - counts[1] == 20 * per_root, (counts, per_root)


def test_references_are_read_once_per_distinct_definition(
        example_catalog: Catalog, monkeypatch: pytest.MonkeyPatch) -> None:
    reads = _counting(monkeypatch, "defs_referenced")
    document.models_document(_catalog(example_catalog, 25))
    assert reads[0] == 2, f"defs_referenced ran {reads[0]} times for 2 distinct definitions"
