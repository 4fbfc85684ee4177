"""The metaschema prefilter only ever skips a check that would have found nothing.

``speedups.prefilter`` lets jsonschema-rs answer for the Python check of an OpenAPI 3.0
schema against its Draft 4 metaschema. That is sound only if jsonschema-rs (with the
prefilter's own guards) is at least as strict as jsonschema: "surely valid" must imply
"the Python check raises nothing". Checked here on every schema object of real 3.0
documents, on hand-picked cases where the two libraries are known to differ, and on
generated schema-like values (fixed seed). Anti-vacuity: on real documents the
prefilter must actually answer for almost every schema, or the speedup is gone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import jsonschema_rs
import pytest
from corpus.docs import path_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema.exceptions import SchemaError
from openapi_schema_validator import OAS30Validator
from toolcat.load.bundle import bundle
from toolcat.load.validation.speedups import prefilter

SURELY_VALID = prefilter(OAS30Validator.META_SCHEMA, OAS30Validator.FORMAT_CHECKER,
                         jsonschema_rs)


def python_error(schema: Any, check: Callable[[Any], Any] | None = None) -> str | None:
    """The Python check's message (``check``: OpenAPI 3.0's by default), if any."""
    try:
        (check or OAS30Validator.check_schema)(schema)
    except SchemaError as exc:
        return str(exc.message)
    return None


def assert_sound(schema: Any, where: str, surely_valid: Callable[[Any], bool] = SURELY_VALID,
                 check: Callable[[Any], Any] | None = None) -> bool:
    """The prefilter's answer, after checking it against the Python check."""
    answer = surely_valid(schema)
    if answer:
        error = python_error(schema, check)
        assert error is None, (f"{where}: the prefilter skips a schema the Python check "
                               f"rejects: {error}")
    return answer


# Where jsonschema-rs and jsonschema differ, or could: each must not be skipped.
REJECTED = {
    "regex Python cannot compile": {"pattern": "("},
    # An ECMA named group, (?<year>...), is no longer here: jsonschema checks `regex` with
    # the `regex` package when it is installed (it is: jsonpath-rfc9535 needs it), which
    # reads named groups as ECMA-262 does.
    "bad regex, nested": {"properties": {"a": {"items": {"pattern": "[a-"}}}},
    "bad regex under allOf": {"allOf": [{"pattern": "*"}]},
    "integral float where an integer goes": {"minLength": 1.0},
    "boolean where an integer goes": {"maxItems": True},
    "duplicate required": {"required": ["a", "a"]},
    "empty enum": {"enum": []},
    "unknown type": {"type": "strin"},
    "exclusiveMinimum without minimum": {"exclusiveMinimum": True},
}


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_known_differences_run_the_python_check(case: str) -> None:
    schema = REJECTED[case]
    assert python_error(schema) is not None, f"{case}: expected the Python check to reject it"
    assert not SURELY_VALID(schema), f"{case}: the prefilter would skip the Python check"


def test_values_jsonschema_rs_cannot_take_run_the_python_check() -> None:
    # YAML gives integer keys; jsonschema-rs refuses them, the Python check answers.
    assert not SURELY_VALID({"properties": {1: {"type": "string"}}})


ACCEPTED = {
    "plain": {"type": "object", "properties": {"a": {"type": "string", "pattern": "^[a-z]+$"}}},
    "big integer": {"type": "integer", "maximum": 2 ** 70},
    "enum of mixed values": {"enum": [1, True, "1", None, 1.5]},
    "a regex in an example only": {"example": {"pattern": "^ok$"}},
}


@pytest.mark.parametrize("case", sorted(ACCEPTED))
def test_valid_schemas_are_answered_by_the_prefilter(case: str) -> None:
    assert python_error(ACCEPTED[case]) is None
    assert SURELY_VALID(ACCEPTED[case]), f"{case}: valid, but the prefilter gave up"


def schemas_of(node: Any) -> Iterator[tuple[str, Any]]:
    """(pointer, value) of every object under a "schema" key or in components/schemas."""
    stack: list[tuple[str, Any]] = [("", node)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            for key, child in value.items():
                here = f"{where}/{key}"
                if key == "schema" or where.endswith("/components/schemas"):
                    yield here, child
                stack.append((here, child))
        elif isinstance(value, list):
            stack.extend((f"{where}/{i}", child) for i, child in enumerate(value))


REAL_30 = ("corpus/kratos/api.json", "corpus/sonarr/openapi.json",
           "corpus/jellyfin/openapi.json", "corpus/overseerr/overseerr-api.yml")


def check_real_document(doc: str, version: str, least: int,
                        sound: Callable[[Any, str], bool] = assert_sound) -> None:
    """Every schema of ``doc`` (OpenAPI ``version``, at least ``least`` schemas) answered
    soundly, and almost all of them by the prefilter."""
    path = path_of(doc)
    if not path.exists():
        pytest.skip(f"shared test data absent: {path}")
    document = bundle(path, None).document
    assert str(document["openapi"]).startswith(version), doc
    answers = [sound(schema, f"{doc}#{where}") for where, schema in schemas_of(document)]
    assert len(answers) > least, f"{doc}: only {len(answers)} schemas found"
    skipped = sum(answers) / len(answers)
    assert skipped > 0.9, f"{doc}: the prefilter answered for only {skipped:.0%} of schemas"


@pytest.mark.parametrize("doc", REAL_30)
def test_real_schemas(doc: str) -> None:
    check_real_document(doc, "3.0", 50)


_KEYS = st.sampled_from(["type", "pattern", "minLength", "maxItems", "required", "enum",
                         "properties", "items", "allOf", "minimum", "exclusiveMinimum",
                         "format", "nullable", "default", "additionalProperties", "not"])
_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-3, 2 ** 65), st.floats(-2, 5),
                    st.sampled_from(["string", "integer", "object", "(", "[a-z]", "a{2}",
                                     "(?<n>x)", "\\d", "x", ""]))
_VALUES = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.lists(inner, max_size=3),
    st.dictionaries(_KEYS, inner, max_size=4),
    st.dictionaries(st.sampled_from(["a", "b", "pattern"]), inner, max_size=3)),
    max_leaves=12)


@settings(max_examples=200, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(_KEYS, _VALUES, max_size=5))
def test_generated_schemas(schema: dict[str, Any]) -> None:
    assert_sound(schema, f"generated {schema!r}")
