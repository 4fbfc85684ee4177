"""Where the default templates are: the checkout's ``templates/``, else a wheel's copy.

Kept apart from the jinja2 environment so that code which only needs the folder
(digests of toolcat's own files) does not import jinja2.
"""

from __future__ import annotations

import sysconfig
from pathlib import Path


def _default_templates() -> Path:
    """The checkout's templates/, else the copy a wheel installs under share/toolcat/."""
    checkout = Path(__file__).resolve().parents[2] / "templates"
    if checkout.is_dir():
        return checkout
    return Path(sysconfig.get_path("data")) / "share" / "toolcat" / "templates"


DEFAULT_TEMPLATES = _default_templates()
