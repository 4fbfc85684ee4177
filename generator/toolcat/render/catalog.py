"""``catalog.json``: every tool as ``tools/list`` returns it, plus its HTTP binding."""

from __future__ import annotations

from typing import Any

from ..catalog.format import FORMAT_VERSION
from ..jsonio import dumps
from ..model.types import Catalog
from .served import served


def catalog_data(catalog: Catalog) -> dict[str, Any]:
    """The data of ``catalog.json``, built afresh (the caller's to change)."""
    tools = served(catalog.tools)
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
        "digest": tools.digest,
        "exclusions": [{"operation": e.operation, "reason": e.reason}
                       for e in catalog.exclusions],
        "tools": [{"tool": dict(m), "binding": t.binding.as_json()}
                  for m, t in zip(tools.mcp, catalog.tools, strict=True)],
    }


_CHECKED: list[tuple[Catalog, dict[str, Any]]] = []


def checked_data(catalog: Catalog) -> dict[str, Any]:
    """``catalog_data``, shared by the catalog check and ``render_catalog`` of the very
    same catalog (the last one only; neither changes it)."""
    if _CHECKED and _CHECKED[0][0] is catalog:
        return _CHECKED[0][1]
    data = catalog_data(catalog)
    _CHECKED[:] = [(catalog, data)]
    return data


def render_catalog(catalog: Catalog) -> bytes:
    return dumps(checked_data(catalog))
