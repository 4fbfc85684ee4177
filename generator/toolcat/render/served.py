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

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from ..model.types import Tool
from ..vocab.digests import sha256_tagged
from .size import ToolSize, list_json, tool_json

Tools = tuple[Tool, ...]
R = TypeVar("R")


def last_for(make: Callable[[Tools], R]) -> Callable[[Tools], R]:
    """``make``, answered again for the very same tuple of tools as its last call (the
    tuple is held with the answer, so its identity stays its own)."""
    last: list[tuple[Tools, R]] = []

    def remembered(tools: Tools) -> R:
        if last and last[0][0] is tools:
            return last[0][1]
        answer = make(tools)
        last[:] = [(tools, answer)]
        return answer

    return remembered


@dataclass(frozen=True)
class Served:
    mcp: tuple[dict[str, Any], ...]     # each tool's ``mcp_json()``
    sizes: tuple[ToolSize, ...]         # of each, as ``size.tool_size`` measures it
    digest: str                         # ``catalog.format.tools_digest`` of ``mcp``


@last_for
def served(tools: Tools) -> Served:
    """``tools`` as served."""
    mcp = tuple(t.mcp_json() for t in tools)
    measured = [tool_json(m) for m in mcp]
    return Served(mcp, tuple(size for _, size in measured),
                  sha256_tagged(list_json([data for data, _ in measured])))
