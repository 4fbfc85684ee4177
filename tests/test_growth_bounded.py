"""Cost grows with the input, not faster (issue 28 items 9 to 13).

Work and output are measured here, never wall time: a count of calls, or the size of
what is emitted, for an input of size N and of size 2N or 4N. ``scripts/runaway.py``
prints the timings of the same cases at the sizes the issue measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from helpers.fixtures import generate, write_spec
from toolcat.model import deep_names

OK = {"200": {"description": "ok"}}


def _counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    calls = [0]
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls


def _spec(paths: dict[str, Any], schemas: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths,
            "components": {"schemas": schemas or {}}}


# -- item 11: the deepObject walk memoises by definition ---------------------------

def _deep_dag(depth: int, nested: bool) -> dict[str, Any]:
    """A deepObject parameter whose schema (or, ``nested``, whose member ``m``) is an
    ``anyOf`` DAG ``depth`` levels deep, three references per level."""
    schemas: dict[str, Any] = {"L0": {"type": "object", "properties": {
        "p": {"type": "object", "additionalProperties": {"type": "string"}}}}}
    for i in range(1, depth + 1):
        schemas[f"L{i}"] = {"anyOf": [{"$ref": f"#/components/schemas/L{i - 1}"}] * 3}
    top: dict[str, Any] = {"$ref": f"#/components/schemas/L{depth}"}
    if nested:
        top = {"type": "object", "properties": {"m": top}}
    param = {"name": "d", "in": "query", "style": "deepObject", "explode": True,
             "schema": top}
    return _spec({"/a": {"get": {"operationId": "a", "parameters": [param],
                                 "responses": OK}}}, schemas)


def _deep_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, depth: int,
              nested: bool) -> tuple[int, int]:
    """(walk steps, bytes of the emitted inputSchema)."""
    calls = _counting(monkeypatch, deep_names, "_walk_node")
    folder = tmp_path / f"{depth}-{nested}"
    catalog = generate(write_spec(folder, _deep_dag(depth, nested), "spec.json"),
                       validate=False)
    schema = catalog["tools"][0]["tool"]["inputSchema"]
    monkeypatch.undo()
    return calls[0], len(orjson.dumps(schema))


@pytest.mark.parametrize("nested", [False, True])
def test_a_deep_object_dag_is_walked_once_per_definition(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, nested: bool) -> None:
    steps_6, size_6 = _deep_run(tmp_path, monkeypatch, 6, nested)
    steps_12, size_12 = _deep_run(tmp_path, monkeypatch, 12, nested)
    # walked as a tree, 6 more levels of 3 references cost 3**6 times the steps
    assert steps_12 <= 3 * steps_6, (steps_6, steps_12)
    assert size_12 <= 3 * size_6, (size_6, size_12)


def test_the_deep_object_rule_still_reaches_the_bottom_of_the_dag(
        tmp_path: Path) -> None:
    catalog = generate(write_spec(tmp_path, _deep_dag(6, True), "spec.json"),
                       validate=False)
    text = orjson.dumps(catalog["tools"][0]["tool"]["inputSchema"]).decode()
    # L0's open member map ``p`` gets the bracket-free names rule, however deep
    assert text.count(deep_names.DEEP_OBJECT_NAME.replace("\\", "\\\\")) >= 2, text
