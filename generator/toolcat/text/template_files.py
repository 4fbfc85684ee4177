"""A user's templates folder as files: read within ``parse.limits``, and its digest.

Apart from the jinja2 environment (templates.py) so that the record and the
output memo can take the folder's digest without importing jinja2. The folder's
record, this machine's outputs memo and the jinja2 loader each read through the
run's ``Inputs.read`` (``read``), so a run reads each template once.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

from ..errors import ToolcatError
from ..parse.inputs import Read
from ..parse.limits import read_bounded
from ..vocab.digests import tagged

_FIX = "a template is a regular UTF-8 file within toolcat's size limit"


def read_template(path: Path, read: Read = read_bounded) -> bytes:
    """A template's bytes through ``read``; a FIFO, a device or an oversized file is
    refused (exit 2), saying what a template must be."""
    try:
        return read(path)
    except ToolcatError as exc:
        raise ToolcatError(replace(p, fix=_FIX) for p in exc.problems) from None


def folder_digest(folder: Path | None, read: Read = read_bounded) -> str | None:
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
            digest.update(read_template(file, read) + b"\0")
    return tagged(digest.hexdigest())
