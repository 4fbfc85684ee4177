"""A binary body declared as a media range (`image/*`) is sent with a type inside the range.

Jellyfin's `post_user_image` and `set_item_image` accept `image/*`. The runtime sent
`application/octet-stream` for every wildcard, which is outside `image/*`: the oracle
rejected all four tools once the sampler drew valid base64 ("Content for the following
mimetype not found"). Now the bytes' signature names the type (PNG -> image/png); bytes
it does not know keep the declared range, and only `*/*` falls back to octet-stream.
"""

from __future__ import annotations

import base64
from typing import Any

import pytest
from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from toolcat.runtime.request import build_request

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF"
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 "
PDF = b"%PDF-1.7\n"


def _entry(content_type: str) -> dict[str, Any]:
    body = {"type": "string", "contentEncoding": "base64"}
    return {"tool": {"name": "t", "inputSchema": {"type": "object",
                                                  "properties": {"body": body}}},
            "binding": {"method": "POST", "path": "/image", "requestContentType": content_type,
                        "arguments": {"body": {"in": "body", "name": None}},
                        "servers": [{"url": "/"}]}}


@pytest.mark.parametrize(("declared", "data", "sent"), [
    ("image/*", PNG, "image/png"),
    ("image/*", JPEG, "image/jpeg"),
    ("image/*", WEBP, "image/webp"),
    ("image/*", b"not an image", "image/*"),
    ("image/*", PDF, "image/*"),               # a PDF is no image: stay inside the range
    ("*/*", PDF, "application/pdf"),
    ("*/*", b"\x00\x01", "application/octet-stream"),
    ("image/png", JPEG, "image/png"),          # a concrete type is the caller's word
])
def test_content_type_of_a_binary_body(declared: str, data: bytes, sent: str) -> None:
    request = build_request(_entry(declared), {"body": base64.b64encode(data).decode()},
                            "http://api.test")
    assert (request.content_type, request.body) == (sent, data)


SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/Users/{userId}/Images/{imageType}": {"post": {
        "operationId": "PostUserImage",
        "parameters": [
            {"name": "userId", "in": "path", "required": True,
             "schema": {"type": "string", "format": "uuid"}},
            {"name": "imageType", "in": "path", "required": True,
             "schema": {"type": "string", "enum": ["Art", "Logo"]}}],
        "requestBody": {"content": {"image/*": {"schema": {"type": "string",
                                                           "format": "binary"}}}},
        "responses": {"204": {"description": "Image updated."}}}}},
}


def test_the_oracle_accepts_what_is_sent(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=3, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 3
