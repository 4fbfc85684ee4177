"""The Python module of a catalog: rendered from a template, formatted with black.

The module stays small whatever the catalog size: tool data is loaded from
``catalog.json`` beside it, and the module adds the types (a ``Literal`` of tool
names) and accessors a Python MCP server needs.

black is the slowest step of ``toolcat check`` on a big catalog (2 s for the
1,223 names of the GitHub spec), and its output is a pure function of its input
text, its version and its mode: ``black_key`` names all three, and the pipeline
passes a formatter that remembers black's answers in this machine's cache
(generator/cache/formatted.py). The module on disk is never reused: it is what
``check`` compares, and a file cannot vouch for itself. The module's first two
lines record a digest of black's input (``rendered``) and of its output
(``formatted``, the rest of the file), for readers; they change only when the
body does, or when black's pinned version does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ..model.types import Catalog
from ..text.python_format import black_format, black_key
from ..text.templates import environment
from ..vocab.digests import sha256_hex as _sha256

TEMPLATE = "python_module.py.jinja"
RENDERED = "# toolcat-rendered: "
FORMATTED = "# toolcat-formatted: "


def render_python(catalog: Catalog, templates: Path | None = None,
                  formatter: Callable[[str], str] | None = None,
                  regenerate: str = "", regenerate_from: str = "") -> bytes:
    """The module's bytes; ``formatter``: black, or a memo of it (see above);
    ``regenerate``: the command that regenerates it in its project, run from
    ``regenerate_from`` (empty: the repository's root)."""
    env = environment(templates)
    text = env.get_template(TEMPLATE).render(
        name=catalog.name,
        regenerate=regenerate or f"toolcat generate {catalog.name}",
        regenerate_from=regenerate_from,
        spec=catalog.source.spec,
        tool_names=[t.name for t in catalog.tools],
    )
    body = (formatter or black_format)(text).encode()
    return _header(black_key(text), _sha256(body)) + body


def _header(rendered: str, formatted: str) -> bytes:
    return f"{RENDERED}{rendered}\n{FORMATTED}{formatted}\n".encode()
