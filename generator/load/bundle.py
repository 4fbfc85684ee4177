"""Bundle a multi-file document into one, so later stages see only local ``$ref``s.

A ``$ref`` to another file is resolved relative to the file that holds it. Where
the reference sits in a schema position its target becomes a named entry of
``components.schemas`` (schemas may be recursive, so they are shared, never
copied); anywhere else (path items, operations, parameters, responses...) the
target is copied in place, as those cannot be recursive. Only a ``$ref`` key whose
value is a string is a reference: Kubernetes has a *property* named ``$ref``.
Extensions (``x-*``) and literal values (``example``, ``default``, ``const``,
``enum``) are copied verbatim: they are not part of any tool, and a broken
reference inside them must not stop generation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from generator.errors import escape_token, fail, pointer, split_pointer
from generator.load.reader import read_document

# Keys whose value is one schema / a map of schemas / a list of schemas.
SCHEMA_ONE = frozenset({
    "schema", "items", "additionalProperties", "not", "contains", "propertyNames", "if",
    "then", "else", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
    "additionalItems",
})
SCHEMA_MAP = frozenset({"properties", "patternProperties", "$defs", "definitions",
                        "dependentSchemas"})
SCHEMA_LIST = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
LITERAL_KEYS = frozenset({"example", "default", "const", "enum"})
_REMOTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")


@dataclass
class _Target:
    file: Path
    ptr: str


@dataclass
class Bundle:
    """The bundled document and the files it was read from (for digests)."""

    document: Any
    files: dict[Path, bytes] = field(default_factory=dict)


class _Bundler:
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.docs: dict[Path, Any] = {}
        self.raw: dict[Path, bytes] = {}
        self.schema_names: dict[tuple[Path, str], str] = {}
        self.schema_bodies: dict[tuple[Path, str], Any] = {}
        self.inlining: list[tuple[Path, str]] = []

    def doc(self, path: Path, where: tuple[str, str]) -> Any:
        if path not in self.docs:
            if not path.is_file():
                raise fail(*where, f"$ref names a file that does not exist: {path}",
                           "fix the reference or add the file")
            self.docs[path], self.raw[path] = read_document(path)
        return self.docs[path]

    def lookup(self, target: _Target, where: tuple[str, str]) -> Any:
        node = self.doc(target.file, where)
        for token in split_pointer(target.ptr):
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise fail(*where, f"$ref target '{target.file.name}#{target.ptr}' "
                           "does not exist", "fix the reference")
        return node

    def target(self, ref: str, base: Path, where: tuple[str, str]) -> _Target:
        if _REMOTE.match(ref):
            raise fail(*where, f"remote $ref '{ref}' refused: toolcat never uses the network",
                       "download the document and refer to it by a relative path")
        file_part, _, frag = ref.partition("#")
        file = (base.parent / unquote(file_part)).resolve() if file_part else base
        return _Target(file, unquote(frag))

    # -- walking -------------------------------------------------------------
    def walk(self, node: Any, base: Path, loc: str, in_schema: bool) -> Any:
        if isinstance(node, list):
            return [self.walk(v, base, f"{loc}/{i}", in_schema) for i, v in enumerate(node)]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and (not ref.startswith("#") or base != self.root):
            return self.follow(node, ref, base, loc, in_schema)
        return {k: self.child(k, v, base, loc, in_schema) for k, v in node.items()}

    def child(self, key: str, value: Any, base: Path, loc: str, in_schema: bool) -> Any:
        here = f"{loc}/{escape_token(key)}"
        if key.startswith("x-") or key in LITERAL_KEYS:
            return value
        if key in SCHEMA_ONE and (in_schema or key == "schema"):
            return self.walk(value, base, here, True)
        if in_schema and key in SCHEMA_MAP and isinstance(value, dict):
            return {k: self.walk(v, base, f"{here}/{escape_token(k)}", True)
                    for k, v in value.items()}
        if in_schema and key in SCHEMA_LIST:
            return self.walk(value, base, here, True)
        top_schemas = (key == "schemas" and loc == "/components") or (
            key == "definitions" and loc == "")
        if top_schemas and isinstance(value, dict):
            return {k: self.walk(v, base, f"{here}/{escape_token(k)}", True)
                    for k, v in value.items()}
        return self.walk(value, base, here, in_schema)

    def follow(self, node: dict[str, Any], ref: str, base: Path, loc: str,
               in_schema: bool) -> Any:
        where = (self.rel(base), loc or "/")
        target = self.target(ref, base, where)
        siblings = {k: self.child(k, v, base, loc, in_schema)
                    for k, v in node.items() if k != "$ref"}
        if target.file == self.root:
            return {"$ref": "#" + target.ptr, **siblings}
        key = (target.file, target.ptr)
        if in_schema:
            if key not in self.schema_bodies:
                self.schema_bodies[key] = None  # placeholder: breaks cycles
                value = self.lookup(target, where)
                self.schema_bodies[key] = self.walk(value, target.file, target.ptr, True)
            return {"$ref": _Placeholder(key), **siblings}
        if key in self.inlining:
            raise fail(*where, f"$ref cycle through non-schema objects at '{ref}'",
                       "only schemas may be recursive")
        self.inlining.append(key)
        value = self.walk(self.lookup(target, where), target.file, target.ptr, False)
        self.inlining.pop()
        if isinstance(value, dict):
            return {**value, **siblings}
        return value

    def rel(self, path: Path) -> str:
        try:
            return str(path.relative_to(self.root.parent))
        except ValueError:
            return str(path)


class _Placeholder(str):
    """A ``$ref`` value to fill in once every bundled schema has its name."""

    key: tuple[Path, str]

    def __new__(cls, key: tuple[Path, str]) -> _Placeholder:
        obj = super().__new__(cls, "")
        obj.key = key
        return obj


def _candidates(root: Path, file: Path, ptr: str) -> list[str]:
    """Names for a bundled schema, shortest first; later ones add directories."""
    skip = {"components", "schemas", "definitions", "properties", "$defs"}
    tokens = [t for t in split_pointer(ptr) if t not in skip]
    rel = file.relative_to(root.parent) if file.is_relative_to(root.parent) else file
    parts = list(rel.with_suffix("").parts)
    names = ["_".join(tokens)] if tokens else []
    names += ["_".join(parts[-depth:] + tokens) for depth in range(1, len(parts) + 1)]
    names.append("_".join([*parts, *split_pointer(ptr)]))
    return [re.sub(r"[^A-Za-z0-9_.-]", "_", n) for n in names]


def _assign_names(root: Path, keys: list[tuple[Path, str]], taken: set[str]) -> dict[
        tuple[Path, str], str]:
    """Give each bundled schema a unique name that depends on the set, not the order."""
    options = {k: _candidates(root, *k) for k in keys}
    level = dict.fromkeys(keys, 0)
    while True:
        chosen = {k: options[k][min(level[k], len(options[k]) - 1)] for k in keys}
        counts: dict[str, int] = {}
        for name in chosen.values():
            counts[name] = counts.get(name, 0) + 1
        clashing = [k for k in keys if (counts[chosen[k]] > 1 or chosen[k] in taken)
                    and level[k] < len(options[k]) - 1]
        if not clashing:
            break
        for k in clashing:
            level[k] += 1
    final = {}
    for k in sorted(keys, key=lambda k: (str(k[0]), k[1])):
        name = chosen[k]
        while name in taken:  # identical full paths cannot clash; this is a last resort
            name += "_"
        taken.add(name)
        final[k] = name
    return final


def _fill(node: Any, names: dict[tuple[Path, str], str], home: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        for i, v in enumerate(node):
            node[i] = _fill(v, names, home)
    elif isinstance(node, dict):
        for k, v in node.items():
            if k == "$ref" and isinstance(v, _Placeholder):
                node[k] = "#" + pointer(*home, names[v.key])
            elif not k.startswith("x-") and k not in LITERAL_KEYS:
                node[k] = _fill(v, names, home)
    return node


def bundle(path: Path) -> Bundle:
    """Read ``path`` and every file its ``$ref``s reach; return one document."""
    bundler = _Bundler(path)
    root_doc = bundler.doc(bundler.root, (str(path), ""))
    if not isinstance(root_doc, dict):
        raise fail(str(path), "", "the document is not a mapping",
                   "an OpenAPI document is a JSON/YAML object")
    document = bundler.walk(root_doc, bundler.root, "", False)
    if bundler.schema_bodies:
        home = ("definitions",) if "swagger" in document else ("components", "schemas")
        schemas = document
        for token in home:
            schemas = schemas.setdefault(token, {})
        names = _assign_names(bundler.root, sorted(bundler.schema_bodies, key=str),
                              set(schemas))
        for key in sorted(names, key=lambda k: names[k]):
            schemas[names[key]] = bundler.schema_bodies[key]
        _fill(document, names, home)
    return Bundle(document, dict(sorted(bundler.raw.items())))
