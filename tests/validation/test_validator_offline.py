"""Validation never leaves the machine, and always uses the backend its verdicts name.

The bundler refuses remote references it walks; the validator is the second line:
every URI scheme reaches a handler that refuses (jsonschema-path would hand an
unknown scheme such as ftp: or data: to urlopen). And openapi-spec-validator
picks its schema backend from the environment: toolcat always asks for the one
validator_id() names.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from toolcat.errors import ToolcatError
from toolcat.load.validation import validate
from toolcat.load.validation.validate import (
    BACKEND,
    BACKEND_SETTING,
    validate_document,
    validator_id,
)


def _spec(ref: str) -> dict[str, object]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/x": {
        "get": {"responses": {"200": {"description": "ok", "content": {
            "application/json": {"schema": {"$ref": ref}}}}}}}}}


@pytest.mark.parametrize("ref", ["ftp://127.0.0.1/schema.json", "data:application/json,{}",
                                 "http://127.0.0.1:9/schema.json", "file:///etc/hostname",
                                 "gopher://127.0.0.1/x"])
def test_every_scheme_is_refused(ref: str, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []

    def refuse(uri: str) -> None:
        asked.append(uri)
        raise ToolcatError.single(uri, "", "refused", "")

    monkeypatch.setattr(validate, "_deny", refuse)
    with pytest.raises(ToolcatError) as caught:
        validate_document(_spec(ref), "spec.json")
    assert asked == [ref], f"{ref}: the refusing handler was not asked ({asked})"
    assert "does not resolve" in caught.value.render()


def test_validator_id_names_the_backend() -> None:
    assert validator_id().startswith("openapi-spec-validator==")
    assert f",{BACKEND}==" in validator_id()


def test_backend_is_forced_whatever_the_environment_says() -> None:
    program = ("from toolcat.load.validation.validate import validate_document\n"
               "from openapi_spec_validator.schemas import get_validator_backend\n"
               "validate_document({'openapi': '3.0.3', 'info': {'title': 't', "
               "'version': '1'}, 'paths': {}}, 'spec.json')\n"
               "print(get_validator_backend())\n")
    env = {**os.environ, BACKEND_SETTING: "jsonschema"}
    result = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == BACKEND
