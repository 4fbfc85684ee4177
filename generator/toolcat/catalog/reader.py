"""The one validating reader of ``catalog.json``.

A catalog is checked for the shape its readers rely on (a ``tools`` list of entries with a
``tool`` and a ``binding``, unique names, a format this toolcat reads) before anything
uses it, so a wrong file fails here with its name and a fix instead of as a KeyError
three stages later, in ``serve``, ``verify`` and ``diff`` alike. Files are read within
``parse.limits`` (a FIFO or /dev/zero is refused).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import fail
from ..jsonio import loads
from ..parse.limits import read_bounded
from ..vocab.files import CATALOG_FILE
from .format import FORMATS_READ, tools_digest

_NOT_A_CATALOG = "point at a catalog.json written by `toolcat generate`, or at its folder"


@dataclass(frozen=True)
class ToolRecord:
    tool: dict[str, Any]       # exactly what tools/list returns
    binding: dict[str, Any]


@dataclass(frozen=True)
class CatalogView:
    label: str                 # where it was read from, for messages
    name: str
    digest: str | None         # of the tools as read (recomputed, not the stored field)
    tools: dict[str, ToolRecord]
    meta: dict[str, Any]       # every top-level field except the tools


def parse_catalog(data: bytes, label: str) -> CatalogView:
    """The catalog in ``data`` (read from ``label``), checked, as a view by tool name."""
    doc = checked_catalog(data, label)
    tools = {entry["tool"]["name"]: ToolRecord(entry["tool"], entry["binding"])
             for entry in doc["tools"]}
    # Recomputed, never read: a hand-edited tool under the old "digest" field would
    # otherwise pass for unchanged. The stored field stays in meta, so a stale one
    # shows up as a differing catalog field.
    digest = tools_digest([record.tool for record in tools.values()])
    meta = {k: v for k, v in doc.items() if k != "tools"}
    return CatalogView(label, str(doc.get("name", "")), digest, tools, meta)


def checked_catalog(data: bytes, label: str) -> dict[str, Any]:
    """The catalog in ``data`` as JSON data, once its shape is checked (see above)."""
    try:
        doc = loads(data)
    except ValueError as exc:
        raise fail(label, "", f"not valid JSON ({exc})", _NOT_A_CATALOG) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("tools"), list):
        raise fail(label, "/tools", "not a toolcat catalog: there is no 'tools' list",
                   _NOT_A_CATALOG)
    if doc.get("format") not in FORMATS_READ:
        raise fail(label, "/format", f"catalog format {doc.get('format')!r} is not one this "
                   f"toolcat reads ({', '.join(map(str, sorted(FORMATS_READ)))})",
                   "regenerate both sides with the same toolcat version")
    names: set[str] = set()
    for index, entry in enumerate(doc["tools"]):
        name = _record(entry, label, index).tool["name"]
        if name in names:
            raise fail(label, f"/tools/{index}/tool/name", f"tool '{name}' appears twice",
                       "regenerate the catalog; toolcat never writes a name twice")
        names.add(name)
    return doc


def _record(entry: Any, label: str, index: int) -> ToolRecord:
    where = f"/tools/{index}"
    if not isinstance(entry, dict) or not isinstance(entry.get("tool"), dict) \
            or not isinstance(entry.get("binding"), dict):
        raise fail(label, where, "a tool entry needs a 'tool' and a 'binding' object",
                   _NOT_A_CATALOG)
    tool, binding = entry["tool"], entry["binding"]
    if not isinstance(tool.get("name"), str) or not isinstance(tool.get("inputSchema"), dict):
        raise fail(label, f"{where}/tool", "a tool needs a string 'name' and an "
                   "'inputSchema' object", _NOT_A_CATALOG)
    if not isinstance(binding.get("arguments"), dict):
        raise fail(label, f"{where}/binding/arguments", "a binding needs an 'arguments' "
                   "object", _NOT_A_CATALOG)
    return ToolRecord(tool, binding)


def read_catalog(path: Path) -> CatalogView:
    """A catalog.json, or a folder holding one (read within ``parse.limits``)."""
    file = path / CATALOG_FILE if path.is_dir() else path
    if path.is_dir() and not file.is_file():
        raise fail(str(path), "", f"this folder holds no {CATALOG_FILE}", _NOT_A_CATALOG)
    if not os.path.lexists(file):
        raise fail(str(path), "", "no such file or folder",
                   "check the path; each side is a catalog.json or a catalog folder")
    return parse_catalog(read_bounded(file, fix=SIDE_FIX), str(file))


def open_catalog(folder: str | Path) -> dict[str, Any]:
    """catalog.json of a generated folder, checked, as data (``serve``; no freshness check:
    that is ``toolcat check``)."""
    file = Path(folder) / CATALOG_FILE
    return checked_catalog(read_bounded(file, fix="run `toolcat generate` to write the "
                                        "catalog"), str(file))


SIDE_FIX = "each side is a catalog.json (a regular file) or a catalog folder"


