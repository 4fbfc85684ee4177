"""Issue 28 item 17: reordering the document changes no emitted byte.

Key order of every object and the order of every ``required`` list carry no meaning
(README: sorted where order carries no meaning), so the example API with every
object's keys and every ``required`` list reversed must give the same tools. Media
types that tie in preference (two JSON types, two others) are chosen by their text,
never by the order ``content`` lists them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import REPO
from toolcat.config import Target
from toolcat.jsonio import dumps
from toolcat.pipeline import build
from toolcat.render.catalog import catalog_data


def _reversed(node: Any, key: str = "") -> Any:
    if isinstance(node, dict):
        return {k: _reversed(v, k) for k, v in reversed(list(node.items()))}
    if isinstance(node, list):
        items = [_reversed(v) for v in node]
        return items[::-1] if key == "required" else items
    return node


def _tools(spec: Path, tmp_path: Path) -> Any:
    target = Target(name="api", spec=spec, spec_label="spec.json", output=tmp_path / "out")
    return json.loads(dumps(catalog_data(build(target).catalog)["tools"]))  # as written


def _write(folder: Path, doc: dict[str, Any]) -> Path:
    folder.mkdir()
    spec = folder / "spec.json"
    spec.write_text(json.dumps(doc))
    return spec


def test_the_example_api_reversed_gives_the_same_tools(tmp_path: Path) -> None:
    doc = json.loads((REPO / "specs" / "broadcast" / "v1.json").read_text())
    assert any("required" in json.dumps(v) for v in doc["components"]["schemas"].values())
    first = _tools(_write(tmp_path / "a", doc), tmp_path)
    second = _tools(_write(tmp_path / "b", _reversed(doc)), tmp_path)
    assert json.dumps(first) == json.dumps(second)


BODY = {"type": "object", "required": ["b", "a"],
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}}}


def _doc(request: dict[str, Any], response: dict[str, Any]) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {"/a": {
        "post": {"operationId": "a", "requestBody": {"content": request},
                 "responses": {"200": {"description": "o", "content": response}}}}}}


@pytest.mark.parametrize(("media", "chosen"), [
    (["application/vnd.b+json", "application/vnd.a+json"], "application/vnd.a+json"),
    (["text/plain", "application/octet-stream"], "application/octet-stream"),
    (["application/json; charset=utf-8", "application/json"], "application/json"),
])
def test_media_types_that_tie_are_chosen_by_their_text(media: list[str], chosen: str,
                                                        tmp_path: Path) -> None:
    results = []
    for i, order in enumerate((media, media[::-1])):
        content = {m: {"schema": BODY} for m in order}
        spec = _write(tmp_path / str(i), _doc(content, content))
        results.append(_tools(spec, tmp_path))
    assert json.dumps(results[0]) == json.dumps(results[1])
    assert results[0][0]["binding"]["requestContentType"] == chosen, results[0][0]["binding"]
