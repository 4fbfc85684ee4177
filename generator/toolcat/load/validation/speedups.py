"""Pure speedups for openapi-spec-validator, active only while a document is validated.

Each patch replaces one slow step of the validator (or a library under it) with a
step that returns the same value: the same errors, in the same order, with the same
messages. They are written against exact versions of those libraries; a patch whose
libraries are at any other version is skipped, and validation is then slower but
unchanged. ``speedups()`` installs the patches that apply and removes them on exit,
so nothing outside validation ever runs patched code.

* ``subscriptable``: pathable asks ``isinstance(node, Subscriptable)``, a
  runtime-checkable Protocol (slow on Python 3.11), at every step of every path. For
  the exact types JSON and YAML data is made of the answer depends only on the type,
  so it is asked once per type when the patch is installed.
* ``metaschema-validator``: each schema of the document is checked against the
  dialect's metaschema by a metaschema validator built anew for it (a new registry
  and resolver each time). One validator per (class, format checker) gives the same
  errors: validating does not change a validator.
* ``reference-lookup``: a ``referencing.Resolver`` is immutable, so looking the same
  reference up twice from the same resolver object finds the same thing. Successful
  lookups are remembered per (resolver object, reference); failures run again.
* ``metaschema-evolve``: jsonschema builds a new validator object for each step into
  a subschema of the metaschema. Steps into the same subschema with the same
  resolver (objects, which the lookup memo keeps stable) build equal validators, so
  the first is kept and reused. Only the two metaschema validator classes are
  touched (Draft 4 for OpenAPI 2.0/3.0, Draft 2020-12 for 3.1/3.2).
* ``metaschema-prefilter``: an OpenAPI 3.0 schema is checked against its Draft 4
  metaschema by jsonschema in Python, the validator's slowest step. jsonschema-rs (which
  the validator already requires) answers first, calling Python's own format checker
  for the one format the metaschema names (``regex``); when it finds the schema valid,
  no error can come from the Python check and it is skipped. Any
  other answer (invalid, a value jsonschema-rs cannot take) runs the Python check, so
  the errors and their messages are Python's. ``tests/validation/test_validator_prefilter.py``
  holds jsonschema-rs to being at least as strict, on every schema of the corpus and on
  generated ones.
* ``metaschema-prefilter-31``: the same for OpenAPI 3.1, whose schemas are checked
  against the 3.1 dialect (Draft 2020-12 and the OpenAPI vocabulary, joined by
  ``$dynamicRef``): 90% of the validator's time on OpenAI's 3.1 description (1.6 s).
  jsonschema-rs is given every metaschema of the Python check's registry and its
  format checker; ``tests/validation/test_validator_prefilter_31.py`` holds it to being
  at least as strict on every schema the 3.1 corpus documents check and on generated
  ones (the dynamic scope included: an OpenAPI keyword nested anywhere).
* ``schema-keywords``: the validator's walk over a schema asks ``"allOf" in schema``
  and nine more such questions of every schema it visits, each a path lookup through
  jsonschema-path (390,000 on GitHub's description). The schema's value, which the walk
  reads first, answers each the same (a lookup resolves the same ``$ref`` and reads the
  same mapping); everything else runs as written (``walk.schema_walk`` is the library's
  ``SchemaValidator.__call__`` with those questions put to the value).
* ``root-node``: every path the semantic pass reads (``paths/~1pets/get/responses/...``)
  was resolved again from the document's root, through jsonschema-path's caches:
  hashing and slicing the tuple of parts, 95,000 times on GitHub's description, most of
  the validator's time. The pass starts from a ``walk.Node`` at the root instead: each
  step is resolved once, from its parent's result, which is what resolving the whole
  path finds (``walk.py`` says why); ``tests/validation/test_validator_speedups.py``
  holds Node to answering every question as ``SchemaPath`` does.
* ``reference-chain``: jsonschema-path resolves a ``$ref`` whose target is another
  ``$ref`` by recursion, from each node anew, through a new resolver per step (which
  the lookup memo cannot recognise): a chain of N bare references cost N²/2 lookups
  (2,000 schemas 23 s) and, from about 1,000, a RecursionError. The chain is followed
  in a loop, and the end each reference node reaches from a (base URI, registry) is
  remembered: the contents found are the same, and only the resolver's dynamic scope
  (``_previous``, read by no part of the validator) can differ. A chain that comes back
  to a node it passed raises RecursionError, as the recursion did.
* ``schema-json``: the OpenAPI schema a document is checked against ships as a JSON
  file, which jsonschema-path reads with PyYAML's pure-Python constructor and then
  round-trips through ``json`` (0.08 s of each validation). It is read with ``json``
  alone: the same value (``tests/validation/test_validator_speedups.py`` compares
  both readings of every schema the installed validator ships) and the same URI.

Memos key on ``id()`` of the objects involved and hold those objects, so an id
cannot be reused while the memo lives; every memo is dropped when ``speedups()``
exits. Patches are class attributes: validate from one thread at a time (toolcat
validates in a forked child, or in the main thread where ``fork`` is missing).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ... import identity

Undo = Callable[[], None]


@dataclass(frozen=True)
class Patch:
    name: str
    written_for: dict[str, str]          # distribution -> the exact version patched
    install: Callable[[], Undo | None]   # None: the code is not shaped as expected
    needs: tuple[str, ...] = ()          # patches that must be installed first


def installed_version(distribution: str) -> str | None:
    """The installed version (None: not installed), from the folder names as the
    record reads them: importlib.metadata costs the generating process ~50 ms to import."""
    found = identity.installed_version(distribution)
    return None if found == "absent" else found


def applicable(patch: Patch) -> bool:
    return all(installed_version(d) == v for d, v in patch.written_for.items())


@contextmanager
def speedups(patches: tuple[Patch, ...] | None = None) -> Iterator[tuple[str, ...]]:
    """Install the patches that apply (default: all); yield their names; remove them."""
    undos: list[Undo] = []
    names: list[str] = []
    try:
        for patch in PATCHES if patches is None else patches:
            if not applicable(patch) or not set(patch.needs) <= set(names):
                continue
            undo = patch.install()
            if undo is not None:
                undos.append(undo)
                names.append(patch.name)
        yield tuple(names)
    finally:
        for undo in reversed(undos):
            undo()


def _set_attribute(owner: type, name: str, value: Any) -> Undo:
    original = owner.__dict__[name]
    setattr(owner, name, value)
    return lambda: setattr(owner, name, original)


# --- subscriptable ---------------------------------------------------------------

def _install_subscriptable() -> Undo | None:
    from pathable.accessors import SubscriptableAccessor  # noqa: PLC0415
    from pathable.protocols import Subscriptable  # noqa: PLC0415

    original = SubscriptableAccessor.__dict__.get("_get_subnode")
    if not isinstance(original, classmethod):
        return None
    slow = original.__func__
    # The Protocol's answer for an object of one of these exact types depends on the
    # type alone (their instances take no attributes): ask it once for each.
    samples: tuple[Any, ...] = ({}, [], "", 0, 0.0, False, None)
    containers = frozenset(type(s) for s in samples if isinstance(s, Subscriptable))
    leaves = frozenset(type(s) for s in samples if not isinstance(s, Subscriptable))
    if containers != {dict, list, str}:
        return None

    def _get_subnode(cls: type, node: Any, part: Any) -> Any:
        kind = type(node)
        if kind in containers:
            try:
                return node[part]
            except (KeyError, IndexError, TypeError) as exc:
                raise KeyError(part) from exc
        if kind in leaves:
            raise KeyError(part)
        return slow(cls, node, part)

    return _set_attribute(SubscriptableAccessor, "_get_subnode", classmethod(_get_subnode))


# --- metaschema-validator --------------------------------------------------------

def _install_metaschema_validator() -> Undo | None:
    from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped] # noqa: PLC0415
    from jsonschema.validators import validator_for  # type: ignore[import-untyped] # noqa: PLC0415
    from openapi_schema_validator import validators as oas  # noqa: PLC0415

    classes = (oas.OAS30Validator, oas.OAS31Validator, oas.OAS32Validator)
    for cls in classes:
        bound = cls.__dict__.get("check_schema")
        if not (isinstance(bound, classmethod) and bound.__func__ is oas.check_openapi_schema):
            return None
    unset = vars(oas).get("_CHECK_SCHEMA_UNSET")
    registry = vars(oas).get("OPENAPI_SPECIFICATIONS")
    if unset is None or registry is None:
        return None
    built: dict[tuple[type, int], tuple[Any, Any]] = {}

    def check_schema(cls: Any, schema: Any, format_checker: Any = unset) -> None:
        # oas.check_openapi_schema, with its metaschema validator built once.
        if format_checker is unset:
            format_checker = cls.FORMAT_CHECKER
        key = (cls, id(format_checker))
        entry = built.get(key)
        if entry is None:
            validator_class = validator_for(cls.META_SCHEMA, default=cls)
            metaschema_validator = validator_class(
                cls.META_SCHEMA, format_checker=format_checker,
                registry=registry)
            entry = built[key] = (format_checker, metaschema_validator)
        for error in entry[1].iter_errors(schema):
            raise SchemaError.create_from(error)

    undos = [_set_attribute(cls, "check_schema", classmethod(check_schema)) for cls in classes]

    def undo() -> None:
        for each in undos:
            each()
        built.clear()

    return undo


# --- reference-lookup ------------------------------------------------------------

def _install_reference_lookup() -> Undo | None:
    from referencing._core import Resolver  # noqa: PLC0415

    slow = Resolver.__dict__.get("lookup")
    if not callable(slow):
        return None
    found: dict[tuple[int, str], tuple[Any, Any]] = {}

    def lookup(self: Any, ref: Any) -> Any:
        if type(ref) is not str:
            return slow(self, ref)
        key = (id(self), ref)
        hit = found.get(key)
        if hit is not None:
            return hit[1]
        resolved = slow(self, ref)
        found[key] = (self, resolved)
        return resolved

    undo = _set_attribute(Resolver, "lookup", lookup)

    def remove() -> None:
        undo()
        found.clear()

    return remove


# --- reference-chain -------------------------------------------------------------

def _install_reference_chain() -> Undo | None:
    from jsonschema_path.nodes import SchemaNode  # noqa: PLC0415
    from jsonschema_path.utils import is_ref  # noqa: PLC0415
    from referencing._core import Resolved  # noqa: PLC0415

    if not isinstance(SchemaNode.__dict__.get("_resolve_node"), classmethod):
        return None
    # (id of a reference node, base URI, id of the registry) -> (the node and the
    # registry, held so their ids stay theirs; what the chain from there resolves to)
    ends: dict[tuple[int, str, int], tuple[Any, Any, Any]] = {}
    make: Any = Resolved   # attrs' generic class: mypy does not see its fields

    def _resolve_node(cls: Any, node: Any, resolver: Any) -> Any:
        if not is_ref(node):
            return make(node, resolver)
        passed: dict[tuple[int, str, int], tuple[Any, Any]] = {}
        while is_ref(node):
            key = (id(node), resolver._base_uri, id(resolver._registry))
            hit = ends.get(key)
            if hit is not None:
                found = hit[2]
                break
            if key in passed:
                raise RecursionError("a $ref chain comes back to itself")
            passed[key] = (node, resolver._registry)
            resolved = resolver.lookup(cls._read_node(cls._get_subnode(node, "$ref")))
            node, resolver = resolved.contents, resolved.resolver
        else:
            found = make(node, resolver)
        for key, (held, registry) in passed.items():
            ends[key] = (held, registry, found)
        return found

    undo = _set_attribute(SchemaNode, "_resolve_node", classmethod(_resolve_node))

    def remove() -> None:
        undo()
        ends.clear()

    return remove


# --- metaschema-evolve -----------------------------------------------------------

_EVOLVED_FIELDS = frozenset({"schema", "_resolver"})


def _install_metaschema_evolve() -> Undo | None:
    from jsonschema.validators import (  # noqa: PLC0415
        Draft4Validator,
        Draft202012Validator,
    )

    undos: list[Undo] = []
    memos: list[dict[tuple[int, ...], tuple[Any, Any]]] = []
    for cls in (Draft4Validator, Draft202012Validator):
        slow = cls.__dict__.get("evolve")
        fields = [f.alias for f in getattr(cls, "__attrs_attrs__", ()) if f.init]
        if not callable(slow) or fields != [
                "schema", "resolver", "format_checker", "registry", "_resolver"]:
            for each in undos:
                each()
            return None
        memo: dict[tuple[int, ...], tuple[Any, Any]] = {}
        memos.append(memo)
        undos.append(_set_attribute(cls, "evolve", _memoised_evolve(cls, slow, memo)))

    def undo() -> None:
        for each in undos:
            each()
        for memo in memos:
            memo.clear()

    return undo


def _memoised_evolve(cls: Any, slow: Callable[..., Any],
                     memo: dict[tuple[int, ...], tuple[Any, Any]]) -> Callable[..., Any]:
    def evolve(self: Any, **changes: Any) -> Any:
        # The new validator is a function of its class and of the five fields it is
        # built from; only the common shape (schema and resolver changed, no legacy
        # RefResolver, whose scope stack is state) is memoised.
        if (type(self) is not cls or self._ref_resolver is not None
                or not changes.keys() <= _EVOLVED_FIELDS):
            return slow(self, **changes)
        schema = changes.get("schema", self.schema)
        resolver = changes.get("_resolver", self._resolver)
        format_checker = self.format_checker
        registry = self._registry
        key = (id(schema), id(resolver), id(format_checker), id(registry))
        hit = memo.get(key)
        if hit is not None:
            return hit[1]
        evolved = slow(self, **changes)
        memo[key] = ((schema, resolver, format_checker, registry), evolved)
        return evolved

    return evolve


# --- schema-keywords -------------------------------------------------------------

def _install_schema_keywords() -> Undo | None:
    from openapi_spec_validator.validation import keywords  # noqa: PLC0415

    cls = keywords.SchemaValidator
    if not callable(cls.__dict__.get("__call__")):
        return None
    if not all(hasattr(cls, name) for name in (
            "_collect_properties", "_validate_schema_meta", "default_validator")):
        return None
    from openapi_spec_validator.validation import exceptions  # noqa: PLC0415

    walk = _schema_walk(exceptions.OpenAPIValidationError, exceptions.ExtraParametersError)
    return _set_attribute(cls, "__call__", walk)


def _schema_walk(validation_error: Any, extra_parameters_error: Any) -> Callable[..., Any]:
    """openapi-spec-validator 0.9.0's ``SchemaValidator.__call__``, keyword questions
    put to the schema's value, each subschema resolved from its parent's result
    (``walk.py`` says why that finds the same)."""
    from .walk import schema_walk  # noqa: PLC0415

    return schema_walk(validation_error, extra_parameters_error)


# --- root-node -------------------------------------------------------------------

def _install_root_node() -> Undo | None:
    from openapi_spec_validator.validation import keywords  # noqa: PLC0415

    from .walk import Node  # noqa: PLC0415

    slow = keywords.RootValidator.__dict__.get("__call__")
    if not callable(slow):
        return None

    def root_call(self: Any, spec: Any) -> Iterator[Any]:
        # The semantic pass from the document's root, every step taken by a Node.
        return slow(self, spec if type(spec) is Node else Node.entered(spec))  # type: ignore[no-any-return]

    return _set_attribute(keywords.RootValidator, "__call__", root_call)


# --- metaschema-prefilter --------------------------------------------------------

DRAFT4 = "http://json-schema.org/draft-04/schema#"
DRAFT2020 = "https://json-schema.org/draft/2020-12/schema"


def _install_metaschema_prefilter() -> Undo | None:
    import jsonschema_rs  # noqa: PLC0415
    from openapi_schema_validator import validators as oas  # noqa: PLC0415

    cls = oas.OAS30Validator
    current = cls.__dict__.get("check_schema")
    unset = vars(oas).get("_CHECK_SCHEMA_UNSET")
    if not isinstance(current, classmethod) or unset is None:
        return None
    if cls.META_SCHEMA.get("$schema") != DRAFT4:
        return None
    surely_valid = prefilter(cls.META_SCHEMA, cls.FORMAT_CHECKER, jsonschema_rs)
    slow = current.__func__

    def check_schema(klass: Any, schema: Any, format_checker: Any = unset) -> None:
        if klass is cls and format_checker is unset and surely_valid(schema):
            return
        slow(klass, schema, format_checker)

    return _set_attribute(cls, "check_schema", classmethod(check_schema))


def _install_metaschema_prefilter_31() -> Undo | None:
    import jsonschema_rs  # noqa: PLC0415
    from openapi_schema_validator import validators as oas  # noqa: PLC0415

    cls = oas.OAS31Validator
    current = cls.__dict__.get("check_schema")
    unset = vars(oas).get("_CHECK_SCHEMA_UNSET")
    registry = vars(oas).get("OPENAPI_SPECIFICATIONS")
    if not isinstance(current, classmethod) or unset is None or registry is None:
        return None
    if cls.META_SCHEMA.get("$schema") != DRAFT2020:
        return None
    # The metaschemas the Python check resolves its references and dynamic references in.
    resources = [(uri, registry.contents(uri)) for uri in sorted(registry)]
    checker = cls.FORMAT_CHECKER
    surely_valid = prefilter(cls.META_SCHEMA, checker, jsonschema_rs, resources)
    slow = current.__func__

    def check_schema(klass: Any, schema: Any, format_checker: Any = unset) -> None:
        # The semantic pass asks with the 3.1 format checker named, which is the class's.
        if (klass is cls and (format_checker is unset or format_checker is checker)
                and surely_valid(schema)):
            return
        slow(klass, schema, format_checker)

    return _set_attribute(cls, "check_schema", classmethod(check_schema))


def prefilter(metaschema: Any, format_checker: Any, jsonschema_rs: Any,
              resources: list[tuple[str, Any]] | None = None) -> Callable[[Any], bool]:
    """True only for a schema the Python check of ``metaschema`` surely finds valid.

    jsonschema-rs checks every format the metaschema names (``regex`` for Draft 4; for
    2020-12 also those of the ``resources`` it refers to) by calling ``format_checker``,
    the Python check's own, so a format is judged alike by both and the structure by
    jsonschema-rs.
    """
    named = _formats(metaschema).union(*(_formats(r) for _, r in resources or ()))
    formats = {name: _conforms(format_checker, name) for name in sorted(named)}
    if metaschema.get("$schema") == DRAFT2020:
        fast = jsonschema_rs.Draft202012Validator(
            metaschema, validate_formats=True, formats=formats,
            registry=jsonschema_rs.Registry(resources or []))
    else:
        fast = jsonschema_rs.Draft4Validator(metaschema, validate_formats=True,
                                             formats=formats)

    def surely_valid(schema: Any) -> bool:
        try:
            return bool(fast.is_valid(schema))
        except (ValueError, TypeError, OverflowError):   # e.g. a key that is no string
            return False

    return surely_valid


def _conforms(format_checker: Any, name: str) -> Callable[[Any], bool]:
    return lambda value: bool(format_checker.conforms(value, name))


def _formats(schema: Any) -> set[str]:
    """The values of every ``format`` keyword in ``schema`` (a metaschema)."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("format"), str):
                found.add(node["format"])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


# --- schema-json -----------------------------------------------------------------

def _install_schema_json() -> Undo | None:
    from openapi_spec_validator.schemas import utils  # noqa: PLC0415

    slow = vars(utils).get("get_schema")
    if not callable(slow) or not callable(vars(utils).get("get_schema_content")):
        return None

    def get_schema(version: str) -> tuple[Any, str]:
        # utils.get_schema's path, read as jsonschema-path's FilePathReader does
        # (an absolute path, its file: URI), parsed by json alone.
        location = Path(utils.__file__).parent.parent / "resources" / "schemas"
        path = (location / f"v{version}" / "schema.json").absolute()
        if not path.is_file():
            return slow(version)  # type: ignore[no-any-return]
        return json.loads(path.read_bytes()), path.as_uri()

    utils.get_schema = get_schema

    def undo() -> None:
        utils.get_schema = slow

    return undo


PATCHES: tuple[Patch, ...] = (
    Patch("subscriptable", {"pathable": "0.6.0"}, _install_subscriptable),
    Patch("metaschema-validator",
          {"openapi-schema-validator": "0.9.0", "jsonschema": "4.26.0"},
          _install_metaschema_validator),
    Patch("reference-lookup", {"referencing": "0.37.0"}, _install_reference_lookup),
    Patch("reference-chain", {"jsonschema-path": "0.5.0", "referencing": "0.37.0"},
          _install_reference_chain),
    # Without the lookup memo every resolver is new: this memo would only grow.
    Patch("metaschema-evolve", {"jsonschema": "4.26.0"}, _install_metaschema_evolve,
          needs=("reference-lookup",)),
    Patch("schema-keywords", {"openapi-spec-validator": "0.9.0", "jsonschema-path": "0.5.0",
                              "pathable": "0.6.0", "referencing": "0.37.0"},
          _install_schema_keywords),
    Patch("root-node", {"openapi-spec-validator": "0.9.0", "jsonschema-path": "0.5.0",
                        "pathable": "0.6.0", "referencing": "0.37.0"}, _install_root_node),
    Patch("metaschema-prefilter",
          {"jsonschema-rs": "0.60.3", "openapi-schema-validator": "0.9.0",
           "jsonschema": "4.26.0"},
          _install_metaschema_prefilter, needs=("metaschema-validator",)),
    Patch("metaschema-prefilter-31",
          {"jsonschema-rs": "0.60.3", "openapi-schema-validator": "0.9.0",
           "jsonschema": "4.26.0", "jsonschema-specifications": "2025.9.1"},
          _install_metaschema_prefilter_31, needs=("metaschema-validator",)),
    Patch("schema-json", {"openapi-spec-validator": "0.9.0", "jsonschema-path": "0.5.0"},
          _install_schema_json),
)
