"""A multipart body whose schema is a ``oneOf`` is pinned as the validator's fault.

Cloudflare's ``workers_script_upload`` body (``worker_script_upload_worker_module``,
``namespace_worker_script_upload_worker_module``) is a multipart ``oneOf`` of an upload
(``metadata`` and the module parts) and a rollback (``message``). openapi-core 0.23
chooses the branch by validating the raw parts before decoding them (a text part is
bytes, a JSON part undecoded text): no branch matches, so it decodes no field and
judges ``{}``, which both of Cloudflare's open branches admit ("valid under each of").
The fixture shows the misreading on a body that satisfies exactly one branch; the
same fields under a plain object schema are read and accepted, so the request is right.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
from helpers.fixtures import write_spec
from oracle.client import judge
from oracle.exceptions import VALIDATOR, pinned

UPLOAD = {"type": "object", "required": ["metadata"],
          "properties": {"metadata": {"type": "object"}}}
ROLLBACK = {"type": "object", "required": ["message"],
            "properties": {"message": {"type": "string"}}}


def _spec(schema: dict[str, Any]) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"},
            "paths": {"/scripts": {"put": {
                "operationId": "upload",
                "requestBody": {"required": True, "content": {"multipart/form-data": {
                    "schema": schema}}},
                "responses": {"200": {"description": "ok"}}}}}}


def _request(parts: list[tuple[str, str]]) -> dict[str, Any]:
    body = "".join(f'--BB\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'
                   for name, value in parts) + "--BB--\r\n"
    return {"method": "PUT", "path": "/scripts", "query": "", "headers": {}, "cookies": {},
            "contentType": "multipart/form-data; boundary=BB", "body": body,
            "operation": "PUT /scripts"}


def test_openapi_core_reads_no_field_of_a_multipart_one_of(tmp_path: Any) -> None:
    one_of = {"oneOf": [UPLOAD, ROLLBACK]}
    assert jsonschema.Draft202012Validator(one_of).is_valid({"message": "undo"})
    union = write_spec(tmp_path, _spec(one_of), "union.json")
    verdict, = judge(union, [_request([("message", "undo")])])
    assert not verdict["ok"]
    assert "{} is not valid under any" in json.dumps(verdict["errors"])
    # the same part under the branch alone is read and accepted: the request is right
    plain = write_spec(tmp_path, _spec(ROLLBACK), "plain.json")
    assert judge(plain, [_request([("message", "undo")])])[0]["ok"]


def test_cloudflare_worker_uploads_pinned() -> None:
    for name in ("worker_script_upload_worker_module",
                 "namespace_worker_script_upload_worker_module"):
        pin = pinned("corpus/cloudflare/openapi.json", name)
        assert pin is not None
        assert pin[0] == VALIDATOR
