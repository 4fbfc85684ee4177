"""A null path value is refused by name, never sent as the literal template.

Cloudflare's `dataset_id` path parameter is `nullable` in the document, so the
inputSchema admits null. The runtime skipped null arguments everywhere, which for a
path parameter left `{dataset_id}` in the URL (`/logpush/datasets/{dataset_id}/fields`
went out). A null path value has no serialization: the call is refused with `isError`
naming the argument, and nothing is sent.
"""

from __future__ import annotations

from typing import Any

import pytest
from toolcat.runtime.request import RequestError, build_request


def _entry() -> dict[str, Any]:
    return {"tool": {"name": "t", "inputSchema": {"type": "object", "properties": {
                "dataset_id": {"type": ["string", "null"]}, "zone_id": {"type": "string"}}}},
            "binding": {"method": "GET", "path": "/zones/{zone_id}/datasets/{dataset_id}/fields",
                        "arguments": {n: {"in": "path", "name": n, "style": "simple",
                                          "explode": False} for n in ("zone_id", "dataset_id")},
                        "requestContentType": None, "servers": [{"url": "/"}]}}


def test_null_path_value_is_refused() -> None:
    with pytest.raises(RequestError, match="argument 'dataset_id': a path value cannot be null"):
        build_request(_entry(), {"zone_id": "z1", "dataset_id": None}, "http://api.test")


def test_a_value_is_substituted() -> None:
    request = build_request(_entry(), {"zone_id": "z1", "dataset_id": "http"}, "http://api.test")
    assert request.path == "/zones/z1/datasets/http/fields"
