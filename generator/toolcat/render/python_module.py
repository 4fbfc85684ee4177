"""The Python module of a catalog: rendered from a template, formatted with black.

The module stays small whatever the catalog size: tool data is loaded from
``catalog.json`` beside it, and the module adds the types (a ``Literal`` of tool
names) and accessors a Python MCP server needs.

black was the slowest step of ``generate`` on a big catalog (0.9 s for the 1,223
names of the GitHub spec). The built-in template is written in black's style and
black changes only the quotes of its literals; so with the built-in template, at
least two tools (black writes a one-name list on one line), every literal a string
of printable ASCII without quotes or backslashes and every line of code within
black's length, the module is rendered with black's double quotes and black is not
run (``_in_black_style``): tests/check/test_black_style.py proves black leaves such
a module unchanged and writes the same from the usual render. Anything else (a
user's template, another name, a line too long) is formatted by black.

black's output is a pure function of its input text, its version and its mode:
``black_key`` names all three, and the pipeline passes a formatter that remembers
black's answers in this machine's cache (generator/cache/formatted.py). The module
on disk is never reused: it is what ``check`` compares, and a file cannot vouch for
itself. The module's first two lines record a digest of black's input
(``rendered``, the usual render, whether black ran or not) and of its output
(``formatted``, the rest of the file), for readers; they change only when the
body does, or when black's pinned version does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import jinja2

from ..identity import DEFAULT_TEMPLATES
from ..model.types import Catalog
from ..parse.inputs import Read
from ..parse.limits import read_bounded
from ..text.python_format import NotBlackStyle, black_format, black_key, black_literal, fits
from ..text.templates import environment
from ..vocab.digests import sha256_hex as _sha256

TEMPLATE = "python_module.py.jinja"
RENDERED = "# toolcat-rendered: "
FORMATTED = "# toolcat-formatted: "


def render_python(catalog: Catalog, templates: Path | None = None,
                  formatter: Callable[[str], str] | None = None,
                  regenerate: str = "", regenerate_from: str = "",
                  read: Read = read_bounded) -> bytes:
    """The module's bytes; ``formatter``: black, or a memo of it (see above);
    ``regenerate``: the command that regenerates it in its project, run from
    ``regenerate_from`` (empty: the repository's root); templates read through ``read``."""
    template = environment(templates, read).get_template(TEMPLATE)
    values = {"name": catalog.name,
              "regenerate": regenerate or f"toolcat generate {catalog.name}",
              "regenerate_from": regenerate_from, "spec": catalog.source.spec,
              "tool_names": [t.name for t in catalog.tools]}
    text = template.render(**values)
    styled = _in_black_style(template, values)
    body = (styled if styled is not None else (formatter or black_format)(text)).encode()
    return _header(black_key(text), _sha256(body)) + body


def _in_black_style(template: jinja2.Template, values: dict[str, Any]) -> str | None:
    """The module as black formats it, rendered in black's style without running black,
    where that is known for sure (see above); None: let black decide.

    The same compiled template renders again with ``pyrepr`` swapped for black's
    spelling in its own environment (the render's, made for it): the compiled code looks
    the filter up at each render, and the template applies it to variables only, so
    nothing was folded with the usual ``pyrepr`` when it compiled."""
    if template.filename != str(DEFAULT_TEMPLATES / TEMPLATE) or len(values["tool_names"]) < 2:
        return None
    filters = template.environment.filters
    usual, filters["pyrepr"] = filters["pyrepr"], black_literal
    try:
        styled = template.render(**values)
    except NotBlackStyle:
        return None
    finally:
        filters["pyrepr"] = usual
    # black wraps no docstring: only the code after the module's must fit
    _docstring, closed, code = styled.partition('\n"""\n')
    return styled if closed and fits(code) else None


def _header(rendered: str, formatted: str) -> bytes:
    return f"{RENDERED}{rendered}\n{FORMATTED}{formatted}\n".encode()
