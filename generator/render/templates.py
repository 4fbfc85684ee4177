"""The jinja2 environment over ``templates/`` (a folder users may point elsewhere).

Values reach templates through filters that quote them (``pyrepr``), never by
pasting text into code.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path

import jinja2


def _default_templates() -> Path:
    """The checkout's templates/, else the copy a wheel installs under share/toolcat/."""
    checkout = Path(__file__).resolve().parents[2] / "templates"
    if checkout.is_dir():
        return checkout
    return Path(sysconfig.get_path("data")) / "share" / "toolcat" / "templates"


DEFAULT_TEMPLATES = _default_templates()


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
