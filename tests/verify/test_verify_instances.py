"""The run-time instance generator: valid, deterministic arguments for every real tool,
probes that are always invalid, and a clear refusal for what it cannot build."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers.generate import build
from helpers.paths import ERSATZTV_SCRIPTED, ERSATZTV_V1, EXAMPLE_OUTPUT, ersatztv
from toolcat.render.catalog import catalog_data
from toolcat.verify.instances import Unsatisfiable, instance, invalid
from toolcat.verify.probes import plan


def _tools(source: str) -> list[dict[str, Any]]:
    if source == "example":
        data = json.loads((EXAMPLE_OUTPUT / "catalog.json").read_text())
        return [e["tool"] for e in data["tools"]]
    return [e["tool"] for e in catalog_data(build(ersatztv(source)))["tools"]]


@pytest.mark.parametrize("source", ["example", ERSATZTV_V1, ERSATZTV_SCRIPTED])
def test_every_tool_gets_valid_arguments_and_invalid_probes(source: str) -> None:
    tools = _tools(source)
    assert tools
    for tool in tools:
        arguments = instance(tool["inputSchema"])
        assert invalid(tool["inputSchema"], arguments) == [], tool["name"]
        assert instance(tool["inputSchema"]) == arguments   # same every time
        if "outputSchema" in tool:
            assert invalid(tool["outputSchema"], instance(tool["outputSchema"])) == []
        probes, _ = plan(tool["name"], tool["inputSchema"])
        for probe in probes:
            assert invalid(tool["inputSchema"], probe.arguments), (tool["name"], probe.kind)


def test_bounds_enums_and_formats() -> None:
    schema = {"type": "object", "required": ["a", "b", "c", "d", "e"], "properties": {
        "a": {"type": "integer", "minimum": 5},
        "b": {"type": "integer", "maximum": 0},
        "c": {"type": "string", "enum": ["Strict", "Flexible"]},
        "d": {"type": "string", "format": "date-time"},
        "e": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
    }}
    assert instance(schema) == {"a": 5, "b": 0, "c": "Strict", "d": "2026-01-01T00:00:00Z",
                                "e": 1.0}


def test_what_it_cannot_build_is_refused_with_the_reason() -> None:
    schema = {"type": "object", "required": ["code"],
              "properties": {"code": {"type": "string", "pattern": "^ORD-[0-9]{4}$"}}}
    with pytest.raises(Unsatisfiable, match=r"pattern '\^ORD-\[0-9\]\{4\}\$'"):
        instance(schema)
    probes, skipped = plan("orders_quote", schema)
    assert probes == []
    assert skipped[0].startswith("no probes: cannot build valid arguments")
