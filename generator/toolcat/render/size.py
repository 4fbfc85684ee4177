"""What a catalog costs an agent's context: the bytes of its `tools/list` answer, by part.

`tools/list` is measured as the compact JSON of `{"tools": [...]}` (sorted keys, UTF-8, no
spaces), the catalog's `tool` objects exactly as served. Each tool's bytes are split into
its texts (`title` and `description`, as JSON strings), its inputSchema, its outputSchema
and the rest (name, annotations, the JSON around them).

Tokens are an estimate, not a count: bytes divided by `BYTES_PER_TOKEN`, rounded up. Counted
with OpenAI's cl100k_base BPE (`scripts/large_apis.py --tokens`), the corpus's catalogs are
4.1 to 4.6 bytes a token, so 4 errs on the side of more tokens (docs/large-apis.md gives
the figures). No tokenizer runs here: the estimate is the same on every machine and needs
nothing downloaded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..jsonio import dumps

BYTES_PER_TOKEN = 4
LARGEST = 5   # tools named as the largest contributors


def estimate_tokens(size: int) -> int:
    """About how many tokens `size` bytes of JSON are (see the module's docstring)."""
    return -(-size // BYTES_PER_TOKEN)


def _json_size(value: Any) -> int:
    return len(dumps(value, indent=False))


@dataclass(frozen=True)
class ToolSize:
    name: str
    total: int
    texts: int
    inputs: int
    outputs: int

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.total)


@dataclass(frozen=True)
class ListSize:
    tools: int
    total: int
    texts: int
    inputs: int
    outputs: int
    largest: tuple[ToolSize, ...]

    @property
    def tokens(self) -> int:
        return estimate_tokens(self.total)


def tool_size(tool: dict[str, Any]) -> ToolSize:
    texts = sum(_json_size(tool[k]) for k in ("title", "description") if k in tool)
    output = tool.get("outputSchema")
    return ToolSize(str(tool["name"]), _json_size(tool), texts,
                    _json_size(tool["inputSchema"]),
                    0 if output is None else _json_size(output))


def list_size(tools: Sequence[dict[str, Any]], largest: int = LARGEST) -> ListSize:
    """The size of `tools/list` serving `tools` (catalog `tool` objects)."""
    sizes = [tool_size(t) for t in tools]
    ranked = sorted(sizes, key=lambda s: (-s.total, s.name))
    return ListSize(len(sizes), _json_size({"tools": list(tools)}),
                    sum(s.texts for s in sizes), sum(s.inputs for s in sizes),
                    sum(s.outputs for s in sizes), tuple(ranked[:largest]))
