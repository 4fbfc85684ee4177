"""The Python module of a catalog: rendered from a template, formatted with black.

The module stays small whatever the catalog size: tool data is loaded from
``catalog.json`` beside it, and the module adds the types (a ``Literal`` of tool
names) and accessors a Python MCP server needs.
"""

from __future__ import annotations

import black
from black.mode import TargetVersion

from generator.model.types import Catalog
from generator.render.templates import environment

TEMPLATE = "python_module.py.jinja"
_MODE = black.Mode(target_versions={TargetVersion.PY311}, line_length=88)


def render_python(catalog: Catalog, templates: object = None) -> bytes:
    env = environment(templates)  # type: ignore[arg-type]
    text = env.get_template(TEMPLATE).render(
        name=catalog.name,
        spec=catalog.source.spec,
        tool_names=[t.name for t in catalog.tools],
    )
    return black.format_str(text, mode=_MODE).encode()
