"""The validator speedups change no verdict: the same problems, in the same order.

Every document is validated twice in this process, without the patches of
generator/load/validation/speedups.py and with them, and every problem (not only the
first 20 that toolcat reports) is compared, together with the validator's own error
fields. A probe checks which library functions are patched while each run
validates, so a run that silently lost its patches (or kept them) fails instead of
comparing the slow path with itself.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from corpus.docs import BROKEN, DOCUMENTS, VALIDATOR_REJECTS, path_of, ref_root_of
from jsonschema.validators import Draft4Validator, Draft202012Validator
from jsonschema_path.nodes import SchemaNode
from openapi_schema_validator import OAS30Validator, OAS31Validator, OAS32Validator
from openapi_spec_validator.schemas import utils as schema_utils
from openapi_spec_validator.validation.keywords import RootValidator, SchemaValidator
from pathable.accessors import SubscriptableAccessor
from referencing._core import Resolver
from toolcat.errors import ToolcatError
from toolcat.load.bundle import bundle
from toolcat.load.validation import speedups as validator_speedups
from toolcat.load.validation import validate

ALL = tuple(p.name for p in validator_speedups.PATCHES)

# What each patch replaces, and the function that installs it (the replacement is
# defined inside it: its __qualname__ starts with that name). Two patches may replace
# the same attribute in turn (metaschema-prefilter wraps metaschema-validator's
# check_schema on OAS30Validator), so a patch counts as installed by its own code.
TARGETS: dict[str, tuple[str, tuple[tuple[Any, str], ...]]] = {
    "subscriptable": ("_install_subscriptable", ((SubscriptableAccessor, "_get_subnode"),)),
    "metaschema-validator": ("_install_metaschema_validator", tuple(
        (c, "check_schema") for c in (OAS30Validator, OAS31Validator, OAS32Validator))),
    "reference-lookup": ("_install_reference_lookup", ((Resolver, "lookup"),)),
    "reference-chain": ("_install_reference_chain", ((SchemaNode, "_resolve_node"),)),
    "metaschema-evolve": ("_memoised_evolve", ((Draft4Validator, "evolve"),
                                                (Draft202012Validator, "evolve"))),
    "schema-keywords": ("schema_walk", ((SchemaValidator, "__call__"),)),
    "root-node": ("_install_root_node", ((RootValidator, "__call__"),)),
    "metaschema-prefilter": ("_install_metaschema_prefilter",
                             ((OAS30Validator, "check_schema"),)),
    "metaschema-prefilter-31": ("_install_metaschema_prefilter_31",
                                ((OAS31Validator, "check_schema"),)),
    "schema-json": ("_install_schema_json", ((schema_utils, "get_schema"),)),
}


def _installed_by(owner: Any, name: str, installer: str) -> bool:
    value = owner.__dict__[name]
    function = getattr(value, "__func__", value)
    return str(getattr(function, "__qualname__", "")).startswith(installer + ".")


def patched_now() -> set[str]:
    """Names of the patches whose replacement is in place at this moment."""
    return {patch for patch, (installer, targets) in TARGETS.items()
            if any(_installed_by(owner, name, installer) for owner, name in targets)}


def test_every_patch_has_a_target() -> None:
    assert set(TARGETS) == set(ALL)


Record = tuple[Any, ...]


def run(document: dict[str, Any], file: str, fast: bool,
        monkeypatch: pytest.MonkeyPatch) -> tuple[set[str], list[Record]]:
    """(patches seen while validating, every problem with the error it came from)."""
    seen: list[set[str]] = []
    raw: list[Record] = []
    errors, problem = validate._errors, validate._problem

    def probed(doc: dict[str, Any]) -> Generator[Any, None, None]:
        seen.append(patched_now())
        yield from errors(doc)

    def recorded(err: Any, locator: Any, name: str) -> Any:
        raw.append((type(err).__name__, str(getattr(err, "message", err)),
                    list(getattr(err, "absolute_path", [])),
                    list(getattr(err, "schema_path", [])), getattr(err, "validator", None)))
        return problem(err, locator, name)

    with monkeypatch.context() as patch:
        patch.setattr(validate, "_errors", probed)
        patch.setattr(validate, "_problem", recorded)
        problems = validate._problems(document, file, None, fast=fast)
    assert patched_now() == set(), "a patch outlived validation"
    assert len(seen) == 1
    records: list[Record] = [(p.location, p.message, p.fix) for p in problems]
    records += [("raw", *r) for r in raw]
    return seen[0], records


def assert_same(name: str, document: dict[str, Any],
                monkeypatch: pytest.MonkeyPatch) -> list[Record]:
    slow_patches, slow = run(copy.deepcopy(document), name, False, monkeypatch)
    fast_patches, fast = run(document, name, True, monkeypatch)
    assert slow_patches == set(), f"the slow run was patched: {slow_patches}"
    assert fast_patches == set(ALL), f"the fast run lacked {set(ALL) - fast_patches}"
    for i, (before, after) in enumerate(zip(slow, fast, strict=False)):
        assert before == after, (f"{name}: record {i} differs\n  without speedups: "
                                 f"{before}\n  with speedups:    {after}")
    longer = slow if len(slow) > len(fast) else fast
    assert len(slow) == len(fast), (f"{name}: {len(slow)} records without speedups, "
                                    f"{len(fast)} with; first extra: "
                                    f"{longer[min(len(slow), len(fast))]}")
    return fast


@pytest.mark.parametrize("doc", DOCUMENTS)
def test_corpus_document_same_problems(doc: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = path_of(doc)
    if not path.exists():
        pytest.skip(f"shared test data absent: {path}")
    records = assert_same(doc, bundle(path, ref_root_of(doc)).document, monkeypatch)
    if doc in VALIDATOR_REJECTS or doc in BROKEN:  # the comparison saw problems
        assert records, f"{doc}: no problems either way, expected some"
    if doc in VALIDATOR_REJECTS:
        assert any(VALIDATOR_REJECTS[doc] in str(r[1]) for r in records), records[:3]


def _document(version: str) -> dict[str, Any]:
    """A small document with a problem of each kind the patched code reaches."""
    schemas: dict[str, Any] = {
        "Pet": {"type": "object", "required": ["id", "ghost"],
                "properties": {"id": {"type": "integer", "default": "one"},
                               "tags": {"type": "array",
                                        "items": {"$ref": "#/components/schemas/Tag"}},
                               "kind": {"type": "strin"}}},
        "Tag": {"allOf": [{"$ref": "#/components/schemas/Named"},
                          {"type": "object", "required": ["extra"]}]},
        "Named": {"type": "object", "properties": {"name": {"type": "string", "minLength": -1}}},
        "Odd": {"anyOf": [{"type": "string"}, {"enum": "not-a-list"}], "not": {"type": 3}},
    }
    param = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
    operation = {"parameters": [param, param],
                 "responses": {"200": {"description": "ok", "content": {"application/json": {
                     "schema": {"$ref": "#/components/schemas/Pet"}}}}}}
    document: dict[str, Any] = {
        "openapi": version, "info": {"title": "t", "version": "1"},
        "paths": {"/pets/{id}": {"get": operation}, "/x/{y}": {"get": {
            "responses": {"200": {"description": "ok"}}}}},
        "components": {"schemas": schemas},
    }
    if version.startswith("3.1"):
        schemas["Odd"]["$defs"] = {"local": {"type": ["string", 7]}}
        schemas["Pet"]["properties"]["self"] = {"$ref": "#/components/schemas/Pet"}
        schemas["Pet"]["properties"]["anything"] = True      # boolean schemas: 3.1 only
        schemas["Pet"]["properties"]["nothing"] = {"not": True, "default": 1}
        # unevaluatedProperties in the OpenAPI 3.1 vocabulary: "x-ok" is evaluated
        # through a $ref, "extra" is not.
        schemas["Tag"]["discriminator"] = {"propertyName": "kind", "x-ok": 1, "extra": 2}
    return document


def _swagger() -> dict[str, Any]:
    """Swagger 2.0: definitions named like those of the Draft 4 metaschema that checks them."""
    param = {"name": "id", "in": "path", "required": True, "type": "integer"}
    return {
        "swagger": "2.0", "info": {"title": "t", "version": "1"},
        "paths": {"/p/{id}": {"get": {"parameters": [param, param], "responses": {
            "200": {"description": "ok", "schema": {"$ref": "#/definitions/positiveInteger"}},
            "201": {"description": "ok", "schema": {"$ref": "#/definitions/schemaArray"}}}}}},
        "definitions": {
            "positiveInteger": {"type": "string", "maxLength": 3, "minLength": 1},
            "schemaArray": {"type": "array", "minItems": 1,
                            "items": {"$ref": "#/definitions/simpleTypes"}},
            "simpleTypes": {"type": "object", "properties": {
                "n": {"type": "integer", "minimum": "0"}}},
        },
    }


@pytest.mark.parametrize("version", ["2.0", "3.0.3", "3.1.0"])
def test_small_document_same_problems(version: str, monkeypatch: pytest.MonkeyPatch) -> None:
    document = _swagger() if version == "2.0" else _document(version)
    records = assert_same(version, document, monkeypatch)
    messages = [r[1] for r in records if r[0] != "raw"]
    assert any("Duplicate parameter" in m for m in messages), messages
    assert len(messages) >= 2, messages


def _chains(version: str) -> dict[str, Any]:
    """Chains of bare references (issue 28 item 9): one to a schema with problems, one
    that ends nowhere, one that comes back to itself, and references into them from
    properties and parameters."""
    ref = "#/components/schemas/"
    schemas: dict[str, Any] = {f"C{i}": {"$ref": f"{ref}C{i + 1}"} for i in range(40)}
    schemas["C40"] = {"type": "object", "required": "x", "properties": {
        "n": {"type": "integer", "minimum": "0"}, "c": {"$ref": f"{ref}C20"}}}
    schemas.update({f"D{i}": {"$ref": f"{ref}D{i + 1}"} for i in range(10)})
    schemas.update({"E0": {"$ref": f"{ref}E1"}, "E1": {"$ref": f"{ref}E0"}})
    schemas["U"] = {"type": "object", "properties": {
        "a": {"$ref": f"{ref}C0"}, "b": {"$ref": f"{ref}C5", "description": "d"}}}
    param = {"name": "q", "in": "query", "schema": {"$ref": f"{ref}C3"}}
    return {"openapi": version, "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"get": {"parameters": [param], "responses": {"200": {
                "description": "ok", "content": {"application/json": {"schema": {
                    "$ref": f"{ref}U"}}}}}}}},
            "components": {"schemas": schemas}}


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_reference_chains_same_problems(version: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    records = assert_same(f"chains {version}", _chains(version), monkeypatch)
    assert records, "the chains' problems were found"


def test_validate_document_runs_patched(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[set[str]] = []
    errors = validate._errors

    def probed(doc: dict[str, Any]) -> Iterator[Any]:
        seen.append(patched_now())
        yield from errors(doc)

    monkeypatch.setattr(validate, "_errors", probed)
    with pytest.raises(ToolcatError):
        validate.validate_document(_document("3.0.3"), "spec.json")
    assert seen == [set(ALL)]
    assert patched_now() == set()


def _versions(wrong: set[str]) -> Callable[[str], str | None]:
    real = validator_speedups.installed_version

    def version(distribution: str) -> str | None:
        return "0.0.0" if distribution in wrong else real(distribution)

    return version


@pytest.mark.parametrize(("wrong", "skipped"), [
    ({"pathable"}, {"subscriptable", "schema-keywords", "root-node"}),
    ({"openapi-schema-validator"}, {"metaschema-validator", "metaschema-prefilter",
                                    "metaschema-prefilter-31"}),
    ({"jsonschema"}, {"metaschema-validator", "metaschema-evolve", "metaschema-prefilter",
                      "metaschema-prefilter-31"}),
    ({"jsonschema-rs"}, {"metaschema-prefilter", "metaschema-prefilter-31"}),
    ({"jsonschema-specifications"}, {"metaschema-prefilter-31"}),
    ({"openapi-spec-validator", "jsonschema-path"},
     {"schema-keywords", "reference-chain", "root-node", "schema-json"}),
    ({"referencing"}, {"reference-lookup", "metaschema-evolve", "reference-chain",
                       "schema-keywords", "root-node"}),
    ({"pathable", "openapi-schema-validator", "jsonschema", "referencing", "jsonschema-rs",
      "openapi-spec-validator"},
     set(ALL)),
])
def test_other_versions_skip_their_patches(wrong: set[str], skipped: set[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A patch written for other versions is not installed; the verdict is what the
    library alone finds at those versions (the patches of ``order`` are skipped too)."""
    monkeypatch.setattr(validator_speedups, "installed_version", _versions(wrong))
    with validator_speedups.speedups() as applied:
        assert set(applied) == set(ALL) - skipped
        assert patched_now() == set(ALL) - skipped
    monkeypatch.undo()
    for version in ("3.0.3", "3.1.0"):
        document = _document(version)
        monkeypatch.setattr(validator_speedups, "installed_version", _versions(wrong))
        expected = run(copy.deepcopy(document), "spec", False, monkeypatch)[1]
        seen, records = run(document, "spec", True, monkeypatch)
        monkeypatch.undo()
        assert seen == set(ALL) - skipped
        assert records == expected, version


SHIPPED = sorted(p.parent.name[1:] for p in
                 (Path(schema_utils.__file__).parent.parent / "resources" / "schemas")
                 .glob("v*/schema.json"))


@pytest.mark.parametrize("version", SHIPPED)
def test_schema_read_by_json_is_the_schema_read_by_yaml(version: str) -> None:
    """Every OpenAPI schema the validator ships, read by the patch and as the library
    reads it: the same value (1 is not 1.0 is not True: compared as JSON text too),
    the same URI."""
    slow = schema_utils.get_schema(version)
    with validator_speedups.speedups() as applied:
        assert "schema-json" in applied
        fast = schema_utils.get_schema(version)
    assert fast[1] == slow[1]
    assert fast[0] == slow[0], version
    assert json.dumps(fast[0]) == json.dumps(slow[0]), version
    with validator_speedups.speedups(), pytest.raises(OSError, match="No such file"):
        schema_utils.get_schema("9.9")


def test_schema_versions_found() -> None:
    assert {"2.0", "3.0", "3.1"} <= set(SHIPPED), SHIPPED


def test_unexpected_code_skips_the_patch(monkeypatch: pytest.MonkeyPatch) -> None:
    """A target that is not the function the patch was written for stays as it is."""
    monkeypatch.setattr(OAS30Validator, "check_schema", classmethod(lambda cls, schema: None))
    with validator_speedups.speedups() as applied:
        assert "metaschema-validator" not in applied
        assert "metaschema-prefilter" not in applied   # it wraps metaschema-validator
        assert "subscriptable" in applied


def _outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    try:
        value = call()
    except Exception as exc:
        return type(exc).__name__, exc.args
    return "value", value


class _Mapping:
    """Not a builtin: the patch asks the Protocol, as pathable does."""

    def __contains__(self, key: object) -> bool:
        return key == "a"

    def __getitem__(self, key: str) -> int:
        return {"a": 1}[key]

    def __len__(self) -> int:
        return 1


def test_subscriptable_step_answers_as_before() -> None:
    nodes: list[Any] = [{"a": 1, "0": 2}, [10, 20], "text", 0, 7, 1.5, True, False, None,
                        (1, 2), b"xy", {1, 2}, _Mapping()]
    parts: list[Any] = ["a", "0", 0, 1, -1, 5, None, "x"]
    before = [_outcome(lambda n=n, p=p: SubscriptableAccessor._get_subnode(n, p))
              for n in nodes for p in parts]
    with validator_speedups.speedups() as applied:
        assert "subscriptable" in applied
        after = [_outcome(lambda n=n, p=p: SubscriptableAccessor._get_subnode(n, p))
                 for n in nodes for p in parts]
    assert after == before


def _odd(version: str) -> dict[str, Any]:
    """Shapes the walk steps through by reference or trips over: keywords whose value
    is a $ref (to a list, a mapping, a scalar), a composition that is no list, keys
    the path syntax splits or drops, a default checked through a reference, a
    reference that resolves nowhere, reached last."""
    ref = "#/components/schemas/"
    schemas: dict[str, Any] = {
        "Lists": {"x-list": [{"type": "string"}, {"$ref": f"{ref}Named"}],
                  "x-props": {"a#b": {"type": "integer", "default": "x"},
                              "": {"type": "string"}, ".": {"minimum": "0"}},
                  "x-required": ["a#b", "ghost"]},
        "Named": {"type": "object", "properties": {"name": {"type": "string"}}},
        "ByRef": {"allOf": {"$ref": f"{ref}Lists/x-list"},
                  "properties": {"$ref": f"{ref}Lists/x-props"},
                  "required": {"$ref": f"{ref}Lists/x-required"}},
        "NotAList": {"allOf": {"type": "string"}, "anyOf": "nothing", "oneOf": 3},
        "Scalar": {"items": {"$ref": f"{ref}Lists/x-required/0"}},
        "Defaulted": {"$ref": f"{ref}Named", "default": {"name": 5}},
        "DefaultRef": {"type": "object", "properties": {"n": {"$ref": f"{ref}Named"}},
                       "default": {"n": {"name": 7}}},
        "Nullable": {"type": "string", "nullable": {"$ref": f"{ref}Truth"},
                     "default": None},
        "Truth": True,
        "Shared": {"allOf": [{"$ref": f"{ref}Named"}, {"$ref": f"{ref}Named"}],
                   "required": ["name", "other"]},
        "Dangling": {"type": "object", "properties": {"d": {"$ref": f"{ref}Nowhere"}}},
    }
    document: dict[str, Any] = {
        "openapi": version, "info": {"title": "t", "version": "1"},
        "paths": {"/a": {"get": {"responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": f"{ref}ByRef"}},
            "text/plain": {"schema": {"$ref": f"{ref}Shared"}}}}}}}},
        "components": {"schemas": schemas},
    }
    if version.startswith("3.1"):
        document["jsonSchemaDialect"] = "https://spec.openapis.org/oas/3.1/dialect/base"
        schemas["Dialect"] = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                              "type": "object", "properties": {"k": {"const": 1}}}
    return document


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_odd_shapes_same_problems(version: str, monkeypatch: pytest.MonkeyPatch) -> None:
    records = assert_same(f"odd {version}", _odd(version), monkeypatch)
    assert any("does not resolve" in str(r[1]) for r in records), records


def test_unresolvable_remote_reference_same_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    document = _odd("3.0.3")
    document["components"]["schemas"]["Named"]["properties"]["far"] = {
        "$ref": "http://127.0.0.1:9/schema.json"}
    records = assert_same("remote", document, monkeypatch)
    assert records


def _paths(document: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
    """Every key path into ``document``, and one step past each leaf and missing key."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(document, ())]
    while stack:
        node, parts = stack.pop()
        yield parts
        if isinstance(node, dict):
            stack.extend((v, (*parts, k)) for k, v in node.items())
            yield (*parts, "absent")
        elif isinstance(node, list):
            stack.extend((v, (*parts, i)) for i, v in enumerate(node))
            yield (*parts, len(node))
        else:
            yield (*parts, "below-a-leaf")


def _shown(found: Any) -> Any:
    """A value as itself, a path by its parts and the identity of its value."""
    if hasattr(found, "read_value") and hasattr(found, "parts"):
        return ("path", tuple(found.parts), id(found.read_value()))
    return ("value", found)


def _questions(path: Any) -> list[tuple[str, Any]]:
    """What the walk and the library code it calls ask of a path, with the outcome."""
    def listed(call: Callable[[], Any]) -> Callable[[], Any]:
        return lambda: list(call())

    def resolved() -> tuple[Any, Any]:
        with path.resolve() as found:
            return id(found.contents), found.resolver._base_uri

    return [
        ("read_value", _outcome(lambda: id(path.read_value()))),
        *((f"in {key!r}", _outcome(lambda key=key: key in path))
          for key in ("allOf", "properties", "$ref", 0, 1, 2, -1, "a#b", "")),
        ("keys", _outcome(listed(path.keys))),
        ("iter", _outcome(lambda: [tuple(p.parts) for p in path])),
        ("items", _outcome(lambda: [(k, tuple(p.parts)) for k, p in path.items()])),
        ("resolve", _outcome(resolved)),
        ("len", _outcome(lambda: len(path))),
        ("read_str", _outcome(path.read_str)),
        ("read_str default", _outcome(lambda: path.read_str(default="d"))),
        *((f"[{key!r}]", _outcome(lambda key=key: _shown(path[key])))
          for key in ("$ref", "type", "name", 0, 5, "absent")),
        *((f"/ {key!r}", _outcome(lambda key=key: id((path / key).read_value())))
          for key in ("properties", "a#b", "", ".", 0)),
    ]


@pytest.mark.parametrize("version", ["3.0.3", "3.1.0"])
def test_node_answers_as_schema_path(version: str) -> None:
    """walk.Node, stepped key by key from the root, answers every question the way the
    SchemaPath of the same parts does (same values by identity, same exceptions)."""
    from jsonschema_path import SchemaPath
    from toolcat.load.validation.walk import Node

    document = _odd(version)
    root = SchemaPath.from_dict(document, handlers=validate._DenyEveryScheme())
    compared = 0
    for parts in _paths(document):
        node = Node.entered(root)
        for part in parts:
            node = node.child(part)
        expected = _questions(root._clone_with_parts(parts))
        got = _questions(node)
        differing = [(a, b) for a, b in zip(expected, got, strict=True) if a != b]
        assert got == expected, f"{parts}: {differing}"
        compared += 1
    assert compared > 100


def _deep(links: int) -> dict[str, Any]:
    """A chain of schemas, each a property away from the next, each with a bad default."""
    ref = "#/components/schemas/"
    schemas: dict[str, Any] = {f"S{i}": {"type": "object", "properties": {
        "d": {"type": "integer", "default": "x"}, "x": {"$ref": f"{ref}S{i + 1}"}}}
        for i in range(links)}
    schemas[f"S{links}"] = {"type": "object"}
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"get": {"responses": {"200": {"description": "ok", "content": {
                "application/json": {"schema": {"$ref": f"{ref}S0"}}}}}}}},
            "components": {"schemas": schemas}}


def test_deep_chain_same_problems(monkeypatch: pytest.MonkeyPatch) -> None:
    records = assert_same("deep 300", _deep(300), monkeypatch)
    assert len([r for r in records if r[0] != "raw"]) == 300


def test_past_the_recursion_limit_the_fast_run_finds_at_least_as_much() -> None:
    """Where the walk overflows Python's stack, the library's steps spent a few more
    frames per subschema than Node's, so the unpatched run stops a few schemas sooner:
    the patched run finds the same problems, in the same order, then a few more, and
    ends with the same note, at the last problem each found."""
    slow = validate._problems(_deep(1000), "spec", None, fast=False)
    fast = validate._problems(_deep(1000), "spec", None, fast=True)
    assert "RecursionError" in slow[-1].message, slow[-1]
    assert (fast[-1].message, fast[-1].fix) == (slow[-1].message, slow[-1].fix)
    assert (fast[-1].location, slow[-1].location) == (fast[-2].location, slow[-2].location)
    assert fast[:len(slow) - 1] == slow[:-1]
    assert len(slow) <= len(fast) <= len(slow) + 10, (len(slow), len(fast))
