"""A user's templates folder as files: read within ``parse.limits``, and its digest.

Apart from the jinja2 environment (templates.py) so that the record and the
output memo can take the folder's digest without importing jinja2.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from ..parse.limits import read_bounded
from ..vocab.digests import tagged

_FIX = "a template is a regular UTF-8 file within toolcat's size limit"


def read_template(path: Path) -> bytes:
    """A template's bytes; a FIFO, a device or an oversized file is refused (exit 2)."""
    return read_bounded(path, fix=_FIX)


def folder_digest(folder: Path | None) -> str | None:
    """sha256 of a user's templates folder (names and bytes), None without one.

    The folder's files replace built-in templates by name, so the record and the
    output cache must change when any of them does. Each is read within
    ``parse.limits``; anything but a regular file or a folder is refused.
    """
    if folder is None:
        return None
    digest = hashlib.sha256()
    for file in sorted(folder.rglob("*")):
        if not file.is_dir():
            digest.update(f"{file.relative_to(folder).as_posix()}\0".encode())
            digest.update(read_template(file) + b"\0")
    return tagged(digest.hexdigest())
