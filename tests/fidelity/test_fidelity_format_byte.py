"""A ``format: byte`` string admits base64 only, at any depth of an input.

OpenAPI 3.0 and Swagger 2.0 define ``byte`` as base64-encoded characters; JSON Schema
2020-12 does not know the format, so the inputSchema admitted any text. Kubernetes'
``create_certificates_v1_certificate_signing_request`` sent ``spec.request`` as
``"\\u008f\\u00c7..."``, which no base64 decoder reads (openapi-core even crashed on it).
Inputs get the padded RFC 4648 ``pattern`` the bytes rule uses
(``wire.BASE64_PATTERN``); the value stays a string in the JSON body (no
``contentEncoding``: it is not sent as raw bytes).
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, real_catalog, tool, write_spec
from helpers.runtime_oracle import judge_runtime
from toolcat.model.wire import BASE64_PATTERN

SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/csr": {"post": {
        "operationId": "createCsr",
        "requestBody": {"required": True, "content": {"application/json": {"schema": {
            "type": "object", "required": ["spec"], "properties": {"spec": {
                "type": "object", "required": ["request"], "properties": {
                    "request": {"type": "string", "format": "byte"},
                    "pinned": {"type": "string", "format": "byte", "pattern": "^[A-Z]"}}}}}}}},
        "responses": {"200": {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object", "properties": {
                "request": {"type": "string", "format": "byte"}}}}}}}}}},
}


def test_nested_byte_strings_are_base64(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    entry = tool(generate(spec), "create_csr")
    inner = entry["tool"]["inputSchema"]["properties"]["spec"]["properties"]
    assert inner["request"]["pattern"] == BASE64_PATTERN
    assert "contentEncoding" not in inner["request"]
    assert inner["pinned"]["pattern"] == "^[A-Z]"
    assert {"pattern": BASE64_PATTERN} in inner["pinned"]["allOf"]
    output = entry["tool"]["outputSchema"]["properties"]["request"]
    assert "pattern" not in output   # outputs describe what comes back, unchanged


def test_runtime_requests_are_accepted(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=6, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 2


def test_kubernetes_csr_request() -> None:
    catalog = real_catalog("corpus", "kubernetes", "swagger.json.unprocessed")
    schema = tool(catalog, "create_certificates_v1_certificate_signing_request")["tool"]
    byte = [sub for d in schema["inputSchema"].get("$defs", {}).values()
            for sub in (d.get("properties") or {}).values()
            if isinstance(sub, dict) and sub.get("format") == "byte"]
    assert byte
    assert all(sub.get("pattern") == BASE64_PATTERN for sub in byte)
