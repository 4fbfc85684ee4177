"""The judge reads nested deepObject values by the bracket convention, and refuses what
the convention cannot have written (tests/oracle/deep_object.py).

OpenAPI defines deepObject for one level of scalars; Stripe's form bodies and queries
nest (``items[0][price]=p``, ``expand[0]=a``), and such calls were counted apart as
"unserialisable", never judged: 365 of Stripe's serve-oracle calls. The reader must
still be a judge: a nested member of the wrong type, an undeclared nested member, a gap
in the indexes or a repeated leaf are refused, each naming where.
"""

from __future__ import annotations

from typing import Any

import pytest
from helpers.fixtures import write_spec
from oracle.client import judge

ITEM = {"type": "object", "additionalProperties": False, "required": ["price"],
        "properties": {"price": {"type": "string", "maxLength": 5},
                       "quantity": {"type": "integer", "maximum": 9}}}
FILTER = {"type": "object", "additionalProperties": False, "properties": {
    "created": {"anyOf": [{"type": "integer"},
                          {"type": "object", "additionalProperties": False,
                           "properties": {"gte": {"type": "integer"},
                                          "lt": {"type": "integer"}}}]},
    "items": {"type": "array", "items": ITEM},
    "tags": {"type": "array", "items": {"type": "string"}},
    "live": {"type": "boolean"},
    "meta": {"type": "object", "additionalProperties": {"type": "string"}}}}
SPEC: dict[str, Any] = {
    "openapi": "3.0.3", "info": {"title": "t", "version": "1"},
    "paths": {"/s": {"post": {
        "operationId": "s",
        "parameters": [{"name": "filter", "in": "query", "style": "deepObject",
                        "explode": True, "schema": FILTER}],
        "requestBody": {"content": {"application/x-www-form-urlencoded": {
            "schema": {"type": "object", "additionalProperties": False,
                       "properties": {"line": {"type": "array", "items": ITEM}}},
            "encoding": {"line": {"style": "deepObject", "explode": True}}}}},
        "responses": {"200": {"description": "ok"}}}}},
}


def _request(query: str, body: str | None = None) -> dict[str, Any]:
    return {"method": "POST", "path": "/s", "query": query, "headers": {}, "cookies": {},
            "contentType": "application/x-www-form-urlencoded" if body is not None else None,
            "body": body, "bodyBase64": None, "operation": "POST /s"}


ACCEPTED = [
    "filter%5Bcreated%5D=5",
    "filter%5Bcreated%5D%5Bgte%5D=1&filter%5Bcreated%5D%5Blt%5D=2",
    "filter%5Bitems%5D%5B0%5D%5Bprice%5D=p&filter%5Bitems%5D%5B1%5D%5Bprice%5D=q"
    "&filter%5Bitems%5D%5B1%5D%5Bquantity%5D=3",
    "filter%5Btags%5D%5B0%5D=a%5Bb&filter%5Btags%5D%5B1%5D=",
    "filter%5Blive%5D=false&filter%5Bmeta%5D%5Bx%20y%5D=1",
]
REFUSED = {   # query -> a word the refusal must name
    "filter%5Bitems%5D%5B0%5D%5Bquantity%5D=3": "price",             # required nested member
    "filter%5Bitems%5D%5B0%5D%5Bprice%5D=p&filter%5Bitems%5D%5B0%5D%5Bqty%5D=3": "qty",
    "filter%5Bitems%5D%5B0%5D%5Bprice%5D=p&filter%5Bitems%5D%5B0%5D%5Bquantity%5D=x":
        "integer type: x",
    "filter%5Bitems%5D%5B0%5D%5Bprice%5D=p&filter%5Bitems%5D%5B0%5D%5Bquantity%5D=10": "9",
    "filter%5Btags%5D%5B0%5D=a&filter%5Btags%5D%5B2%5D=b": "filter[tags]: list indexes",
    "filter%5Btags%5D=a&filter%5Btags%5D=b": "filter[tags]: sent 2 times",  # not indexed
    "filter%5Bcreated%5D=5&filter%5Bcreated%5D%5Bgte%5D=1": "filter[created]: sent both",
    "filter%5Bcreated%5D%5Bgte%5Dx=1": "text after the last bracket",
    "filter%5Blive%5D=maybe": "boolean type: maybe",
}


def test_nested_values_are_judged(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    verdicts = judge(spec, [_request(q) for q in ACCEPTED])
    assert [v["errors"] for v in verdicts] == [[] for _ in ACCEPTED]


@pytest.mark.parametrize("query", sorted(REFUSED))
def test_what_the_convention_cannot_have_written_is_refused(tmp_path: Any, query: str) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    (verdict,) = judge(spec, [_request(query)])
    assert verdict["class"] == "openapi-core", verdict
    assert REFUSED[query] in " ".join(verdict["errors"]), verdict


def test_a_form_body_field_is_read_alike(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    good, bad = judge(spec, [
        _request("", "line%5B0%5D%5Bprice%5D=p&line%5B1%5D%5Bprice%5D=q"),
        _request("", "line%5B0%5D%5Bprice%5D=toolong")])
    assert good["ok"], good
    assert bad["class"] == "openapi-core", bad
    assert "toolong" in " ".join(bad["errors"]), bad
