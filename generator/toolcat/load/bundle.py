"""Bundle a multi-file document into one, so later stages see only local ``$ref``s.

A ``$ref`` to another file is resolved relative to the file that holds it. Where
the reference sits in a schema position its target becomes a named entry of
``components.schemas`` (schemas may be recursive, so they are shared, never
copied); anywhere else (path items, operations, parameters, responses...) the
target is copied in place, as those cannot be recursive. A ``components.schemas``
entry that is nothing but a reference to another file (lichess lists its schemas
that way) is replaced by the target, so the schema keeps the entry's name.

Only a ``$ref`` key whose value is a string is a reference: Kubernetes has a
*property* named ``$ref``, and ``$ref: null`` (YAML reads an unquoted ``#...`` as a
comment) is left for the stage that needs the schema to report with its location.
Extensions (``x-*``) and literal values (``example``, an Example's ``value``, and a
schema's ``default``/``const``/``enum``/``examples``) are copied verbatim: they are
not part of any tool, and a broken reference inside them must not stop generation.
``default`` is a literal only where it is not the ``default`` response.

OpenAPI 3.1 schemas may name themselves with ``$id`` and mark places with
``$anchor``; a reference such as ``/components/schemas/petdetails#pet_details_id``
is resolved the JSON Schema way (against the enclosing ``$id``, then the file's
URI) through an index of those names, and rewritten to a plain JSON pointer.
Fragment-only references (``#/components/...``) are read against the document,
as every OpenAPI author means them, and fall back to the enclosing ``$id``
resource only when the document has no such pointer.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin, urlsplit

from ..errors import Problem, ToolcatError, fail
from ..parse.duplicates import Repeats
from ..parse.inputs import Inputs, Read, SpecFiles
from ..parse.limits import SPLICING, path_problem, read_bounded
from ..parse.reader import read_document
from ..vocab.keywords import DEFINITIONS, SUBSCHEMA_LIST, SUBSCHEMA_MAP, SUBSCHEMA_ONE
from ..vocab.pointers import escape_token, pointer, split_pointer

# Keys whose value is one schema / a map of schemas / a list of schemas: a
# parameter's or media type's "schema" too, and named definitions.
SCHEMA_ONE = SUBSCHEMA_ONE | {"schema"}
SCHEMA_MAP = SUBSCHEMA_MAP | DEFINITIONS
SCHEMA_LIST = SUBSCHEMA_LIST
# Literal values inside a schema, and literal values anywhere else.
SCHEMA_LITERALS = frozenset({"example", "examples", "default", "const", "enum"})
OBJECT_LITERALS = frozenset({"example", "value", "default", "enum"})
_REMOTE = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|//)")


@dataclass(frozen=True)
class _Target:
    file: Path
    ptr: str


@dataclass
class Bundle:
    """The bundled document and the files it was read from (for digests)."""

    document: Any
    files: SpecFiles = field(default_factory=SpecFiles)
    # Keys written twice in one object, in any file read (parse/duplicates.py): a
    # finding of the spec's validation mode, never a silent loss.
    duplicates: tuple[Problem, ...] = ()
    # Whether the document holds a list under ``items`` where load/repairs.py looks, as
    # its read found (``check_tree_refs``); None: not known.
    tuples: bool | None = None
    # Which of ``readOnly``/``writeOnly`` the document may hold, as its read found
    # (``check_tree_refs``); None: not known (normalise/schema.py then looks).
    access: frozenset[str] | None = None
    # Each file's duplicates, in the order read, JSON files' checks left for later
    # (parse/duplicates.py, ``Repeats.defer``): ``found`` adds them to ``duplicates``.
    later: tuple[Repeats, ...] = ()

    def found(self) -> tuple[Problem, ...]:
        """Every key written twice, the checks left for later done now."""
        return (*self.duplicates, *(p for r in self.later for p in r.settled()))


@dataclass
class _Names:
    """``$id`` and ``$anchor`` names found in the files read so far."""

    ids: dict[str, _Target] = field(default_factory=dict)        # uri -> resource
    anchors: dict[tuple[str, str], _Target] = field(default_factory=dict)
    pending: list[Path] = field(default_factory=list)            # read, not yet indexed


class _Bundler:
    def __init__(self, root: Path, ref_root: Path | None = None,
                 read: Read = read_bounded) -> None:
        self.root = root.resolve()
        self.read = read    # every file through the run's Inputs: read once
        # Relative $refs may reach only files under this folder (item: a spec must
        # not make toolcat read, copy or print ../secret/.env).
        self.allowed = (ref_root or root.parent).resolve()
        self.docs: dict[Path, Any] = {}
        self.raw: dict[Path, bytes] = {}
        self.schema_bodies: dict[_Target, Any] = {}
        self.holders: list[dict[str, Any]] = []     # dicts whose $ref is a placeholder
        # discriminator mappings: (mapping, key, holder whose $ref the value becomes)
        self.mappings: list[tuple[dict[str, Any], str, dict[str, Any]]] = []
        self.preferred: dict[_Target, str] = {}     # target -> components.schemas name
        self.inlining: list[_Target] = []
        self.names = _Names()
        self.repeats: list[Repeats] = []
        self.uris: dict[Path, str] = {}
        self.targets: dict[tuple[str, Path, str], _Target] = {}
        self.rels: dict[Path, str] = {}

    def doc(self, path: Path, where: tuple[str, str]) -> Any:
        if path not in self.docs:
            if path != self.root:
                self.openable(path, where)
                self.confine(path, where)
            if not path.exists():
                raise fail(*where, f"$ref names a file that does not exist: {path}",
                           "fix the reference or add the file")
            if path != self.root and not path.is_file():
                raise fail(*where, f"$ref names '{self.rel(path)}', which is not a regular "
                           "file (a folder, device or FIFO)", "point it at a spec file")
            # Named as the user named the root, and other files relative to its folder.
            repeats = Repeats(where[0] if path == self.root else self.rel(path), keep=True,
                              defer=True)
            self.docs[path], self.raw[path] = read_document(path, repeats, self.read)
            self.repeats.append(repeats)
            if path != self.root and not isinstance(self.docs[path], (dict, list)):
                # Never quote it: a file that is not a document may hold secrets.
                raise fail(*where, f"$ref names '{self.rel(path)}', which is not a JSON "
                           "or YAML document (it holds a single "
                           f"{type(self.docs[path]).__name__})",
                           "point the reference at an OpenAPI or JSON Schema file")
            self.names.pending.append(path)
        return self.docs[path]

    def openable(self, path: Path, where: tuple[str, str]) -> None:
        """Refuse a file name no system call takes, at the reference (a NUL, a name or
        path past the system's limits, a symlink loop): not an internal error."""
        problem = path_problem(path)
        if problem is None:
            try:
                path.resolve()
                path.exists()
            except (OSError, RuntimeError) as exc:   # RuntimeError: a loop, Python < 3.13
                problem = f"it cannot be resolved ({getattr(exc, 'strerror', None) or exc})"
        if problem is not None:
            shown = repr(str(path)[:200] + ("..." if len(str(path)) > 200 else ""))
            raise fail(*where, f"$ref names a file toolcat cannot open: {problem}: {shown}",
                       "fix the reference")

    def confine(self, path: Path, where: tuple[str, str]) -> None:
        """Refuse a file outside the allowed folder tree (symlinks resolved first)."""
        if not path.resolve().is_relative_to(self.allowed):
            raise fail(*where, f"$ref reaches '{path}', outside the folder toolcat may "
                       f"read references from ({self.allowed})",
                       "move the file under the spec's folder, or allow a wider folder "
                       "with ref_root: in the catalog config (--ref-root ad hoc)")

    def lookup(self, target: _Target, where: tuple[str, str], ref: str) -> Any:
        node = self.doc(target.file, where)
        for token in split_pointer(target.ptr):
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise fail(*where, f"$ref '{ref}' does not resolve: "
                           f"'{self.rel(target.file)}' has no '{target.ptr}'",
                           "fix the reference")
        return node

    def exists(self, target: _Target) -> bool:
        try:
            self.lookup(target, ("", ""), "")
        except Exception:
            return False
        return True

    # -- resolving a reference to (file, pointer) ----------------------------------------
    def uri(self, path: Path) -> str:
        if path not in self.uris:
            self.uris[path] = path.as_uri()
        return self.uris[path]

    def target(self, ref: str, base: Path, scope: str, where: tuple[str, str]) -> _Target:
        key = (ref, base, scope)
        if key not in self.targets:
            self.targets[key] = self._target(ref, base, scope, where)
        return self.targets[key]

    def _target(self, ref: str, base: Path, scope: str, where: tuple[str, str]) -> _Target:
        file_uri = self.uri(base)
        if ref.startswith("#"):
            frag = unquote(ref[1:])
            if frag == "" or frag.startswith("/"):
                found = _Target(base, frag)
                if scope == file_uri or self.exists(found):
                    return found
                inner = self.by_uri(scope, frag, ref, where)
                return inner if inner is not None and self.exists(inner) else found
            return self.anchor(scope, frag, ref, where)
        self.index()
        if scope == file_uri and not self.names.ids and not _REMOTE.match(ref):
            # The common case, without URI round trips: a path relative to this file.
            file_part, _, frag = ref.partition("#")
            file = Path(os.path.normpath(base.parent / unquote(file_part)))
        else:
            uri, frag = urldefrag(urljoin(scope, ref))
            named = self.by_uri(uri, unquote(frag), ref, where)
            if named is not None:
                return named
            if _REMOTE.match(ref) or urlsplit(uri).scheme != "file":
                raise fail(*where, f"remote $ref '{ref}' refused: toolcat never uses the "
                           "network", "download the document and refer to it by a relative "
                           "path")
            # urllib.request (and http.client under it): only for a file:// reference.
            from urllib.request import url2pathname  # noqa: PLC0415

            file = Path(os.path.normpath(url2pathname(urlsplit(uri).path)))
        frag = unquote(frag)
        if frag and not frag.startswith("/"):
            self.doc(file, where)
            return self.anchor(self.uri(file), frag, ref, where)
        return _Target(file, frag)

    def by_uri(self, uri: str, frag: str, ref: str, where: tuple[str, str]) -> _Target | None:
        """A target through an ``$id`` (plus a pointer or an anchor), if one matches."""
        self.index()
        resource = self.names.ids.get(uri)
        if resource is None:
            return None
        if frag == "" or frag.startswith("/"):
            return _Target(resource.file, resource.ptr + frag)
        return self.anchor(uri, frag, ref, where)

    def anchor(self, scope: str, name: str, ref: str, where: tuple[str, str]) -> _Target:
        self.index()
        found = self.names.anchors.get((scope, name))
        if found is None:
            raise fail(*where, f"$ref '{ref}' names an anchor '{name}' that no schema "
                       "declares", "declare it with $anchor or use a JSON pointer")
        return found

    def index(self) -> None:
        """Record every ``$id`` and ``$anchor`` of the files read so far."""
        while self.names.pending:
            file = self.names.pending.pop()
            if may_name_scopes(self.raw[file]):
                _index_names(self.docs[file], file, self.uri(file), "", self.names)

    # -- walking -------------------------------------------------------------
    def walk(self, node: Any, base: Path, loc: str, in_schema: bool, scope: str,
             parent: str = "") -> Any:
        if isinstance(node, list):
            return [self.walk(v, base, f"{loc}/{i}", in_schema, scope)
                    for i, v in enumerate(node)]
        if not isinstance(node, dict):
            return node
        if in_schema and isinstance(node.get("$id"), str):
            scope = urldefrag(urljoin(scope, node["$id"]))[0]
        ref = node.get("$ref")
        if isinstance(ref, str) and (not _local_pointer(ref) or base != self.root
                                     or scope != self.uri(base)):
            return self.follow(node, ref, base, loc, in_schema, scope)
        named = not in_schema and parent in _NAMED_MAPS
        return {k: self.child(k, v, base, loc, in_schema, scope, named)
                for k, v in node.items()}

    def child(self, key: str, value: Any, base: Path, loc: str, in_schema: bool,
              scope: str, named: bool = False) -> Any:
        """Walk one member; ``named``: the keys of this map are names, never keywords."""
        here = f"{loc}/{escape_token(key)}"
        if named:
            return self.walk(value, base, here, False, scope, key)
        if key.startswith("x-") or key in (SCHEMA_LITERALS if in_schema else OBJECT_LITERALS):
            return value
        if key in SCHEMA_ONE and (in_schema or key == "schema"):
            return self.walk(value, base, here, True, scope)
        if in_schema and key in SCHEMA_MAP and isinstance(value, dict):
            return self.schema_map(value, base, here, scope)
        if in_schema and key == "discriminator" and isinstance(value, dict):
            return self.discriminator(value, base, here, scope)
        if in_schema and key in SCHEMA_LIST:
            return self.walk(value, base, here, True, scope)
        top_schemas = (key == "schemas" and loc == "/components") or (
            key == "definitions" and loc == "")
        if top_schemas and isinstance(value, dict):
            return self.top_schemas(value, base, here, scope)
        return self.walk(value, base, here, in_schema, scope, key)

    def map_entries(self, value: dict[str, Any], base: Path, loc: str,
                    scope: str) -> list[tuple[str, Any, Path, str, str]]:
        """(name, schema, base, location, scope) of a map of schemas.

        A string is never a schema, so ``$ref: 'file#/ptr'`` as a member of such a
        map (DigitalOcean's ``properties``, lichess's ``components.schemas``) names
        a map to splice in; its own members win over the spliced ones.
        """
        ref = value.get("$ref")
        own = [(k, v, base, f"{loc}/{escape_token(k)}", scope)
               for k, v in value.items() if not (k == "$ref" and isinstance(ref, str))]
        if not isinstance(ref, str):
            return own
        where = (self.rel(base), f"{loc}/$ref")
        target = self.target(ref, base, scope, where)
        spliced = self.lookup(target, where, ref)
        if not isinstance(spliced, dict):
            raise fail(*where, f"$ref '{ref}' stands for a map of schemas but names a "
                       f"{type(spliced).__name__}", "point it at a mapping of name: schema")
        names = {k for k, *_ in own}
        inner = self.map_entries(spliced, target.file, target.ptr, self.uri(target.file))
        return [e for e in inner if e[0] not in names] + own

    def discriminator(self, value: dict[str, Any], base: Path, loc: str,
                      scope: str) -> dict[str, Any]:
        """A ``mapping`` value that is a reference is bundled like a ``$ref``, so that it
        still names its branch (DigitalOcean maps ``A`` to
        ``models/domain_record_types.yml#/domain_record_a``); a schema name, or a
        reference that does not resolve, is kept as written."""
        mapping = value.get("mapping")
        if not isinstance(mapping, dict):
            return dict(value)
        out = dict(mapping)
        for key, ref in mapping.items():
            if not isinstance(ref, str) or ("#" not in ref and "/" not in ref):
                continue
            here = f"{loc}/mapping/{escape_token(key)}"
            try:
                target = self.target(ref, base, scope, (self.rel(base), here))
            except ToolcatError:
                continue
            if self.exists(target):
                self.mappings.append((out, key, self.follow({"$ref": ref}, ref, base, here,
                                                            True, scope)))
        return {**value, "mapping": out}

    def schema_map(self, value: dict[str, Any], base: Path, loc: str,
                   scope: str) -> dict[str, Any]:
        return {name: self.walk(v, b, where, True, s)
                for name, v, b, where, s in self.map_entries(value, base, loc, scope)}

    def top_schemas(self, value: dict[str, Any], base: Path, loc: str,
                    scope: str) -> dict[str, Any]:
        out = {}
        for name, schema, here, where, inner_scope in self.map_entries(value, base, loc,
                                                                       scope):
            inner = schema.get("$ref") if isinstance(schema, dict) else None
            if isinstance(inner, str) and set(schema) == {"$ref"}:
                target = self.target(inner, here, inner_scope, (self.rel(here), where))
                if target.file != self.root:
                    self.preferred.setdefault(target, name)
            out[name] = self.walk(schema, here, where, True, inner_scope)
        return out

    def follow(self, node: dict[str, Any], ref: str, base: Path, loc: str,
               in_schema: bool, scope: str) -> Any:
        where = (self.rel(base), loc or "/")
        target = self.target(ref, base, scope, where)
        siblings = {k: self.child(k, v, base, loc, in_schema, scope)
                    for k, v in node.items() if k != "$ref"}
        if target.file == self.root:
            self.lookup(target, where, ref)
            return {"$ref": "#" + pointer(*split_pointer(target.ptr)), **siblings}
        if in_schema:
            if target not in self.schema_bodies:
                self.schema_bodies[target] = None  # placeholder: breaks cycles
                value = self.lookup(target, where, ref)
                self.schema_bodies[target] = self.walk(value, target.file, target.ptr, True,
                                                       self.uri(target.file))
            holder = {"$ref": _Placeholder(target), **siblings}
            self.holders.append(holder)
            return holder
        if target in self.inlining:
            raise fail(*where, f"$ref cycle through non-schema objects at '{ref}'",
                       "only schemas may be recursive")
        self.inlining.append(target)
        value = self.walk(self.lookup(target, where, ref), target.file, target.ptr, False,
                          self.uri(target.file))
        self.inlining.pop()
        if isinstance(value, dict):
            return {**value, **siblings}
        return value

    def rel(self, path: Path) -> str:
        """The file as messages name it: relative to the root document's folder."""
        if path not in self.rels:
            try:
                self.rels[path] = str(path.relative_to(self.root.parent))
            except ValueError:
                self.rels[path] = str(path)
        return self.rels[path]


# Maps whose keys are names chosen by the author (a response named "default", a
# schema named "enum"), so no key in them is a keyword or a literal.
_NAMED_MAPS = frozenset({"paths", "responses", "parameters", "examples", "requestBodies",
                         "headers", "securitySchemes", "securityDefinitions", "links",
                         "callbacks", "pathItems", "content", "encoding", "webhooks"})


def _local_pointer(ref: str) -> bool:
    return ref == "#" or ref.startswith("#/")


def _index_names(node: Any, file: Path, scope: str, ptr: str, names: _Names) -> None:
    if isinstance(node, list):
        for i, v in enumerate(node):
            _index_names(v, file, scope, f"{ptr}/{i}", names)
        return
    if not isinstance(node, dict):
        return
    if isinstance(node.get("$id"), str):
        scope = urldefrag(urljoin(scope, node["$id"]))[0]
        names.ids.setdefault(scope, _Target(file, ptr))
    for key in ("$anchor", "$dynamicAnchor"):
        if isinstance(node.get(key), str):
            names.anchors.setdefault((scope, node[key]), _Target(file, ptr))
    for key, value in node.items():
        if not key.startswith("x-") and key not in SCHEMA_LITERALS and key != "value":
            _index_names(value, file, scope, f"{ptr}/{escape_token(key)}", names)


class _Placeholder(str):
    """A ``$ref`` value to fill in once every bundled schema has its name."""

    key: _Target

    def __new__(cls, key: _Target) -> _Placeholder:
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


def _assign_names(root: Path, keys: list[_Target], taken: set[str]) -> dict[_Target, str]:
    """Give each bundled schema a unique name that depends on the set, not the order."""
    options = {k: _candidates(root, k.file, k.ptr) for k in keys}
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
    for k in sorted(keys, key=lambda k: (str(k.file), k.ptr)):
        name = chosen[k]
        while name in taken:  # identical full paths cannot clash; this is a last resort
            name += "_"
        taken.add(name)
        final[k] = name
    return final


def _place_schemas(bundler: _Bundler, document: dict[str, Any]) -> None:
    """Put every bundled schema under its name and point the placeholders at it."""
    home = ("definitions",) if "swagger" in document else ("components", "schemas")
    schemas = document
    for token in home:
        schemas = schemas.setdefault(token, {})
    names: dict[_Target, str] = {}
    for target, name in sorted(bundler.preferred.items(), key=lambda kv: kv[1]):
        entry = schemas.get(name)
        if (isinstance(entry, dict) and set(entry) == {"$ref"}
                and isinstance(entry["$ref"], _Placeholder) and entry["$ref"].key == target):
            names[target] = name
            schemas[name] = bundler.schema_bodies[target]
    rest = sorted((k for k in bundler.schema_bodies if k not in names),
                  key=lambda k: (str(k.file), k.ptr))
    added = _assign_names(bundler.root, rest, set(schemas))
    for key in sorted(added, key=lambda k: added[k]):
        schemas[added[key]] = bundler.schema_bodies[key]
    names.update(added)
    for holder in bundler.holders:
        holder["$ref"] = "#" + pointer(*home, names[holder["$ref"].key])


# Where a file may hold a ``$id``, ``$anchor`` or ``$dynamicAnchor`` key: its text as
# written, or spelt with an escape (JSON ``"$i\u0064"``, ``"\u0024id"``; YAML ``"\x24id"``).
# Two scans with a literal first byte: 16 ms on GitHub's 13 MB, where three ``in``
# scans took 25 (and missed the escapes).
_SCOPE_TEXT = re.compile(rb"\$(?:id|anchor|dynamicAnchor|[A-Za-z]*\\)")
_ESCAPED_DOLLAR = re.compile(rb"\\(?:u0024|x24|U00000024)")


def may_name_scopes(raw: bytes) -> bool:
    """False when no key of the file ``raw`` can be ``$id``, ``$anchor`` or
    ``$dynamicAnchor``."""
    return _SCOPE_TEXT.search(raw) is not None or _ESCAPED_DOLLAR.search(raw) is not None


def _self_contained(document: dict[str, Any], raw: bytes, read: Read) -> bool:
    """True when walking ``document`` would rebuild it unchanged.

    The walk changes a single file only through a ``$ref`` that is not a pointer
    into the file, a ``$ref`` member of a map of schemas (spliced in), or an
    ``$id``/``$anchor`` scope. This looks for those without the walk's context, so
    it errs towards walking: any string ``$ref`` that is not ``#`` or ``#/...``,
    any string ``$ref`` member of a dict held under a schema-map key (wherever it
    is), and any ``$id``/``$anchor`` text in the file (``may_name_scopes``). Most single-file specs
    (GitHub's 13 MB, Stripe) pass, and skip a walk that costs a third of a cold
    ``check``. A JSON file read through the run's ``Inputs`` was asked the same while
    its depth was checked (parse/limits.py, ``check_tree_refs``): no walk of its own.
    """
    if may_name_scopes(raw):
        return False
    known = read.refs_local(raw) if isinstance(read, Inputs) else None
    if known is not None:
        return known
    stack: list[Any] = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and not _local_pointer(ref):
                return False
            for key, value in node.items():
                if isinstance(value, dict):
                    if key in SPLICING and isinstance(value.get("$ref"), str):
                        return False
                    stack.append(value)
                elif isinstance(value, list):
                    stack.append(value)
        else:
            stack.extend(v for v in node if isinstance(v, (dict, list)))
    return True


def bundle(path: Path, ref_root: Path | None = None, read: Read = read_bounded) -> Bundle:
    """Read ``path`` and every file its ``$ref``s reach (only files under ``ref_root``,
    by default the folder of ``path``; each through ``read``); return one document."""
    bundler = _Bundler(path, ref_root, read)
    root_doc = bundler.doc(bundler.root, (str(path), ""))
    if not isinstance(root_doc, dict):
        raise fail(str(path), "", "the document is not a mapping",
                   "an OpenAPI document is a JSON/YAML object")
    raw = bundler.raw[bundler.root]
    if _self_contained(root_doc, raw, read):   # the document as read
        facts = (read.tuples(raw), read.access(raw)) if isinstance(read, Inputs) else (None, None)
        return Bundle(root_doc, SpecFiles(bundler.raw), (), *facts, tuple(bundler.repeats))
    document = bundler.walk(root_doc, bundler.root, "", False, bundler.uri(bundler.root))
    if bundler.schema_bodies:
        _place_schemas(bundler, document)
    for mapping, key, holder in bundler.mappings:
        mapping[key] = str(holder["$ref"])
    return Bundle(document, SpecFiles(bundler.raw), later=tuple(bundler.repeats))
