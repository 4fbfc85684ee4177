"""A 3.1 multipart body property typed ``[string, "null"]`` is judged, not crashed on.

openapi-core 0.23 reads a form property's ``type`` as a string and raised a TypeError
on every request of Discord's ``create_guild_sticker`` (an ``oracle-error``, never a
verdict). The judge's copy drops the ``null`` there (tests/oracle/quirks.py: a form
field cannot carry null, so the same bodies are admitted); the property's other rules
still apply.
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, write_spec
from helpers.runtime_oracle import judge_runtime
from oracle.client import judge

SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
    "servers": [{"url": "https://example.invalid"}],
    "paths": {"/stickers": {"post": {
        "operationId": "createSticker",
        "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
            "type": "object", "required": ["name"],
            "properties": {
                "name": {"type": "string", "minLength": 2, "maxLength": 4},
                "description": {"type": ["string", "null"], "maxLength": 3}}}}}},
        "responses": {"200": {"description": "ok"}}}}},
}


def _multipart(**fields: str) -> str:
    parts = "".join(f'--b\r\nContent-Disposition: form-data; name="{k}"\r\n'
                    f"Content-Type: text/plain\r\n\r\n{v}\r\n" for k, v in fields.items())
    return parts + "--b--\r\n"


def test_runtime_requests_are_judged(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    tally = judge_runtime(spec, generate(spec), count=3)
    assert tally.failures == [], tally.failures
    assert tally.accepted >= 3


def test_the_property_is_still_checked(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, SPEC, "spec.json")
    request = {"method": "POST", "path": "/stickers", "query": "", "headers": {},
               "cookies": {}, "contentType": "multipart/form-data; boundary=b",
               "operation": "POST /stickers", "bodyBase64": None}
    good, long = judge(spec, [{**request, "body": _multipart(name="ab", description="x")},
                              {**request, "body": _multipart(name="ab", description="long")}])
    assert good["ok"], good
    assert long["class"] == "openapi-core", long
    assert any("description" in e for e in long["errors"]), long
