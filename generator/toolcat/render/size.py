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
from functools import cache
from typing import Any

from ..jsonio import dumps

BYTES_PER_TOKEN = 4
LARGEST = 5   # tools named as the largest contributors


def estimate_tokens(size: int) -> int:
    """About how many tokens `size` bytes of JSON are (see the module's docstring)."""
    return -(-size // BYTES_PER_TOKEN)


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


@cache
def _key(name: str) -> bytes:
    return _compact(name) + b":"


def _compact(value: Any) -> bytes:
    return dumps(value, indent=False)


def tool_json(tool: dict[str, Any]) -> tuple[bytes, ToolSize]:
    """A tool's compact JSON (the bytes of ``dumps(tool, indent=False)``) and its size by
    part, each member serialised once: the tool's JSON is its members' joined as orjson
    joins them (sorted keys, no spaces; tests/render/test_served.py holds them equal)."""
    parts = {key: _compact(tool[key]) for key in sorted(tool)}
    data = b"{" + b",".join([_key(key) + part for key, part in parts.items()]) + b"}"
    title, description = parts.get("title", b""), parts.get("description", b"")
    output = parts.get("outputSchema", b"")
    return data, ToolSize(str(tool["name"]), len(data), len(title) + len(description),
                          len(parts["inputSchema"]), len(output))


def list_json(items: Sequence[bytes]) -> bytes:
    """The compact JSON of a list, from the compact JSON of each item (joined once: the
    brackets added after the join copied GitHub's 9 MB twice more)."""
    pieces = [b"["]
    for item in items:
        pieces += [item, b","]
    pieces[-1:] = [b"]"] if items else [b"[]"]
    return b"".join(pieces)


def tool_size(tool: dict[str, Any]) -> ToolSize:
    return tool_json(tool)[1]


_WRAPPED = len(b'{"tools":[]}')


def list_size(tools: Sequence[dict[str, Any]], largest: int = LARGEST,
              sizes: Sequence[ToolSize] | None = None) -> ListSize:
    """The size of `tools/list` serving `tools` (catalog `tool` objects; ``sizes``: their
    ``tool_size``, when known): `{"tools":[...]}` is its tools' JSON, commas between."""
    if sizes is None:
        sizes = [tool_size(t) for t in tools]
    ranked = sorted(sizes, key=lambda s: (-s.total, s.name))
    total = _WRAPPED + sum(s.total for s in sizes) + max(len(sizes) - 1, 0)
    return ListSize(len(sizes), total, sum(s.texts for s in sizes),
                    sum(s.inputs for s in sizes), sum(s.outputs for s in sizes),
                    tuple(ranked[:largest]))
