"""The settings stand-ins (load/validation/settings_light.py) answer as the libraries'
own settings modules do, and the validator finds the same problems with them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import pytest
from toolcat.load.validation import settings_light

SPEC_VARS = [
    {},
    {"OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND": "jsonschema-rs"},
    {"OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND": " JsonSchema-RS\t"},
    {"OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND": "jsonschema"},
    {"OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND": "AUTO"},
    {"OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND": ""},
    {"OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND": "rust"},
    {"openapi_spec_validator_schema_validator_backend": "jsonschema"},
    {"OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND": "jsonschema",
     "OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE": "7"},
    {"OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE": "5"},
    {"OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE": "-3"},
    {"OPENAPI_SPEC_VALIDATOR_RESOLVED_CACHE_MAXSIZE": "many"},
    {"OPENAPI_SPEC_VALIDATOR_SOMETHING_ELSE": "1"},
]
SCHEMA_VARS = [
    {},
    {"OPENAPI_SCHEMA_VALIDATOR_COMPILED_VALIDATOR_CACHE_MAX_SIZE": "3"},
    {"openapi_schema_validator_compiled_validator_cache_max_size": "0"},
    {"OPENAPI_SCHEMA_VALIDATOR_COMPILED_VALIDATOR_CACHE_MAX_SIZE": "-1"},
    {"OPENAPI_SCHEMA_VALIDATOR_COMPILED_VALIDATOR_CACHE_MAX_SIZE": "lots"},
    {"OPENAPI_SCHEMA_VALIDATOR_OTHER": "x"},
]
SPEC_FIELDS = ("resolved_cache_maxsize", "schema_validator_backend")
SCHEMA_FIELDS = ("compiled_validator_cache_max_size",)


def _outcome(make: Any, fields: tuple[str, ...]) -> tuple[Any, ...]:
    """What building the settings gives: each field, or the error; and the warnings."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        try:
            made = make()
            found: Any = {f: getattr(made, f) for f in fields}
        except Exception as exc:   # the error is the answer compared
            found = type(exc).__name__
    return found, [str(w.message) for w in said]


def _environment(monkeypatch: pytest.MonkeyPatch, variables: dict[str, str]) -> None:
    for key in list(os.environ):
        if key.lower().startswith(("openapi_spec_validator_", "openapi_schema_validator_")):
            monkeypatch.delenv(key)
    for key, value in variables.items():
        monkeypatch.setenv(key, value)


CASES = [*((settings_light.SPEC_MODULE, "OpenAPISpecValidatorSettings",
            settings_light.spec_settings, SPEC_FIELDS, v) for v in SPEC_VARS),
         *((settings_light.SCHEMA_MODULE, "OpenAPISchemaValidatorSettings",
            settings_light.schema_settings, SCHEMA_FIELDS, v) for v in SCHEMA_VARS)]


@pytest.mark.parametrize(("module", "name", "stand_in", "fields", "variables"), CASES,
                         ids=[f"{c[1]} {json.dumps(c[4])}" for c in CASES])
def test_settings_answer_as_the_original(module: str, name: str, stand_in: Any,
                                         fields: tuple[str, ...], variables: dict[str, str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    _environment(monkeypatch, variables)
    original = settings_light.original(module)
    assert _outcome(stand_in, fields) == _outcome(getattr(original, name), fields), variables
    getters = (("get_schema_validator_backend", "get_resolved_cache_maxsize")
               if module == settings_light.SPEC_MODULE else ())
    for getter in getters:
        assert _outcome(getattr(settings_light, getter), ("real",)) == \
            _outcome(getattr(original, getter), ("real",)), getter


@pytest.mark.parametrize("variables", [
    {}, {"OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND": "jsonschema-rs"}])
def test_toolcats_own_environment_needs_no_pydantic(variables: dict[str, str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """What the validating child sees is answered by the stand-ins themselves."""
    _environment(monkeypatch, variables)

    def refuse(name: str) -> Any:
        raise AssertionError(f"the stand-in asked the original {name}")

    monkeypatch.setattr(settings_light, "original", refuse)
    assert settings_light.spec_settings().schema_validator_backend == \
        variables.get("OPENAPI_SPEC_VALIDATOR_SCHEMA_VALIDATOR_BACKEND", "auto")
    assert settings_light.schema_settings().compiled_validator_cache_max_size == 128


# Problems of both passes: the OpenAPI schema's (an unknown member), and the semantic
# pass's (an operationId twice, an undeclared path parameter, a default of the wrong type).
DOCUMENT = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {
        "/a/{id}": {"get": {"operationId": "same", "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {
                "type": "object", "properties": {"n": {"type": "integer",
                                                        "default": "one"}}}}}}}}},
        "/b": {"get": {"operationId": "same", "wrong": 1,
                       "responses": {"200": {"description": "ok"}}}},
    },
}
PROBE = """
import json, sys
if sys.argv[1] == "original":
    import openapi_spec_validator  # imported first: the stand-ins stay out
from toolcat.load.validation.validate import find_problems
found = find_problems(json.loads(sys.argv[2]), "spec.json")
print(json.dumps({"problems": [[p.location, p.message, n] for p, n in found.counted],
                  "pydantic_settings": "pydantic_settings" in sys.modules,
                  "stand_in": type(sys.modules["openapi_spec_validator.settings"]
                                   .OpenAPISpecValidatorSettings).__name__}))
"""


def _probe(mode: str) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items()
           if not k.lower().startswith(("openapi_spec_validator_", "openapi_schema_validator_"))}
    done = subprocess.run([sys.executable, "-c", PROBE, mode, json.dumps(DOCUMENT)],
                          capture_output=True, text=True, env=env, check=False,
                          cwd=Path(__file__).parent)
    assert done.returncode == 0, done.stderr
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def test_a_fresh_validator_uses_the_stand_ins_and_finds_the_same() -> None:
    light, original = _probe("light"), _probe("original")
    assert not light["pydantic_settings"], "the validator imported pydantic-settings"
    assert light["stand_in"] == "function", light
    assert original["pydantic_settings"], original
    assert original["stand_in"] != "function", original
    assert len(original["problems"]) >= 4, original
    assert light["problems"] == original["problems"]
