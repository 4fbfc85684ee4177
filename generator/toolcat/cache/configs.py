"""This machine's memo of validated configs: a config whose bytes were validated here
before is used without importing PyYAML or pydantic (issue 25: 0.2 s of a cached check).

What the config's pydantic models make of a file (``config.validate``: plain data with
every default filled in, and the line of each key) is a pure function of the file's bytes
and the code that reads it. The key is the digest of the bytes (cache/digest.py) and the
environment's digest (every file of toolcat, Python's version, every installed
distribution, pydantic and PyYAML included). Only a config that validated is remembered:
a refused one is read and refused again, with its located problems. Resolving the targets
(paths, the templates folder, the regenerate command) runs every time: it depends on where
the config sits.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..config import Validate
from ..parse.inputs import Read
from ..parse.lines import Lines
from ..vocab.digests import sha256_hex
from .bundles import environment_digest, read_input
from .digest import cache_hex
from .store import cache_dir, load, store


def remembered(validate: Validate) -> Validate:
    """``validate``, answered from this machine's memo when the config's bytes were
    validated here before."""
    def validated(path: Path, read: Read) -> tuple[dict[str, Any], Lines]:
        folder = cache_dir()
        try:
            data = read_input(path, read) if folder is not None else b""
        except OSError:
            folder = None   # ``validate`` reports the unreadable file
        if folder is None:
            return validate(path, read)
        key = sha256_hex(f"{environment_digest()}\0config\0{cache_hex(data)}".encode())
        entry = folder / f"{key}.config"
        found = load(entry)
        if _shaped(found):
            config, lines = found
            return config, lines
        result = validate(path, read)
        store(folder, entry, result)
        return result

    return validated


def _shaped(found: Any) -> bool:
    return (isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], dict)
            and isinstance(found[0].get("catalogs"), dict) and isinstance(found[1], dict))
