"""Per-tool ``$defs``: each tool schema carries exactly the definitions it reaches.

Every local ``$ref`` target of the document gets one stable name: ``X`` for
``#/components/schemas/X`` (made URI-safe), or a name spelled from the pointer for
any other target. A definition is rewritten once per mode and cached, so a spec
with a thousand tools sharing a schema rewrites it once; a tool's closure is a walk
over cached edges, safe on cycles (stripe has 92 schemas in cycles).
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

from generator.errors import escape_token, fail, split_pointer
from generator.normalise.schema import Mode, SchemaRewriter

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")


class Definitions:
    def __init__(self, document: dict[str, Any], file: str, is_30: bool) -> None:
        self.document = document
        self.file = file
        self.is_30 = is_30
        self._names: dict[str, str] = {}      # ref -> def name
        self._pointers: dict[str, str] = {}   # def name -> pointer
        self._cache: dict[tuple[str, Mode], tuple[Any, frozenset[str]]] = {}
        schemas = document.get("components", {}).get("schemas", {})
        if isinstance(schemas, dict):
            self._name_components(schemas)

    def _name_components(self, schemas: dict[str, Any]) -> None:
        safe: dict[str, list[str]] = {}
        for name in schemas:
            safe.setdefault(_SAFE.sub("_", name), []).append(name)
        for clean, originals in safe.items():
            for original in originals:
                unique = clean if len(originals) == 1 else f"{clean}_{_short_hash(original)}"
                ref = "#/components/schemas/" + escape_token(original)
                self._names[ref] = unique
                self._pointers[unique] = ref[1:]

    def lookup(self, ref: str, loc: str) -> tuple[str, Any, str]:
        """Resolve a local ref: (def name, target node, target pointer)."""
        name = self._names.get(ref)
        if name is None:
            tokens = split_pointer(ref[1:]) if ref != "#" else []
            name = "_".join(_SAFE.sub("_", t) for t in tokens) or "root"
            name = f"{name}_{_short_hash(ref)}"
            self._names[ref] = name
            self._pointers[name] = ref[1:]
        return name, self.node(self._pointers[name], loc, ref), self._pointers[name]

    def node(self, ptr: str, loc: str, ref: str = "") -> Any:
        node: Any = self.document
        for token in split_pointer(ptr):
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise fail(self.file, loc, f"$ref '{ref or '#' + ptr}' does not resolve",
                           "point the reference at an existing schema")
        return node

    def rewrite(self, schema: Any, loc: str, mode: Mode) -> tuple[Any, frozenset[str]]:
        """Rewrite a schema that is not itself a def; return it and the defs it uses."""
        rewriter = SchemaRewriter(self.file, self.lookup, mode, self.is_30)
        return rewriter.rewrite(schema, loc), frozenset(rewriter.refs)

    def definition(self, name: str, mode: Mode) -> tuple[Any, frozenset[str]]:
        key = (name, mode)
        if key not in self._cache:
            ptr = self._pointers[name]
            self._cache[key] = self.rewrite(self.node(ptr, ptr), ptr, mode)
        return self._cache[key]

    def closure(self, roots: frozenset[str], mode: Mode) -> dict[str, Any]:
        """Every def reachable from ``roots``, keyed and sorted by name."""
        seen: set[str] = set()
        todo = sorted(roots)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            todo.extend(sorted(self.definition(name, mode)[1] - seen))
        return {name: self.definition(name, mode)[0] for name in sorted(seen)}

    def resolve_shallow(self, schema: Any, loc: str) -> tuple[Any, str]:
        """Follow ``$ref``s at the top of a raw schema (for body/response roots)."""
        seen: set[str] = set()
        while isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
            ref = schema["$ref"]
            if ref in seen:
                raise fail(self.file, loc, f"$ref '{ref}' refers to itself",
                           "break the reference cycle")
            seen.add(ref)
            _, schema, loc = self.lookup(ref, loc)
        return schema, loc


def _short_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:8]
