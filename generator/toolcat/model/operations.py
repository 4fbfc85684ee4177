"""Enumerate the operations of a bundled OpenAPI 3.x document and their parameters."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import fail
from ..normalise.defs import Definitions
from ..vocab.pointers import pointer
from .shapes import mapping, sequence, text

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


@dataclass(frozen=True)
class Operation:
    method: str          # upper case
    path: str
    node: dict[str, Any]
    pointer: str
    parameters: tuple[tuple[dict[str, Any], str], ...]   # (resolved parameter, its pointer)
    item_servers: tuple[Any, str] = (None, "")            # the path item's servers, pointer

    @property
    def operation_id(self) -> str | None:
        oid = self.node.get("operationId")
        return oid if isinstance(oid, str) and oid else None

    @property
    def key(self) -> str:
        return f"{self.method} {self.path}"


def _resolve(defs: Definitions, node: Any, loc: str) -> tuple[Any, str]:
    seen: set[str] = set()
    while isinstance(node, dict) and "$ref" in node:
        ref = node["$ref"]
        if not isinstance(ref, str) or ref in seen:
            raise fail(defs.file, f"{loc}/$ref", f"unusable $ref {ref!r}",
                       "point the reference at an existing object")
        seen.add(ref)
        _, node, loc = defs.lookup(ref, f"{loc}/$ref")
    return node, loc


def _parameters(defs: Definitions, items: Any, loc: str) -> list[tuple[dict[str, Any], str]]:
    out = []
    for i, raw in enumerate(sequence(defs.file, items, loc, "'parameters'")):
        param, where = _resolve(defs, raw, f"{loc}/{i}")
        if not isinstance(param, dict) or "name" not in param or "in" not in param:
            raise fail(defs.file, where, "a parameter needs 'name' and 'in'",
                       "complete the parameter object")
        text(defs.file, param["name"], f"{where}/name", "a parameter's 'name'")
        text(defs.file, param["in"], f"{where}/in", "a parameter's 'in'")
        out.append((param, where))
    return out


def operations(document: dict[str, Any], defs: Definitions) -> Iterator[Operation]:
    paths = mapping(defs.file, document.get("paths"), "/paths", "'paths'")
    for path, raw_item in paths.items():
        item, item_loc = _resolve(defs, raw_item, pointer("paths", path))
        if not isinstance(item, dict):
            continue
        shared = _parameters(defs, item.get("parameters"), f"{item_loc}/parameters")
        for method in METHODS:
            op = item.get(method)
            if not isinstance(op, dict):
                continue
            op_loc = f"{item_loc}/{method}"
            own = _parameters(defs, op.get("parameters"), f"{op_loc}/parameters")
            merged = {(p["name"], p["in"]): (p, w) for p, w in shared}
            merged.update({(p["name"], p["in"]): (p, w) for p, w in own})
            yield Operation(method.upper(), path, op, op_loc, tuple(merged.values()),
                            (item.get("servers"), f"{item_loc}/servers"))


def resolve_object(defs: Definitions, node: Any, loc: str,
                   what: str) -> tuple[dict[str, Any], str]:
    """Follow a ``$ref`` to a request body, response, header or example: ``what``, which
    must be an object (refused where it is found otherwise)."""
    found, where = _resolve(defs, node, loc)
    return mapping(defs.file, found, where, what), where
