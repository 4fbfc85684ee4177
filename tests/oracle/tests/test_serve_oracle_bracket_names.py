"""A query parameter whose declared name has brackets is that parameter, not `a[b]`.

Plex's `update_items` declares `tagtype[].tag` and `tagtype[idx].tag.tag`. The judge
read every `a[...]` as deepObject parameter `a` and called `tagtype[].tag` undeclared.
A declared name now counts as itself; an undeclared bracketed name is still refused.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from oracle.client import judge

SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "paths": {"/items": {"put": {
        "operationId": "updateItems",
        "parameters": [{"name": n, "in": "query", "schema": {"type": "string"}}
                       for n in ("tagtype[].tag", "tagtype[idx].tag.tag")],
        "responses": {"200": {"description": "ok"}}}}},
}


def test_bracketed_names_are_declared(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=2, base_url="http://h.invalid")
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 2


def test_an_undeclared_bracketed_name_is_refused(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    (verdict,) = judge(spec, [{"method": "PUT", "path": "/items", "query": "tagtype%5B%5D.x=1",
                               "headers": {}, "cookies": {}, "contentType": None, "body": None,
                               "bodyBase64": None, "operation": "PUT /items"}])
    assert verdict["class"] == "undeclared", verdict
    assert verdict["errors"] == ["undeclared query parameter 'tagtype[].x'"], verdict
