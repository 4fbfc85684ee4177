"""The jinja2 environment over ``templates/`` (a folder users may point elsewhere).

Values reach the output only through the escaping filters of ``escape.py``: the
environment's ``finalize`` refuses any string that did not pass one, so escaping
holds by construction, not by care in each template.
"""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
from jinja2.loaders import split_template_path

from ..identity import DEFAULT_TEMPLATES
from ..parse.inputs import Read
from ..parse.limits import read_bounded
from .escape import FILTERS, refuse_raw
from .template_files import read_template


class _BoundedLoader(jinja2.BaseLoader):
    """jinja2's file-system lookup (first folder holding the name wins), each file read
    through ``parse.limits``: a template that is a FIFO or /dev/zero is refused."""

    def __init__(self, folders: list[Path], read: Read) -> None:
        self.folders = folders
        self.read = read

    def get_source(self, environment: jinja2.Environment,
                   template: str) -> tuple[str, str, None]:
        parts = split_template_path(template)   # no "..": stays inside the folders
        for folder in self.folders:
            path = folder.joinpath(*parts)
            if os.path.lexists(path):
                return read_template(path, self.read).decode("utf-8"), str(path), None
        raise jinja2.TemplateNotFound(template)


def environment(folder: Path | None = None, read: Read = read_bounded) -> jinja2.Environment:
    """Templates from ``folder`` first (a user's, by file name), then the built-in ones;
    each read through ``read`` (a run's ``Inputs.read``: once a run)."""
    folders = [folder] if folder is not None else []
    env = jinja2.Environment(
        loader=_BoundedLoader([*folders, DEFAULT_TEMPLATES], read),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        autoescape=False,
        finalize=refuse_raw,
    )
    env.filters.update(FILTERS)
    return env
