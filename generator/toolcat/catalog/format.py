"""What a ``catalog.json`` is: its format version, the versions toolcat reads, the JSON
Schema it ships with, and the digest of its tools."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from ..jsonio import dumps
from ..vocab.digests import sha256_tagged

FORMAT_VERSION = 2                 # what toolcat writes
FORMATS_READ = frozenset({1, 2})   # what its readers accept
SCHEMA_FILE = "catalog.schema.json"


def schema_path() -> Path:
    """The format's JSON Schema, shipped as the package's data."""
    package = (__package__ or "toolcat.catalog").rsplit(".", 1)[0]
    return Path(str(resources.files(package).joinpath("schemas", SCHEMA_FILE)))


def tools_digest(tools: list[dict[str, Any]]) -> str:
    """sha256 of the canonical JSON of the tools as clients see them."""
    return sha256_tagged(dumps(tools, indent=False))
