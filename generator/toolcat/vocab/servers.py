"""Server URLs: what may stand in one besides literal text and ``{variable}``s."""

from __future__ import annotations

import re

# Text in braces that is not a server variable name, ``{{...}}`` or ``${...}``: a
# template its vendor fills at build time (Gitea: ``{{AppSubUrl | JSONEscape}}``).
TEMPLATE = re.compile(r"\{\{|\}\}|\$\{|\{[^}]*[^A-Za-z0-9_.\-}][^}]*\}|\{\}")


def template_in(url: str) -> str | None:
    """The first piece of ``url`` that is a template, not a server variable, or None."""
    found = TEMPLATE.search(url)
    return found.group() if found else None
