"""Each catalog tool is exactly what the MCP Python SDK would put in ``tools/list``.

The SDK's ``Tool`` model parses every entry and dumps it back byte for byte: a key
the protocol does not know, a missing required field or a wrong type fails here,
naming the tool.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers.generate import build
from helpers.paths import ERSATZTV_SCRIPTED, ERSATZTV_V1, EXAMPLE_OUTPUT, ersatztv
from toolcat.render.catalog import catalog_data

mcp_types = pytest.importorskip("mcp.types")


def _roundtrip(entries: list[dict[str, Any]]) -> list[str]:
    problems = []
    for entry in entries:
        tool = entry["tool"]
        parsed = mcp_types.Tool.model_validate(tool)
        back = parsed.model_dump(by_alias=True, exclude_none=True, mode="json")
        if back != tool:
            keys = sorted(k for k in set(back) | set(tool) if back.get(k) != tool.get(k))
            problems.append(f"{tool['name']}: differs after the SDK round trip in {keys}")
    return problems


def test_example_catalog() -> None:
    data = json.loads((EXAMPLE_OUTPUT / "catalog.json").read_text())
    assert _roundtrip(data["tools"]) == []


@pytest.mark.parametrize("name", [ERSATZTV_V1, ERSATZTV_SCRIPTED])
def test_ersatztv(name: str) -> None:
    data = catalog_data(build(ersatztv(name)))
    assert len(data["tools"]) > 0
    assert _roundtrip(data["tools"]) == []


def test_the_guard_sees_an_unknown_key() -> None:
    data = json.loads((EXAMPLE_OUTPUT / "catalog.json").read_text())
    entry = json.loads(json.dumps(data["tools"][0]))
    entry["tool"]["inputschema"] = entry["tool"].pop("inputSchema")
    with pytest.raises(Exception, match="inputSchema"):
        _roundtrip([entry])
