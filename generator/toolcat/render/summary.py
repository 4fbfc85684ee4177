"""``CATALOG.md``: one table row per tool, so a pull request's diff shows tool-level changes.

Rendered from the model like ``catalog.json``; the layout lives in
``templates/summary.md.jinja``. Rows are sorted by tool name and carry no
timestamps or versions, so the bytes change exactly when a row does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..model.types import Catalog, Tool
from ..parse.inputs import Read
from ..parse.limits import read_bounded
from ..text.escape import code, markdown_cell
from ..text.templates import environment
from ..vocab.mcp import HINT_DEFAULTS
from .served import served
from .size import BYTES_PER_TOKEN, list_size

__all__ = ["code", "markdown_cell", "render_summary", "row"]

TEMPLATE = "summary.md.jinja"
NONE = "—"
# (hint, flag): a flag is shown when its hint is true; MCP's defaults fill absent hints.
FLAGS = tuple((hint, flag, HINT_DEFAULTS[hint]) for hint, flag in (
    ("readOnlyHint", "RO"), ("destructiveHint", "D"), ("idempotentHint", "I"),
    ("openWorldHint", "OW")))


@dataclass(frozen=True)
class Row:
    name: str
    verb: str
    path: str
    arguments: int
    required: int
    semantics: str
    annotations: str


def row(tool: Tool) -> Row:
    schema = tool.input_schema
    flags = [flag for hint, flag, default in FLAGS if tool.annotations.get(hint, default)]
    return Row(tool.name, tool.binding.method, tool.binding.path,
               len(schema.get("properties") or {}), len(schema.get("required") or []),
               tool.binding.semantics or NONE, " ".join(flags) or NONE)


def render_summary(catalog: Catalog, templates: Path | None = None,
                   read: Read = read_bounded) -> bytes:
    env = environment(templates, read)
    rows = sorted((row(t) for t in catalog.tools), key=lambda r: r.name)
    exclusions = sorted(catalog.exclusions, key=lambda e: e.operation)
    tools = served(catalog.tools)
    by_name = {size.name: (mcp, size) for mcp, size in zip(tools.mcp, tools.sizes, strict=True)}
    size = list_size(tools.mcp, sizes=tools.sizes)
    toolsets = [(name, list_size([by_name[n][0] for n in names],
                                 sizes=[by_name[n][1] for n in names]))
                for name, names in catalog.toolsets]
    text = env.get_template(TEMPLATE).render(
        name=catalog.name, spec=catalog.source.spec, rows=rows, exclusions=exclusions,
        size=size, ratio=f"{BYTES_PER_TOKEN:g}", toolsets=toolsets)
    return text.encode()
