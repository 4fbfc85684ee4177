"""``catalog.json``: every tool as ``tools/list`` returns it, plus its HTTP binding."""

from __future__ import annotations

from typing import Any

from ..catalog.format import FORMAT_VERSION, tools_digest
from ..jsonio import dumps
from ..model.types import Catalog


def catalog_data(catalog: Catalog) -> dict[str, Any]:
    mcp = [t.mcp_json() for t in catalog.tools]
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
        "digest": tools_digest(mcp),
        "exclusions": [{"operation": e.operation, "reason": e.reason}
                       for e in catalog.exclusions],
        "tools": [{"tool": m, "binding": t.binding.as_json()}
                  for m, t in zip(mcp, catalog.tools, strict=True)],
    }


def render_catalog(catalog: Catalog) -> bytes:
    return dumps(catalog_data(catalog))
