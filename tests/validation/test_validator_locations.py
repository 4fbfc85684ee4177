"""Validator errors that carry no usable path still get a JSON pointer."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from toolcat.errors import ToolcatError
from toolcat.load.validation.validate import find_problems, validate_document

BASE: dict[str, Any] = {
    "openapi": "3.0.3",
    "info": {"title": "t", "version": "1"},
    "paths": {"/things/{id}": {"get": {
        "parameters": [{"name": "id", "in": "path", "required": True,
                        "schema": {"type": "integer"}}],
        "responses": {"200": {"description": "ok"}}}}},
    "components": {"parameters": {"Trace": {"name": "X-Trace", "in": "header",
                                            "schema": {"type": "string"}}},
                   "schemas": {"Thing": {"type": "object", "properties": {
                       "flag": {"type": "boolean", "default": False}}}}},
}


def _where(doc: dict[str, Any]) -> list[str]:
    """Where each distinct problem is (the refusal then adds its summary and the fix)."""
    with pytest.raises(ToolcatError):
        validate_document(doc, "spec.json")
    return [p.location for p, _ in find_problems(doc, "spec.json").counted]


def test_valid_base() -> None:
    """The base is valid, so every problem below is the one each case adds."""
    doc = copy.deepcopy(BASE)
    assert validate_document(doc, "spec.json") is None
    assert list(find_problems(doc, "spec.json").counted) == []


def test_duplicate_parameter_through_refs() -> None:
    doc = copy.deepcopy(BASE)
    params = doc["paths"]["/things/{id}"]["get"]["parameters"]
    params += [{"$ref": "#/components/parameters/Trace"}] * 2
    assert set(_where(doc)) == {"/paths/~1things~1{id}/get/parameters"}


def test_unresolved_path_parameter() -> None:
    doc = copy.deepcopy(BASE)
    doc["paths"]["/things/{id}"]["get"]["parameters"] = []
    assert _where(doc) == ["/paths/~1things~1{id}/get"]


def test_default_of_the_wrong_type() -> None:
    doc = copy.deepcopy(BASE)
    doc["components"]["schemas"]["Thing"]["properties"]["flag"]["default"] = "true"
    assert _where(doc) == ["/components/schemas/Thing/properties/flag/default"]


def test_structural_error_from_the_root() -> None:
    doc = copy.deepcopy(BASE)
    doc["paths"]["/things/{id}"]["get"]["responses"]["4xx"] = {"description": "bad"}
    assert _where(doc) == ["/paths/~1things~1{id}/get/responses"]
