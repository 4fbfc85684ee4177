"""The jinja2 environment over ``templates/`` (a folder users may point elsewhere).

Values reach templates through filters that quote them (``pyrepr``), never by
pasting text into code.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from generator.identity import DEFAULT_TEMPLATES


def environment(folder: Path | None = None) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(folder or DEFAULT_TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
    )
    env.filters["pyrepr"] = repr
    return env
