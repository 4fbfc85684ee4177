"""The OpenAPI 3.1 metaschema prefilter only ever skips a check that would find nothing.

``speedups.prefilter`` with the Draft 2020-12 registry lets jsonschema-rs answer for the
Python check of an OpenAPI 3.1 schema against the 3.1 dialect, whose OpenAPI vocabulary
(discriminator, xml, externalDocs) reaches every nested schema through ``$dynamicRef``.
Sound only if "surely valid" implies "the Python check raises nothing": checked on every
schema the validator checks in the 3.1 corpus documents, on cases where the libraries
differ or could (the dynamic scope, regex dialects, formats), and on generated
schema-like values (fixed seed; ``TOOLCAT_PREFILTER_FULL=1`` runs more, off the suite).
Anti-vacuity: on real documents the prefilter must answer for almost every schema.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest
import test_validator_prefilter as prefilter_30
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_schema_validator import OAS31Validator
from openapi_schema_validator import validators as oas
from toolcat.load.validation import speedups
from toolcat.load.validation.speedups import prefilter

REGISTRY = oas.OPENAPI_SPECIFICATIONS
SURELY_VALID = prefilter(OAS31Validator.META_SCHEMA, OAS31Validator.FORMAT_CHECKER,
                         jsonschema_rs, [(u, REGISTRY.contents(u)) for u in sorted(REGISTRY)])


@pytest.fixture(autouse=True, scope="module")
def _metaschema_validator_built_once() -> Iterator[None]:
    """The Python check as the validator runs it: its metaschema validator built once,
    its lookups and steps remembered (speedups held to the library by
    test_validator_speedups.py), so the corpus documents are checked in seconds."""
    wanted = ("metaschema-validator", "reference-lookup", "metaschema-evolve")
    with speedups.speedups(tuple(p for p in speedups.PATCHES if p.name in wanted)) as names:
        assert names == wanted
        yield


def check_31(schema: Any) -> None:
    """The Python check as the semantic pass asks it, with the 3.1 format checker."""
    OAS31Validator.check_schema(schema, format_checker=OAS31Validator.FORMAT_CHECKER)


def python_error(schema: Any) -> str | None:
    return prefilter_30.python_error(schema, check_31)


def assert_sound(schema: Any, where: str) -> bool:
    return prefilter_30.assert_sound(schema, where, SURELY_VALID, check_31)


REJECTED = {
    # The OpenAPI vocabulary, reached through $dynamicRef at any depth.
    "discriminator without propertyName": {"discriminator": {}},
    "discriminator, nested in properties": {
        "properties": {"a": {"discriminator": {"propertyName": 5}}}},
    "xml under items": {"items": {"xml": {"name": 5}}},
    "externalDocs in $defs": {"$defs": {"x": {"externalDocs": {"url": 5}}}},
    "externalDocs under prefixItems": {"prefixItems": [{"externalDocs": {}}]},
    "xml deep under anyOf": {"anyOf": [{"properties": {"b": {"xml": {"wrapped": "yes"}}}}]},
    # Regex and formats: judged by the Python format checker on both sides.
    "regex Python cannot compile": {"pattern": "[a-"},
    "bad regex, nested": {"properties": {"a": {"items": {"pattern": "a{2,1}"}}}},
    "Python-only named group": {"pattern": "(?P<n>x)"},
    "anchor ending in a line break": {"$anchor": "a\n"},   # Python's `$` allows it
    "anchor starting with a digit": {"$anchor": "1a"},
    # Draft 2020-12 structure.
    "unknown type": {"type": "strnig"},
    "duplicate types": {"type": ["string", "string"]},
    "duplicate required": {"required": ["a", "a"]},
    "non-integral minLength": {"minLength": 1.5},
    "zero multipleOf": {"multipleOf": 0},
    "$ref not a string": {"$ref": 5},
    "dependentRequired of a number": {"dependentRequired": {"a": [1]}},
    "deprecated not a boolean": {"deprecated": "no"},
    "unevaluatedProperties a number": {"unevaluatedProperties": 5},
}


def test_rejected_cases_are_rejected_by_python() -> None:
    wrongly = {case for case, schema in REJECTED.items()
               if python_error(schema) is None and case != "anchor ending in a line break"}
    assert not wrongly, f"the Python check accepts {sorted(wrongly)}"


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_known_differences_run_the_python_check(case: str) -> None:
    assert not SURELY_VALID(REJECTED[case]), f"{case}: the prefilter would skip the check"


def test_values_jsonschema_rs_cannot_take_run_the_python_check() -> None:
    assert not SURELY_VALID({"properties": {1: {"type": "string"}}})


ACCEPTED = {
    "plain": {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$"}}},
    "OpenAPI vocabulary, nested": {"properties": {"a": {
        "discriminator": {"propertyName": "kind"}, "xml": {"name": "a"},
        "externalDocs": {"url": "https://example.com"}, "example": 1}}},
    "lookbehind and a Unicode class": {"pattern": "(?<=a)\\p{L}+"},
    "integral float where an integer goes": {"minLength": 1.0},
    "big integer": {"type": "integer", "maximum": 2 ** 70},
    "a dynamic reference": {"$dynamicRef": "#meta"},
    "unknown keywords": {"nullable": 5, "x-foo": {"type": 5}},
}


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_valid_schemas_are_answered_by_the_prefilter(case: str) -> None:
    assert python_error(ACCEPTED[case]) is None
    assert SURELY_VALID(ACCEPTED[case]), f"{case}: valid, but the prefilter gave up"


# Off the suite (``TOOLCAT_PREFILTER_FULL=1``): OpenAI's 2,447 schemas too, and 5,000
# generated ones; the suite keeps the smaller documents and a fixed-seed slice.
FULL = os.environ.get("TOOLCAT_PREFILTER_FULL") == "1"
REAL_31 = ("corpus/discord/openapi.json", "corpus/plex/plex-api-spec.yaml",
           "corpus/train-travel/openapi.yaml", "corpus/museum/openapi.yaml",
           *(("corpus/openai/openapi.yaml",) if FULL else ()))


@pytest.mark.parametrize("doc", REAL_31)
def test_real_schemas(doc: str) -> None:
    prefilter_30.check_real_document(doc, "3.1", 20, assert_sound)


_KEYS = st.sampled_from([
    "type", "pattern", "minLength", "maxItems", "required", "enum", "properties", "items",
    "prefixItems", "allOf", "anyOf", "not", "if", "then", "$defs", "$ref", "$anchor",
    "$dynamicRef", "const", "exclusiveMinimum", "format", "dependentRequired",
    "unevaluatedProperties", "contentMediaType", "deprecated", "examples",
    "discriminator", "xml", "externalDocs", "example", "propertyName", "mapping", "name",
    "wrapped", "url", "nullable", "x-a"])
_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 2 ** 65), st.floats(-2, 5),
                    st.sampled_from(["string", "integer", "object", "(", "[a-z]", "a{2}",
                                     "(?<n>x)", "(?P<n>x)", "\\d", "x", "", "#meta", "a\n",
                                     "https://e.com", "1a", "kind"]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(_KEYS, inner, max_size=4),
    st.dictionaries(st.sampled_from(["a", "b", "pattern", "xml"]), inner, max_size=3)),
    max_leaves=12)


@settings(max_examples=5000 if FULL else 200,
          derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_KEYS, _VALUES, max_size=5))
def test_generated_schemas(schema: dict[str, Any]) -> None:
    assert_sound(schema, f"generated {schema!r}")
