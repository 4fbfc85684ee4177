"""Bytes travel as base64, and the inputSchema says which strings are base64.

``contentEncoding`` is an annotation in JSON Schema 2020-12: nothing checks it, so
``"0"`` passed the inputSchema of DigitalOcean's upload (``application/octet-stream``)
and no server can decode it into a request. A binary body and a multipart file part
carry ``pattern`` (RFC 4648, padded, what ``b64decode(validate=True)`` accepts).
Oracle figure: every drawn call is accepted.
"""

from __future__ import annotations

import base64
import binascii
import re
from typing import Any

import pytest
from helpers.fixtures import generate, tool, write_spec
from oracle.sample import run
from toolcat.model.wire import BASE64_PATTERN

SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {
        "/upload": {"put": {
            "operationId": "upload",
            "requestBody": {"required": True, "content": {"application/octet-stream": {
                "schema": {"type": "string", "format": "binary"}}}},
            "responses": {"204": {"description": "ok"}}}},
        "/files": {"post": {
            "operationId": "addFile",
            "requestBody": {"required": True, "content": {"multipart/form-data": {
                "schema": {"type": "object", "required": ["file"], "properties": {
                    "file": {"type": "string", "format": "binary"}}}}}},
            "responses": {"204": {"description": "ok"}}}},
    },
}


@pytest.mark.parametrize("text", ["", "AA==", "AAA=", "AAAA", "+/9z", "0", "AA=", "A===",
                                  "AAAA\n", "AA AA", "-_AA"])
def test_the_pattern_is_what_a_strict_decoder_accepts(text: str) -> None:
    try:
        base64.b64decode(text, validate=True)
        decodes = True
    except binascii.Error:
        decodes = False
    assert bool(re.search(BASE64_PATTERN, text)) is decodes, text


def test_bytes_arguments_must_be_base64(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    catalog = generate(spec)
    body = tool(catalog, "upload")["tool"]["inputSchema"]["properties"]["body"]
    part = tool(catalog, "add_file")["tool"]["inputSchema"]["properties"]["file"]
    for schema in (body, part):
        assert schema["contentEncoding"] == "base64"
        assert schema["pattern"] == BASE64_PATTERN
    tally = run(spec, catalog, count=10, seed_value=4)
    assert tally.requests >= 2
    assert tally.failures == []
    assert tally.accepted == tally.requests
