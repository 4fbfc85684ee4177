"""The runtime's request builder against the OpenAPI style tables, case by case.

Expected strings are copied from the OpenAPI 3.1 style examples (4.8.12.4), with every value
percent-encoded: a value can never change the shape of the URL.
"""

from __future__ import annotations

import base64
import re
from typing import Any

import pytest
from toolcat.runtime.request import RequestError, build_request, resolve_server


def _entry(arguments: dict[str, Any], path: str = "/things", method: str = "GET",
           content_type: str | None = None, properties: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    return {"tool": {"name": "t", "inputSchema": {"type": "object",
                                                  "properties": properties or {}}},
            "binding": {"method": method, "path": path, "arguments": arguments,
                        "requestContentType": content_type, "servers": [{"url": "/"}]}}


def _param(where: str, name: str, style: str, explode: bool) -> dict[str, Any]:
    return {"in": where, "name": name, "style": style, "explode": explode}


@pytest.mark.parametrize(("style", "explode", "value", "expected"), [
    ("simple", False, 5, "/things/5"),
    ("simple", False, [3, 4, 5], "/things/3,4,5"),
    ("simple", False, {"R": 100, "G": 200}, "/things/R,100,G,200"),
    ("simple", True, {"R": 100, "G": 200}, "/things/R=100,G=200"),
    ("label", False, 5, "/things/.5"),
    ("label", False, [3, 4], "/things/.3,4"),
    ("label", True, [3, 4], "/things/.3.4"),
    ("matrix", False, 5, "/things/;id=5"),
    ("matrix", False, [3, 4], "/things/;id=3,4"),
    ("matrix", True, [3, 4], "/things/;id=3;id=4"),
    ("matrix", True, {"R": 1, "G": 2}, "/things/;R=1;G=2"),
    ("simple", False, "../../admin?x=1#top", "/things/..%2F..%2Fadmin%3Fx%3D1%23top"),
    ("simple", False, "a b/c", "/things/a%20b%2Fc"),
])
def test_path_styles(style: str, explode: bool, value: Any, expected: str) -> None:
    entry = _entry({"id": _param("path", "id", style, explode)}, path="/things/{id}")
    request = build_request(entry, {"id": value}, "http://api.test/v1")
    assert request.path == "/v1" + expected
    assert request.url == "http://api.test/v1" + expected


@pytest.mark.parametrize("value", ["", [], {}])
def test_empty_path_value_is_refused(value: Any) -> None:
    entry = _entry({"id": _param("path", "id", "simple", False)}, path="/things/{id}")
    with pytest.raises(RequestError, match="argument 'id': a path value cannot be empty"):
        build_request(entry, {"id": value}, "http://api.test")


@pytest.mark.parametrize(("style", "explode", "value", "expected"), [
    ("form", True, 5, "color=5"),
    ("form", True, ["blue", "black"], "color=blue&color=black"),
    ("form", False, ["blue", "black"], "color=blue,black"),
    ("form", True, {"R": 100, "G": 200}, "R=100&G=200"),
    ("form", False, {"R": 100, "G": 200}, "color=R,100,G,200"),
    ("spaceDelimited", False, ["blue", "black"], "color=blue%20black"),
    ("pipeDelimited", False, ["blue", "black"], "color=blue%7Cblack"),
    ("deepObject", True, {"R": 100, "G": 200}, "color%5BR%5D=100&color%5BG%5D=200"),
    ("form", True, "a&b=c#d", "color=a%26b%3Dc%23d"),
    ("form", True, True, "color=true"),
])
def test_query_styles(style: str, explode: bool, value: Any, expected: str) -> None:
    entry = _entry({"color": _param("query", "color", style, explode)})
    assert build_request(entry, {"color": value}, "http://api.test").query == expected


def test_if_match_header_and_crlf_refused() -> None:
    entry = _entry({"ifMatch": _param("header", "If-Match", "simple", False)}, method="PUT")
    request = build_request(entry, {"ifMatch": '"v3"'}, "http://api.test")
    assert request.headers == (("If-Match", '"v3"'),)
    with pytest.raises(RequestError, match="argument 'ifMatch': a header value cannot"):
        build_request(entry, {"ifMatch": '"v3"\r\nX-Admin: 1'}, "http://api.test")


def test_cookies_are_encoded_pairs() -> None:
    entry = _entry({"session": _param("cookie", "sid", "form", True),
                    "prefs": _param("cookie", "prefs", "form", False)})
    request = build_request(entry, {"session": "a;b", "prefs": ["x", "y"]}, "http://api.test")
    assert request.cookies == (("sid", "a%3Bb"), ("prefs", "x,y"))


def test_json_body_fields_use_wire_names_and_path_args_stay_apart() -> None:
    entry = _entry({"id": _param("path", "id", "simple", False),
                    "body_id": {"in": "body", "name": "id"},
                    "name": {"in": "body", "name": "name"}},
                   path="/things/{id}", method="PUT", content_type="application/json")
    request = build_request(entry, {"id": 1, "body_id": 2, "name": "n"}, "http://api.test")
    assert request.path == "/things/1"
    assert request.body == b'{"id":2,"name":"n"}'
    assert request.content_type == "application/json"


def test_whole_body_text_binary_and_empty_object() -> None:
    whole = _entry({"body": {"in": "body", "name": None}}, method="POST",
                   content_type="application/json")
    assert build_request(whole, {"body": [1, 2]}, "http://a.test").body == b"[1,2]"
    text = _entry({"body": {"in": "body", "name": None}}, method="POST",
                  content_type="text/plain")
    assert build_request(text, {"body": "héllo"}, "http://a.test").body == "héllo".encode()
    binary = _entry({"body": {"in": "body", "name": None}}, method="POST",
                    content_type="application/octet-stream",
                    properties={"body": {"type": "string", "contentEncoding": "base64"}})
    raw = bytes(range(5))
    sent = build_request(binary, {"body": base64.b64encode(raw).decode()}, "http://a.test")
    assert sent.body == raw
    fields = _entry({"name": {"in": "body", "name": "name"}}, method="POST",
                    content_type="application/json")
    assert build_request(fields, {}, "http://a.test").body == b"{}"
    fields["binding"]["bodyRequired"] = False
    assert build_request(fields, {}, "http://a.test").body is None


def test_form_and_multipart_bodies() -> None:
    form = _entry({"tags": {"in": "body", "name": "tags", "style": "form", "explode": True},
                   "q": {"in": "body", "name": "q"}}, method="POST",
                  content_type="application/x-www-form-urlencoded")
    assert build_request(form, {"tags": ["a", "b c"], "q": "x&y"}, "http://a.test").body == (
        b"tags=a&tags=b%20c&q=x%26y")
    multi = _entry({"file": {"in": "body", "name": "file", "contentType": "image/png"},
                    "meta": {"in": "body", "name": "meta"},
                    "title": {"in": "body", "name": "title"}}, method="POST",
                   content_type="multipart/form-data",
                   properties={"file": {"type": "string", "contentEncoding": "base64"}})
    request = build_request(multi, {"file": base64.b64encode(b"\x89PNG").decode(),
                                    "meta": {"a": 1}, "title": "T"}, "http://a.test")
    assert request.content_type is not None
    boundary = request.content_type.split("boundary=")[1]
    assert request.body == (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="file"\r\n'
        f"Content-Type: image/png\r\n\r\n".encode() + b"\x89PNG\r\n"
        + f'--{boundary}\r\nContent-Disposition: form-data; name="meta"\r\n'
        f'Content-Type: application/json\r\n\r\n{{"a":1}}\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="title"\r\n'
        f"Content-Type: text/plain\r\n\r\nT\r\n--{boundary}--\r\n".encode())


@pytest.mark.parametrize(("server", "base", "expected"), [
    ({"url": "https://api.example.com/v1"}, "http://127.0.0.1:9000",
     "http://127.0.0.1:9000/v1"),
    ({"url": "/v1"}, "http://127.0.0.1:9000", "http://127.0.0.1:9000/v1"),
    ({"url": "/v1"}, "http://127.0.0.1:9000/", "http://127.0.0.1:9000/v1"),
    ({"url": "https://{region}.example.com/v1",
      "variables": {"region": {"default": "eu", "enum": ["eu", "us"]}}}, None,
     "https://eu.example.com/v1"),
])
def test_server_resolution(server: dict[str, Any], base: str | None, expected: str) -> None:
    assert resolve_server([server], base) == expected


def test_relative_server_without_base_url_says_what_to_pass() -> None:
    with pytest.raises(RequestError, match="--base-url"):
        resolve_server([{"url": "/v1"}], None)


def test_nested_deep_object_follows_the_bracket_convention() -> None:
    """OpenAPI leaves a deepObject member that is an object or a list undefined; the
    APIs that take nested forms (Stripe's form bodies declare deepObject for them) read
    ``name[a][b]=v`` and ``name[a][0][b]=v``, list items indexed as PHP's
    ``http_build_query``, ``qs`` and Stripe's clients write them. JSON text in a member
    (``components[x]={"enabled":true}``) is refused by them; a repeated name
    (``name[a]=1&name[a]=2``) is read as its last value by Rails and PHP."""
    form = _entry({"components": {"in": "body", "name": "components", "style": "deepObject",
                                  "explode": True},
                   "items": {"in": "body", "name": "items", "style": "deepObject",
                             "explode": True}}, method="POST",
                  content_type="application/x-www-form-urlencoded")
    request = build_request(form, {
        "components": {"payments": {"enabled": True, "features": {"refunds": False}},
                       "tags": ["a", "b"], "gone": None},
        "items": {"list": [{"price": "p_1", "quantity": 2}, {"price": "p 2"}]},
    }, "http://a.test")
    assert request.body is not None
    assert request.body.decode().split("&") == [
        "components%5Bpayments%5D%5Benabled%5D=true",
        "components%5Bpayments%5D%5Bfeatures%5D%5Brefunds%5D=false",
        "components%5Btags%5D%5B0%5D=a", "components%5Btags%5D%5B1%5D=b",
        "items%5Blist%5D%5B0%5D%5Bprice%5D=p_1", "items%5Blist%5D%5B0%5D%5Bquantity%5D=2",
        "items%5Blist%5D%5B1%5D%5Bprice%5D=p%202"]
    query = _entry({"filter": _param("query", "filter", "deepObject", True)})
    assert build_request(query, {"filter": {"created": {"gte": 1, "lt": 5}}},
                         "http://a.test").query == (
        "filter%5Bcreated%5D%5Bgte%5D=1&filter%5Bcreated%5D%5Blt%5D=5")
    # a list under deepObject (Stripe's ``expand``), nulls left out and the rest renumbered
    expand = _entry({"expand": _param("query", "expand", "deepObject", True)})
    assert build_request(expand, {"expand": ["a", None, "b c"]}, "http://a.test").query == (
        "expand%5B0%5D=a&expand%5B1%5D=b%20c")
    # a scalar where the schema admits one (Stripe's ``created``: integer or range object)
    created = _entry({"created": _param("query", "created", "deepObject", True)})
    assert build_request(created, {"created": 5}, "http://a.test").query == "created=5"


def test_a_bracket_in_a_deep_object_member_name_is_refused() -> None:
    """``filter[a]b]=1`` would be read as one more level of nesting: the runtime refuses
    to send it, naming the member, at any depth (the inputSchema forbids such names at
    the top; a free-form map deeper down can still hold one)."""
    query = _entry({"filter": _param("query", "filter", "deepObject", True)})
    for value, member in (({"a]b": 1}, "a]b"), ({"x": {"y[0": 1}}, "y[0")):
        with pytest.raises(RequestError, match=re.escape(repr(member))):
            build_request(query, {"filter": value}, "http://a.test")


def test_a_whole_form_body_is_sent_as_its_members() -> None:
    """A form body whose schema is a union (Lichess' ``broadcast_round_create``) is one
    whole-body argument; the runtime sent an empty body for it. Its members are the
    fields, with OpenAPI's default encoding: an object member of a form-urlencoded body
    as its JSON text, a list exploded, null left out; in multipart, one part each, a
    file member (base64 in the union's properties) as bytes."""
    union = {"oneOf": [{"type": "object", "properties": {
        "name": {"type": "string"}, "file": {"type": "string", "contentEncoding": "base64"}}}]}
    form = _entry({"body": {"in": "body", "name": None}}, method="POST",
                  content_type="application/x-www-form-urlencoded", properties={"body": union})
    request = build_request(form, {"body": {"name": "r 1", "scoring": {"win": 1},
                                            "tags": ["a", "b"], "gone": None}}, "http://a.test")
    assert request.body == (b"name=r%201&scoring=%7B%22win%22%3A1%7D&tags=a&tags=b")
    multipart = _entry({"body": {"in": "body", "name": None}}, method="POST",
                       content_type="multipart/form-data", properties={"body": union})
    request = build_request(multipart, {"body": {"name": "r", "file": "AAEC"}}, "http://a.test")
    assert request.body is not None
    assert b'name="name"\r\nContent-Type: text/plain\r\n\r\nr\r\n' in request.body
    assert b'filename="file"\r\nContent-Type: application/octet-stream\r\n\r\n\x00\x01\x02\r\n' \
        in request.body
