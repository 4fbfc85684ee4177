"""The jinja2 environment over ``templates/`` (a folder users may point elsewhere).

Values reach the output only through the escaping filters of ``escape.py``: the
environment's ``finalize`` refuses any string that did not pass one, so escaping
holds by construction, not by care in each template.
"""

from __future__ import annotations

from pathlib import Path

import jinja2

from ..identity import DEFAULT_TEMPLATES
from .escape import FILTERS, refuse_raw


def environment(folder: Path | None = None) -> jinja2.Environment:
    """Templates from ``folder`` first (a user's, by file name), then the built-in ones."""
    folders = [str(folder)] if folder is not None else []
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([*folders, str(DEFAULT_TEMPLATES)]),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        finalize=refuse_raw,
    )
    env.filters.update(FILTERS)
    return env
