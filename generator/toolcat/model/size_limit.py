"""How large a catalog may grow: a fixed multiple of the document it comes from.

Every construct toolcat emits is bounded by the document in size, except one that the
document shares and each tool repeats: a body of 2,000 properties shared by 2,000
operations (410 KB of input) was 4 million argument schemas, a 502 MB catalog and 1 GB
of memory (issue 28 item 13). Two limits, each a fixed part plus a multiple of the
bytes of the files the document was read from (``spec_bytes``):

* the tools' schemas (each ``inputSchema`` and ``outputSchema`` with its ``$defs``,
  counted as compact JSON): at most ``BASE + FACTOR * spec_bytes`` bytes;
* the tools' arguments, the unit of drafting work (about 0.1 ms each):
  at most ``ARGUMENTS_BASE + ARGUMENTS_PER_KIB * spec_bytes / 1024``.

Each tool is counted as it is drafted, so a document past a limit is refused before
the rest is built, at the operation of its largest tool, naming the largest tools
drafted. The largest corpus catalog (Kubernetes: 4.1 MB of Swagger, 1,123 tools,
21.5 MB of schemas, 11,515 arguments) uses under a third of the first limit and a
tenth of the second.
"""

from __future__ import annotations

import heapq
from typing import Any

from ..errors import fail
from ..jsonio import dumps
from .types import Tool

BASE = 8 * 1024 * 1024
FACTOR = 16
ARGUMENTS_BASE = 50_000
ARGUMENTS_PER_KIB = 16
NAMED = 5   # the largest tools named in the refusal
_DEFS_KEY = '"$defs":'


def limit(spec_bytes: int) -> int:
    """The most bytes the tools' schemas of a document of ``spec_bytes`` may take."""
    return BASE + FACTOR * spec_bytes


def argument_limit(spec_bytes: int) -> int:
    """The most arguments the tools of a document of ``spec_bytes`` may have."""
    return ARGUMENTS_BASE + ARGUMENTS_PER_KIB * spec_bytes // 1024


class Budget:
    """The tools' schema bytes so far, against the limit for a document."""

    def __init__(self, file: str, spec_bytes: int) -> None:
        self.file = file
        self.spec_bytes = spec_bytes
        self.limit = limit(spec_bytes)
        self.argument_limit = argument_limit(spec_bytes)
        self.used = 0
        self.arguments = 0
        self.largest: list[tuple[int, str, str]] = []   # a heap: (bytes, name, pointer)
        # id of a $defs mapping -> (the mapping, held so that its id stays its own; bytes)
        self._mappings: dict[int, tuple[Any, int]] = {}

    def charge(self, tool: Tool) -> None:
        """Count ``tool``; past the limit, refuse at the largest tool's operation."""
        size = self.size(tool.input_schema) + self.size(tool.output_schema)
        self.used += size
        self.arguments += len(tool.binding.arguments)
        entry = (size, tool.name, tool.binding.pointer)
        if len(self.largest) < NAMED:
            heapq.heappush(self.largest, entry)
        else:
            heapq.heappushpop(self.largest, entry)
        if self.used > self.limit:
            raise self._refusal(f"the tools' schemas pass {self.limit:,} bytes, the limit "
                                f"({BASE // (1024 * 1024)} MiB + {FACTOR} x its size)")
        if self.arguments > self.argument_limit:
            raise self._refusal(f"the tools pass {self.argument_limit:,} arguments, the "
                                f"limit ({ARGUMENTS_BASE:,} + {ARGUMENTS_PER_KIB} per KiB)")

    def size(self, schema: Any) -> int:
        """``len(dumps(schema, indent=False))``, each ``$defs`` mapping serialised once per
        catalog: tools share their mappings (``Definitions.closure``, ``budgeted_closure``:
        one per set of roots), so dumping each tool whole wrote GitHub's shared definitions
        2,446 times over. Compact JSON is ``{`` members joined by ``,`` ``}``, a member
        ``"key":value``, so the parts' lengths add up to the whole's exactly. (jsonio:
        integers past 64 bits, openai's, are exact digits, as catalog.json has them.)"""
        shared = schema.get("$defs") if isinstance(schema, dict) else None
        if not isinstance(shared, dict):
            return len(dumps(schema, indent=False))
        rest = {k: v for k, v in schema.items() if k != "$defs"}
        return (len(dumps(rest, indent=False)) + (1 if rest else 0) + len(_DEFS_KEY)
                + self._mapping(shared))

    def _mapping(self, shared: dict[str, Any]) -> int:
        found = self._mappings.get(id(shared))
        if found is None or found[0] is not shared:
            found = self._mappings[id(shared)] = (shared, len(dumps(shared, indent=False)))
        return found[1]

    def _refusal(self, what: str) -> Exception:
        ranked = sorted(self.largest, key=lambda e: (-e[0], e[1]))
        named = ", ".join(f"{name} ({size:,} bytes)" for size, name, _ in ranked)
        return fail(self.file, ranked[0][2],
                    f"{what} for a document of {self.spec_bytes:,} bytes; the largest "
                    f"tools so far: {named}",
                    "select fewer operations (`operations` in toolcat.yaml), or share "
                    "fewer large schemas between operations")
