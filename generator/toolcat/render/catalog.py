"""``catalog.json``: every tool as ``tools/list`` returns it, plus its HTTP binding.

Most of its bytes are the ``tools`` member, a function of the tools alone; only
``source`` records the validator's verdict. So a run renders the tools' part while
the validator still works (``prepare_tools``, from the pipeline's render of the
module and summary), and once the verdict is known writes the rest around it: the
members before ``tools`` in one ``dumps``, those after it each on their own, joined
as orjson joins a dict's members (sorted keys, two-space indent), the bytes ``dumps``
writes for the whole (tests/render/test_served.py holds them equal).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..catalog.format import FORMAT_VERSION
from ..jsonio import dumps
from ..model.types import Catalog
from .served import Tools, last_for, served


def catalog_data(catalog: Catalog) -> dict[str, Any]:
    """The data of ``catalog.json``, built afresh (the caller's to change)."""
    return _data(catalog, _entries(catalog.tools))


def _entries(tools: Tools) -> list[dict[str, Any]]:
    return [{"tool": dict(m), "binding": t.binding.as_json()}
            for m, t in zip(served(tools).mcp, tools, strict=True)]


def _data(catalog: Catalog, entries: list[dict[str, Any]]) -> dict[str, Any]:
    toolsets = {"toolsets": {name: list(names) for name, names in catalog.toolsets}
                } if catalog.toolsets else {}
    return {
        **toolsets,
        "format": FORMAT_VERSION,
        "name": catalog.name,
        "source": {
            "spec": catalog.source.spec,
            "sha256": catalog.source.sha256,
            "openapi": catalog.source.openapi,
            "validatedWith": catalog.source.validated_with,
            "verdict": catalog.source.verdict,
            "problems": catalog.source.problems,
        },
        "digest": served(catalog.tools).digest,
        "exclusions": [{"operation": e.operation, "reason": e.reason}
                       for e in catalog.exclusions],
        "tools": entries,
    }


@dataclass(frozen=True)
class _Prepared:
    entries: list[dict[str, Any]]   # catalog_data's "tools", read only
    member: memoryview              # the ``"tools": [...]`` member as catalog.json holds it


def prepare_tools(catalog: Catalog) -> None:
    """Render the ``tools`` member of ``catalog``'s catalog.json ahead of its verdict
    (remembered for the very same tuple of tools, the last one only)."""
    _prepared(catalog.tools)


@last_for
def _prepared(tools: Tools) -> _Prepared:
    entries = _entries(tools)
    return _Prepared(entries, _member("tools", entries))


def _member(key: str, value: Any) -> memoryview:
    """``"key": value`` as it sits in a dict ``dumps`` writes (at the first level): a
    view, not a copy (catalog.json's tools are 11 MB on GitHub)."""
    return memoryview(dumps({key: value}))[2:-3]


def checked_data(catalog: Catalog) -> dict[str, Any]:
    """``catalog_data``, for the catalog check and ``render_catalog``: its tools' entries
    shared with ``prepare_tools`` (neither changes them)."""
    return _data(catalog, _prepared(catalog.tools).entries)


def render_catalog(catalog: Catalog) -> bytes:
    data = checked_data(catalog)
    head = dumps({key: value for key, value in data.items() if key < "tools"})
    after = [_member(key, data[key]) for key in sorted(data) if key > "tools"]
    pieces: list[bytes | memoryview] = []
    for piece in (memoryview(head)[:-3], _prepared(catalog.tools).member, *after):
        pieces += [piece, b",\n"]
    pieces[-1] = b"\n}\n"
    return b"".join(pieces)   # the one copy of the whole
