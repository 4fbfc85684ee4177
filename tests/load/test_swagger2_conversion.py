"""Tests for the Swagger 2.0 -> OpenAPI 3.0.3 conversion."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
import yaml
from helpers.paths import CORPUS
from toolcat.load.swagger2 import convert

PETSTORE = CORPUS / "oai-examples/v2.0/yaml/petstore-separate/spec/swagger.yaml"
KUBERNETES = CORPUS / "kubernetes/swagger.json.unprocessed"
METHODS = ("get", "put", "post", "delete", "options", "head", "patch")


def _doc(paths: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"swagger": "2.0", "info": {"title": "t", "version": "1"}, **top, "paths": paths}


def _op(*params: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"parameters": list(params), "responses": {"200": {"description": "ok"}}, **extra}


def _post(*params: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return _doc({"/x": {"post": _op(*params, **extra)}})


def test_body_param() -> None:
    body = {
        "name": "pet",
        "in": "body",
        "description": "a pet",
        "required": True,
        "schema": {"$ref": "#/definitions/Pet"},
    }
    op = convert(_post(body, consumes=["application/json", "application/xml"]))["paths"]["/x"][
        "post"
    ]
    assert "parameters" not in op
    schema = {"$ref": "#/components/schemas/Pet"}
    assert op["requestBody"] == {
        "x-codegen-request-body-name": "pet",
        "description": "a pet",
        "required": True,
        "content": {"application/json": {"schema": schema}, "application/xml": {"schema": schema}},
    }


def test_form_data_urlencoded() -> None:
    fields = [
        {"name": "a", "in": "formData", "type": "string", "required": True, "description": "A"},
        {"name": "b", "in": "formData", "type": "integer", "minimum": 1},
    ]
    body = convert(_post(*fields))["paths"]["/x"]["post"]["requestBody"]
    assert body == {
        "content": {
            "application/x-www-form-urlencoded": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "a": {"type": "string", "description": "A"},
                        "b": {"type": "integer", "minimum": 1},
                    },
                    "required": ["a"],
                }
            }
        },
        "required": True,
    }


def test_form_data_with_file_is_multipart() -> None:
    fields = [
        {"name": "f", "in": "formData", "type": "file"},
        {"name": "n", "in": "formData", "type": "string"},
    ]
    content = convert(_post(*fields))["paths"]["/x"]["post"]["requestBody"]["content"]
    assert list(content) == ["multipart/form-data"]
    props = content["multipart/form-data"]["schema"]["properties"]
    assert props["f"] == {"type": "string", "format": "binary"}


def test_form_data_uses_every_listed_form_type() -> None:
    consumes = ["application/x-www-form-urlencoded", "multipart/form-data"]
    doc = _post({"name": "n", "in": "formData", "type": "string"}, consumes=consumes)
    assert list(convert(doc)["paths"]["/x"]["post"]["requestBody"]["content"]) == consumes


def test_global_body_parameter_via_ref() -> None:
    doc = _post({"$ref": "#/parameters/PetBody"}, {"$ref": "#/parameters/Limit"})
    doc["parameters"] = {
        "PetBody": {"name": "pet", "in": "body", "schema": {"$ref": "#/definitions/Pet"}},
        "Limit": {"name": "limit", "in": "query", "type": "integer"},
    }
    out = convert(doc)
    op = out["paths"]["/x"]["post"]
    assert op["requestBody"] == {"$ref": "#/components/requestBodies/PetBody"}
    assert op["parameters"] == [{"$ref": "#/components/parameters/Limit"}]
    assert out["components"]["requestBodies"]["PetBody"]["content"] == {
        "application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}
    }
    assert out["components"]["parameters"]["Limit"]["schema"] == {"type": "integer"}


def test_global_body_ref_inlined_when_operation_consumes_differ() -> None:
    doc = _post({"$ref": "#/parameters/B"}, consumes=["text/plain"])
    doc["parameters"] = {"B": {"name": "b", "in": "body", "schema": {"type": "string"}}}
    body = convert(doc)["paths"]["/x"]["post"]["requestBody"]
    assert body["content"] == {"text/plain": {"schema": {"type": "string"}}}


def test_global_form_data_ref_is_inlined() -> None:
    doc = _post({"$ref": "#/parameters/F"})
    doc["parameters"] = {"F": {"name": "f", "in": "formData", "type": "file"}}
    out = convert(doc)
    content = out["paths"]["/x"]["post"]["requestBody"]["content"]
    assert content["multipart/form-data"]["schema"]["properties"] == {
        "f": {"type": "string", "format": "binary"}
    }
    assert "parameters" not in out["components"]


def test_path_level_params_merge_and_override() -> None:
    item = {
        "parameters": [
            {"name": "id", "in": "path", "required": True, "type": "string"},
            {"name": "body", "in": "body", "schema": {"type": "object"}},
        ],
        "put": _op({"name": "body", "in": "body", "schema": {"type": "string"}}),
        "post": _op(),
    }
    out = convert(_doc({"/x/{id}": item}))["paths"]["/x/{id}"]
    assert out["parameters"] == [
        {"name": "id", "in": "path", "required": True, "schema": {"type": "string"}}
    ]
    assert out["put"]["requestBody"]["content"]["application/json"]["schema"] == {"type": "string"}
    assert out["post"]["requestBody"]["content"]["application/json"]["schema"] == {"type": "object"}


@pytest.mark.parametrize(
    ("location", "fmt", "expected"),
    [
        ("query", "csv", {"style": "form", "explode": False}),
        ("query", None, {"style": "form", "explode": False}),
        ("path", "csv", {"style": "simple", "explode": False}),
        ("header", "csv", {"style": "simple", "explode": False}),
        ("query", "multi", {"style": "form", "explode": True}),
        ("query", "ssv", {"style": "spaceDelimited", "explode": False}),
        ("query", "pipes", {"style": "pipeDelimited", "explode": False}),
        ("query", "tsv", {"style": "form", "explode": False, "x-collectionFormat": "tsv"}),
    ],
)
def test_collection_format_mapping(
    location: str, fmt: str | None, expected: dict[str, Any]
) -> None:
    param: dict[str, Any] = {
        "name": "p",
        "in": location,
        "type": "array",
        "items": {"type": "string"},
    }
    if fmt:
        param["collectionFormat"] = fmt
    (out,) = convert(_post(param))["paths"]["/x"]["post"]["parameters"]
    assert out == {
        "name": "p",
        "in": location,
        "schema": {"type": "array", "items": {"type": "string"}},
        **expected,
    }


def test_non_body_param_keeps_extensions_and_allow_empty_value() -> None:
    param = {
        "name": "q",
        "in": "query",
        "type": "string",
        "enum": ["a"],
        "default": "a",
        "allowEmptyValue": True,
        "x-extra": 1,
    }
    (out,) = convert(_post(param))["paths"]["/x"]["post"]["parameters"]
    assert out == {
        "name": "q",
        "in": "query",
        "schema": {"type": "string", "enum": ["a"], "default": "a"},
        "allowEmptyValue": True,
        "x-extra": 1,
    }


def test_definitions_ref_rewriting_including_external_files() -> None:
    doc = _doc(
        {
            "/x": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "ok",
                            "schema": {"$ref": "other.yaml#/definitions/Ext"},
                        },
                        "404": {"$ref": "#/responses/NotFound"},
                        "500": {"description": "e", "schema": {"$ref": "Error.yaml"}},
                    }
                }
            }
        },
        definitions={
            "Pet": {"properties": {"tag": {"$ref": "#/definitions/Tag"}}},
            "Tag": {"type": "string"},
        },
        responses={"NotFound": {"description": "nf", "schema": {"$ref": "#/definitions/Pet"}}},
    )
    out = convert(doc)
    responses = out["paths"]["/x"]["get"]["responses"]
    ext = responses["200"]["content"]["application/json"]["schema"]
    assert ext == {"$ref": "other.yaml#/components/schemas/Ext"}
    assert responses["404"] == {"$ref": "#/components/responses/NotFound"}
    assert responses["500"]["content"]["application/json"]["schema"] == {"$ref": "Error.yaml"}
    pet = out["components"]["schemas"]["Pet"]
    assert pet["properties"]["tag"] == {"$ref": "#/components/schemas/Tag"}
    nf = out["components"]["responses"]["NotFound"]["content"]["application/json"]["schema"]
    assert nf == {"$ref": "#/components/schemas/Pet"}


def test_property_literally_named_ref() -> None:
    props = {
        "$ref": {"type": "string"},
        "sub": {"$ref": "#/definitions/S"},
        "$schema": {"$ref": "#/definitions/S"},
    }
    doc = _doc({}, definitions={"P": {"properties": props}, "S": {}})
    out = convert(doc)["components"]["schemas"]["P"]["properties"]
    assert out == {
        "$ref": {"type": "string"},
        "sub": {"$ref": "#/components/schemas/S"},
        "$schema": {"$ref": "#/components/schemas/S"},
    }


def test_x_nullable() -> None:
    defs = {
        "A": {
            "type": "object",
            "x-nullable": True,
            "properties": {
                "r": {"$ref": "#/definitions/B", "x-nullable": True},
                "l": {"type": "array", "items": {"type": "string", "x-nullable": True}},
            },
        },
        "B": {},
    }
    a = convert(_doc({}, definitions=defs))["components"]["schemas"]["A"]
    assert a["nullable"] is True
    assert "x-nullable" not in a
    assert a["properties"]["r"] == {"allOf": [{"$ref": "#/components/schemas/B"}], "nullable": True}
    assert a["properties"]["l"]["items"] == {"type": "string", "nullable": True}


def test_discriminator_and_file_schema() -> None:
    defs = {"A": {"discriminator": "kind", "allOf": [{"additionalProperties": {"type": "file"}}]}}
    a = convert(_doc({}, definitions=defs))["components"]["schemas"]["A"]
    assert a["discriminator"] == {"propertyName": "kind"}
    assert a["allOf"][0]["additionalProperties"] == {"type": "string", "format": "binary"}


@pytest.mark.parametrize(
    ("top", "servers"),
    [
        ({"basePath": "/v2"}, [{"url": "/v2"}]),
        ({"host": "api.example.com", "basePath": "/v2"}, [{"url": "https://api.example.com/v2"}]),
        ({"host": "h", "schemes": ["http", "https"]}, [{"url": "http://h"}]),
        ({"host": "h", "basePath": "/"}, [{"url": "https://h"}]),
    ],
)
def test_base_path_host_servers(top: dict[str, Any], servers: list[dict[str, Any]]) -> None:
    assert convert(_doc({}, **top))["servers"] == servers


def test_consumes_produces_inheritance() -> None:
    body = {"name": "b", "in": "body", "schema": {"type": "string"}}
    ok = {"description": "ok", "schema": {"type": "string"}}
    paths = {
        "/inherit": {"post": {"parameters": [body], "responses": {"200": ok}}},
        "/own": {
            "post": {
                "parameters": [body],
                "responses": {"200": ok},
                "consumes": ["text/plain"],
                "produces": ["text/csv"],
            }
        },
    }
    out = convert(_doc(paths, consumes=["application/xml"], produces=["application/yaml"]))
    inherit, own = out["paths"]["/inherit"]["post"], out["paths"]["/own"]["post"]
    assert list(inherit["requestBody"]["content"]) == ["application/xml"]
    assert list(inherit["responses"]["200"]["content"]) == ["application/yaml"]
    assert list(own["requestBody"]["content"]) == ["text/plain"]
    assert list(own["responses"]["200"]["content"]) == ["text/csv"]
    default = convert(_doc(paths))["paths"]["/inherit"]["post"]
    assert list(default["responses"]["200"]["content"]) == ["application/json"]
    assert "consumes" not in own


def test_response_headers_and_examples() -> None:
    resp = {
        "description": "ok",
        "schema": {"type": "object"},
        "headers": {"X-Rate": {"type": "integer", "description": "rate"}},
        "examples": {"application/json": {"a": 1}, "text/plain": "a=1"},
    }
    out = convert(_doc({"/x": {"get": {"responses": {200: resp}}}}))
    r = out["paths"]["/x"]["get"]["responses"]["200"]
    assert r["headers"] == {"X-Rate": {"schema": {"type": "integer"}, "description": "rate"}}
    assert r["content"] == {
        "application/json": {"schema": {"type": "object"}, "example": {"a": 1}},
        "text/plain": {"schema": {"type": "object"}, "example": "a=1"},
    }


def test_security_definitions() -> None:
    sec = {
        "basic": {"type": "basic"},
        "key": {"type": "apiKey", "name": "k", "in": "header", "x-a": 1},
        "oauth": {
            "type": "oauth2",
            "flow": "accessCode",
            "authorizationUrl": "https://a",
            "tokenUrl": "https://t",
            "scopes": {"read": "r"},
        },
        "app": {"type": "oauth2", "flow": "application", "tokenUrl": "https://t"},
    }
    out = convert(_doc({}, securityDefinitions=sec, security=[{"basic": []}]))
    schemes = out["components"]["securitySchemes"]
    assert schemes["basic"] == {"type": "http", "scheme": "basic"}
    assert schemes["key"] == sec["key"]
    assert schemes["oauth"]["flows"] == {
        "authorizationCode": {
            "authorizationUrl": "https://a",
            "tokenUrl": "https://t",
            "scopes": {"read": "r"},
        }
    }
    assert schemes["app"]["flows"] == {"clientCredentials": {"tokenUrl": "https://t", "scopes": {}}}
    assert out["security"] == [{"basic": []}]


def test_key_order_follows_input_and_extensions_kept() -> None:
    doc = {
        "swagger": "2.0",
        "x-top": 1,
        "info": {"title": "t", "version": "1"},
        "tags": [{"name": "a"}],
        "paths": {"x-p": 1},
        "externalDocs": {"url": "https://d"},
    }
    out = convert(doc)
    assert list(out) == ["openapi", "x-top", "info", "tags", "paths", "externalDocs"]
    assert out["openapi"] == "3.0.3"
    assert out["paths"] == {"x-p": 1}


def test_no_mutation_of_input() -> None:
    doc = _post(
        {"$ref": "#/parameters/B"},
        {"name": "q", "in": "query", "type": "array", "items": {"type": "string"}},
    )
    doc["parameters"] = {"B": {"name": "b", "in": "body", "schema": {"$ref": "#/definitions/D"}}}
    doc["definitions"] = {"D": {"x-nullable": True, "properties": {"f": {"type": "file"}}}}
    before = copy.deepcopy(doc)
    out = convert(doc)
    assert doc == before
    out["components"]["schemas"]["D"]["properties"]["f"]["type"] = "changed"
    assert doc == before
    assert convert(doc) == convert(before)


# --- real documents --------------------------------------------------------


def _local(doc: dict[str, Any], node: Any) -> Any:
    ref = node.get("$ref") if isinstance(node, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return node
    for part in ref[2:].split("/"):
        doc = doc[part.replace("~1", "/").replace("~0", "~")]
    return doc


def _count_swagger2(doc: dict[str, Any]) -> tuple[int, int]:
    ops = inputs = 0
    for item in doc["paths"].values():
        for method in METHODS:
            if method in item:
                ops += 1
                merged = {}
                for p in [*item.get("parameters", []), *item[method].get("parameters", [])]:
                    r = _local(doc, p)
                    merged[(r.get("name", r.get("$ref")), r.get("in"))] = r
                inputs += len(merged)
    return ops, inputs


def _count_openapi3(doc: dict[str, Any]) -> tuple[int, int]:
    ops = inputs = 0
    for item in doc["paths"].values():
        for method in METHODS:
            if method in item:
                ops += 1
                merged = {}
                for p in [*item.get("parameters", []), *item[method].get("parameters", [])]:
                    r = _local(doc, p)
                    merged[(r.get("name", r.get("$ref")), r.get("in"))] = r
                inputs += len(merged) + _count_body(_local(doc, item[method].get("requestBody")))
    return ops, inputs


def _count_body(body: dict[str, Any] | None) -> int:
    if not body:
        return 0
    media, entry = next(iter(body["content"].items()))
    if media.startswith(("multipart/form-data", "application/x-www-form-urlencoded")):
        return len(entry["schema"]["properties"])
    return 1


def test_real_petstore_separate() -> None:
    if not PETSTORE.exists():
        pytest.skip("petstore-separate corpus document absent")
    doc = yaml.safe_load(PETSTORE.read_text())
    out = convert(doc)
    assert out["servers"] == [{"url": "http://petstore.swagger.io/api"}]
    assert _count_openapi3(out) == _count_swagger2(doc) == (4, 5)
    get = out["paths"]["/pets"]["get"]
    assert get["parameters"] == [
        {"$ref": "parameters.yaml#/tagsParam"},
        {"$ref": "parameters.yaml#/limitsParam"},
    ]
    error = get["responses"]["default"]["content"]["application/json"]["schema"]
    assert error == {"$ref": "../common/Error.yaml"}
    post_body = out["paths"]["/pets"]["post"]["requestBody"]
    assert post_body["content"]["application/json"]["schema"] == {"$ref": "NewPet.yaml"}


def test_real_kubernetes_validates_and_preserves_inputs() -> None:
    if not KUBERNETES.exists():
        pytest.skip("kubernetes corpus document absent")
    from openapi_spec_validator import validate
    from openapi_spec_validator.validation import OpenAPIV30SpecValidator

    doc = json.loads(KUBERNETES.read_text())
    out = convert(doc)
    ops, inputs = _count_swagger2(doc)
    assert ops == 1123
    assert _count_openapi3(out) == (ops, inputs)
    validate(out, cls=OpenAPIV30SpecValidator)  # about 5 s on a laptop-class CPU
