"""Form, multipart and non-JSON request bodies: every field reachable, encoding recorded.

* form-urlencoded: each field is an argument; its ``encoding`` (stripe's
  ``deepObject``) or OpenAPI's default (``form``, explode) is in the binding.
* multipart: each part is an argument; a file part is a base64 string
  (``contentEncoding: base64``); a part's ``contentType`` is in the binding.
* text bodies are one string argument with ``contentMediaType``; binary bodies
  (octet-stream, ``image/*``, a string under ``*/*``) are one base64 string.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from helpers.fixtures import generate, operation, real_catalog, tool, write_spec
from toolcat.model.wire import BASE64_PATTERN

FORM = "application/x-www-form-urlencoded"


def _body(media: str, schema: dict[str, Any], **entry: Any) -> dict[str, Any]:
    return operation("/upload", requestBody={"required": True, "content": {
        media: {"schema": schema, **entry}}})


def test_form_fields_and_encoding(tmp_path: Path) -> None:
    spec = _body(FORM, {"type": "object", "required": ["name"], "properties": {
        "name": {"type": "string"},
        "address": {"type": "object", "properties": {"city": {"type": "string"}}},
        "tags": {"type": "array", "items": {"type": "string"}}}},
        encoding={"address": {"style": "deepObject", "explode": True},
                  "tags": {"style": "spaceDelimited", "explode": False}})
    entry = tool(generate(write_spec(tmp_path, spec)), "op")
    assert entry["binding"]["requestContentType"] == FORM
    assert entry["binding"]["arguments"] == {
        "address": {"in": "body", "name": "address", "style": "deepObject", "explode": True},
        "name": {"in": "body", "name": "name", "style": "form", "explode": True},
        "tags": {"in": "body", "name": "tags", "style": "spaceDelimited", "explode": False}}
    assert entry["tool"]["inputSchema"]["required"] == ["name"]


def test_multipart_parts(tmp_path: Path) -> None:
    spec = _body("multipart/form-data", {"type": "object", "properties": {
        "file": {"type": "string", "format": "binary", "description": "the upload"},
        "untyped": {"format": "binary"},
        "pages": {"type": "array", "items": {"type": "string", "format": "binary"}},
        "image": {"type": "string", "contentMediaType": "image/png"},
        "meta": {"type": "object", "properties": {"a": {"type": "integer"}}},
        "note": {"type": "string"}}},
        encoding={"meta": {"contentType": "application/json"}})
    entry = tool(generate(write_spec(tmp_path, spec)), "op")
    props = entry["tool"]["inputSchema"]["properties"]
    base64 = {"type": "string", "contentEncoding": "base64", "pattern": BASE64_PATTERN}
    assert props["file"] == {**base64, "description": "the upload"}
    assert props["untyped"] == base64
    assert props["pages"]["items"] == base64
    assert props["image"] == {**base64, "contentMediaType": "image/png"}
    assert props["note"] == {"type": "string"}
    assert entry["binding"]["arguments"]["meta"] == {"in": "body", "name": "meta",
                                                     "contentType": "application/json"}
    assert entry["binding"]["arguments"]["note"] == {"in": "body", "name": "note"}


def test_text_and_binary_bodies(tmp_path: Path) -> None:
    cases = {
        "text/plain": ({"type": "string", "maxLength": 10},
                       {"type": "string", "maxLength": 10, "contentMediaType": "text/plain"}),
        "application/octet-stream": ({"type": "string", "format": "binary"},
                                     {"type": "string", "contentEncoding": "base64",
                                      "contentMediaType": "application/octet-stream",
                                      "pattern": BASE64_PATTERN}),
        "image/*": ({"type": "string", "format": "binary"},
                    {"type": "string", "contentEncoding": "base64",
                     "contentMediaType": "image/*", "pattern": BASE64_PATTERN}),
        "*/*": ({"type": "string", "description": "raw data"},
                {"type": "string", "contentEncoding": "base64", "contentMediaType": "*/*",
                 "description": "raw data", "pattern": BASE64_PATTERN}),
    }
    for i, (media, (schema, expected)) in enumerate(cases.items()):
        entry = tool(generate(write_spec(tmp_path / str(i), _body(media, schema))), "op")
        assert entry["binding"]["arguments"] == {"body": {"in": "body", "name": None}}, media
        assert entry["binding"]["requestContentType"] == media
        # A required raw body cannot be empty: an empty body is no body (issue 11).
        assert entry["tool"]["inputSchema"]["properties"]["body"] == {**expected,
                                                                      "minLength": 1}, media
        assert entry["tool"]["inputSchema"]["required"] == ["body"]


def test_json_wins_over_forms_and_forms_over_text(tmp_path: Path) -> None:
    spec = operation("/x", requestBody={"content": {
        "text/plain": {"schema": {"type": "string"}},
        "multipart/form-data": {"schema": {"type": "object", "properties": {
            "a": {"type": "string"}}}},
        "application/json": {"schema": {"type": "object", "properties": {
            "a": {"type": "string"}}}}}})
    assert tool(generate(write_spec(tmp_path, spec)), "op")["binding"][
        "requestContentType"] == "application/json"
    del spec["paths"]["/x"]["post"]["requestBody"]["content"]["application/json"]
    assert tool(generate(write_spec(tmp_path, spec)), "op")["binding"][
        "requestContentType"] == "multipart/form-data"


def test_kubernetes_patch_speaks_merge_patch() -> None:
    entry = tool(real_catalog("corpus", "kubernetes", "swagger.json.unprocessed"),
                 "patch_core_v1_namespaced_pod")
    # The body schema is an object (v1.Patch); a JSON Patch body would be an array.
    assert entry["binding"]["requestContentType"] == "application/merge-patch+json"


def test_stripe_deep_objects() -> None:
    catalog = real_catalog("corpus", "stripe", "spec3.yaml")
    arguments = tool(catalog, "post_customers")["binding"]["arguments"]
    assert arguments["address"]["style"] == "deepObject"
    assert arguments["email"] == {"in": "body", "name": "email", "style": "form",
                                  "explode": True}
    # Query parameters: stripe's deepObject ranges (created[gte]=...) keep their style.
    assert tool(catalog, "get_accounts")["binding"]["arguments"]["created"] == {
        "in": "query", "name": "created", "style": "deepObject", "explode": True}
    upload = tool(catalog, "post_files")
    assert upload["binding"]["requestContentType"] == "multipart/form-data"
    assert upload["tool"]["inputSchema"]["properties"]["file"]["contentEncoding"] == "base64"


def test_github_raw_upload_and_markdown() -> None:
    catalog = real_catalog("corpus", "github", "api.github.com.json")
    upload = tool(catalog, "repos_upload_release_asset")
    assert upload["binding"]["requestContentType"] == "*/*"
    assert upload["tool"]["inputSchema"]["properties"]["body"]["contentEncoding"] == "base64"
    markdown = tool(catalog, "markdown_render_raw")
    assert markdown["tool"]["inputSchema"]["properties"]["body"] == {
        "type": "string", "contentMediaType": "text/plain"}


def test_openai_multipart_part_types() -> None:
    catalog = real_catalog("corpus", "openai", "openapi.yaml")
    call = tool(catalog, "create_realtime_call")
    assert call["binding"]["arguments"]["sdp"]["contentType"] == "application/sdp"
    assert call["binding"]["arguments"]["session"]["contentType"] == "application/json"
