"""A multipart array property is one part per item, each typed by the items' default.

OpenAPI 3.1.1 section 4.8.15.3 ("Encoding multipart Media Types"): "Array properties are
handled by applying the same name to multiple parts, as is recommended by RFC7578
Section 4.3", and the part's default Content-Type for an array "is based on the type in
the items subschema" (text/plain for primitives, application/json for objects); an
explicit ``contentType`` "is applied to each ... part corresponding to each [item] in the
array". OpenAPI 3.0.3 gives the same per-item default. The runtime sent an array of
scalars as a single ``application/json`` part (``["a","b"]``), which a server reading
the field's parts gets as one item holding JSON. The body is read back here with the
standard library's MIME parser, not with toolcat code.
"""

from __future__ import annotations

import base64
from email.message import Message
from email.parser import BytesParser
from email.policy import HTTP
from typing import Any

from toolcat.runtime.request import build_request


def _entry(arguments: dict[str, Any], properties: dict[str, Any]) -> dict[str, Any]:
    return {"tool": {"name": "t", "inputSchema": {"type": "object", "properties": properties}},
            "binding": {"method": "POST", "path": "/upload", "arguments": arguments,
                        "requestContentType": "multipart/form-data",
                        "servers": [{"url": "/"}]}}


def _parts(entry: dict[str, Any], arguments: dict[str, Any]) -> list[tuple[str, str, bytes]]:
    request = build_request(entry, arguments, "http://a.test")
    assert request.body is not None
    assert request.content_type is not None
    raw = f"Content-Type: {request.content_type}\r\n\r\n".encode() + request.body
    message = BytesParser(policy=HTTP).parsebytes(raw)
    out = []
    for part in message.iter_parts():
        assert isinstance(part, Message)
        payload = part.get_payload(decode=True)
        assert isinstance(payload, bytes)
        out.append((str(part.get_param("name", header="content-disposition")),
                    part.get_content_type(), payload))
    return out


ARGUMENTS = {"tags": {"in": "body", "name": "tags"},
             "points": {"in": "body", "name": "points"},
             "notes": {"in": "body", "name": "notes", "contentType": "text/markdown"},
             "files": {"in": "body", "name": "files", "contentType": "image/png"},
             "meta": {"in": "body", "name": "meta"}}
PROPERTIES = {"tags": {"type": "array", "items": {"type": "string"}},
              "points": {"type": "array", "items": {"type": "object"}},
              "notes": {"type": "array", "items": {"type": "string"}},
              "files": {"type": "array", "items": {"type": "string",
                                                   "contentEncoding": "base64"}},
              "meta": {"type": "object"}}


def test_one_part_per_item() -> None:
    png = base64.b64encode(b"\x89PNG").decode()
    parts = _parts(_entry(ARGUMENTS, PROPERTIES), {
        "tags": ["a", "b c"], "points": [{"x": 1}, {"x": 2}], "notes": ["*n*"],
        "files": [png, png], "meta": {"k": [1, 2]}})
    assert parts == [
        ("tags", "text/plain", b"a"), ("tags", "text/plain", b"b c"),
        ("points", "application/json", b'{"x":1}'), ("points", "application/json", b'{"x":2}'),
        ("notes", "text/markdown", b"*n*"),
        ("files", "image/png", b"\x89PNG"), ("files", "image/png", b"\x89PNG"),
        ("meta", "application/json", b'{"k":[1,2]}'),
    ]


def test_an_empty_array_is_no_part() -> None:
    parts = _parts(_entry(ARGUMENTS, PROPERTIES), {"tags": [], "meta": {}})
    assert parts == [("meta", "application/json", b"{}")]


def test_a_list_where_the_schema_is_no_array_is_one_json_part() -> None:
    parts = _parts(_entry({"any": {"in": "body", "name": "any"}}, {"any": {}}),
                   {"any": ["a", 1]})
    assert parts == [("any", "application/json", b'["a",1]')]
