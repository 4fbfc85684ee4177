"""Accept, Content-Type and Authorization header parameters are not arguments.

OpenAPI 3 says such parameter definitions SHALL be ignored: HTTP sets them (the
binding's request and response content types, the credentials). toolcat lists
each in ``binding.ignoredParameters`` with the reason, so nothing disappears
silently. Any other header, ``Cookie`` included, is an argument. lichess declares
``Accept`` on 9 streaming operations, digitalocean ``Accept`` and ``Content-Type``.
"""

from __future__ import annotations

from pathlib import Path

from helpers.fixtures import generate, operation, real_catalog, tool, write_spec

REASON = "set by the binding (OpenAPI: such parameters are ignored)"


def test_reserved_headers_are_listed_not_arguments(tmp_path: Path) -> None:
    spec = operation("/things", "get", parameters=[
        {"name": name, "in": "header", "schema": {"type": "string"}}
        for name in ("Accept", "content-type", "AUTHORIZATION", "Cookie", "X-Trace")])
    entry = tool(generate(write_spec(tmp_path, spec)), "op")
    assert sorted(entry["binding"]["arguments"]) == ["Cookie", "X-Trace"]
    assert entry["binding"]["ignoredParameters"] == [
        {"in": "header", "name": name, "reason": REASON}
        for name in ("Accept", "content-type", "AUTHORIZATION")]
    assert sorted(entry["tool"]["inputSchema"]["properties"]) == ["Cookie", "X-Trace"]


def test_reserved_names_only_in_headers(tmp_path: Path) -> None:
    spec = operation("/things", "get", parameters=[
        {"name": "accept", "in": "query", "schema": {"type": "boolean"}}])
    entry = tool(generate(write_spec(tmp_path, spec)), "op")
    assert entry["binding"]["arguments"]["accept"]["in"] == "query"
    assert entry["binding"]["ignoredParameters"] == []


def test_lichess_accept() -> None:
    catalog = real_catalog("corpus", "lichess", "doc", "specs", "lichess-api.yaml")
    ignored = [e for e in catalog["tools"] if e["binding"]["ignoredParameters"]]
    assert len(ignored) == 9
    assert {i["name"] for e in ignored for i in e["binding"]["ignoredParameters"]} == {"Accept"}
    for entry in ignored:
        assert "Accept" not in entry["binding"]["arguments"]
