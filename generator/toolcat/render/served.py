"""The tools as ``tools/list`` serves them, serialised once for every file that needs them.

``catalog.json`` records the sha256 of the tools' compact JSON, ``CATALOG.md`` the size of
each tool and of its parts, and the catalog check and ``catalog.json`` both read the same
data: on GitHub's 1,223 tools each of these serialised the same schemas again (some twice),
tens of MB of JSON a run. Here each member of each tool is serialised once
(``size.tool_json``), and the list's JSON, whose digest ``catalog.json`` records, is
its tools' joined: the bytes ``dumps`` writes for the whole.

A run renders the module and summary from one catalog and ``catalog.json`` from a copy
with the validator's verdict (``dataclasses.replace``: the same tuple of tools), so the
last tools served are remembered by the identity of that tuple, held with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.types import Tool
from ..vocab.digests import sha256_tagged
from .size import ToolSize, list_json, tool_json


@dataclass(frozen=True)
class Served:
    tools: tuple[Tool, ...]
    mcp: tuple[dict[str, Any], ...]     # each tool's ``mcp_json()``
    sizes: tuple[ToolSize, ...]         # of each, as ``size.tool_size`` measures it
    digest: str                         # ``catalog.format.tools_digest`` of ``mcp``


_LAST: list[Served] = []


def served(tools: tuple[Tool, ...]) -> Served:
    """``tools`` as served (the last answer again for the very same tuple)."""
    if _LAST and _LAST[0].tools is tools:
        return _LAST[0]
    mcp = tuple(t.mcp_json() for t in tools)
    measured = [tool_json(m) for m in mcp]
    result = Served(tools, mcp, tuple(size for _, size in measured),
                    sha256_tagged(list_json([data for data, _ in measured])))
    _LAST[:] = [result]
    return result
