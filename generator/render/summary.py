"""``CATALOG.md``: one table row per tool, so a pull request's diff shows tool-level changes.

Rendered from the model like ``catalog.json``; the layout lives in
``templates/summary.md.jinja``. Rows are sorted by tool name and carry no
timestamps or versions, so the bytes change exactly when a row does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from generator.model.types import Catalog, Tool
from generator.render.templates import environment
from generator.vocab.mcp import HINT_DEFAULTS

TEMPLATE = "summary.md.jinja"
NONE = "—"
# (hint, flag): a flag is shown when its hint is true; MCP's defaults fill absent hints.
FLAGS = tuple((hint, flag, HINT_DEFAULTS[hint]) for hint, flag in (
    ("readOnlyHint", "RO"), ("destructiveHint", "D"), ("idempotentHint", "I"),
    ("openWorldHint", "OW")))


def code(text: str) -> str:
    """Markdown inline code that survives backticks in the text."""
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def markdown_cell(text: str) -> str:
    """One line safe in a Markdown table cell: GitHub reads ``\\|`` as ``|``, in code too."""
    return " ".join(text.replace("|", "\\|").split())


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


def render_summary(catalog: Catalog, templates: Path | None = None) -> bytes:
    env = environment(templates)
    env.filters["cell"] = markdown_cell
    env.filters["code"] = code
    rows = sorted((row(t) for t in catalog.tools), key=lambda r: r.name)
    exclusions = sorted(catalog.exclusions, key=lambda e: e.operation)
    text = env.get_template(TEMPLATE).render(
        name=catalog.name, spec=catalog.source.spec, rows=rows, exclusions=exclusions)
    return text.encode()
