"""The catalog check while the validator works (render/catalog_check.py, pipeline.py).

The whole catalog is checked against ``catalog.schema.json`` before the validator's
verdict is in (taken as ``valid``, 0 problems); once it is, ``check_source`` checks the
one member it changes. A verdict the schema would reject is still refused, located.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from helpers.paths import EXAMPLE_SPEC
from toolcat import pipeline
from toolcat.config import Target
from toolcat.errors import ToolcatError
from toolcat.load.validation.findings import Findings
from toolcat.render.catalog_check import check_catalog, check_source


def _target(tmp_path: Path) -> Target:
    return Target(name="api", spec=EXAMPLE_SPEC, spec_label="v1.json",
                  output=tmp_path / "out")


def test_check_source_refuses_what_the_schema_rejects_in_source(tmp_path: Path) -> None:
    catalog = pipeline.build(_target(tmp_path)).catalog
    check_source(catalog, "spec.json")
    check_catalog(catalog, "spec.json")
    for source in (replace(catalog.source, verdict="maybe"),
                   replace(catalog.source, problems=-1)):
        bad = replace(catalog, source=source)
        with pytest.raises(ToolcatError) as raised:
            check_source(bad, "spec.json")
        (problem,) = raised.value.problems
        assert problem.location == "/"
        assert "catalog.schema.json at /source/" in problem.message, problem.message
        with pytest.raises(ToolcatError):
            check_catalog(bad, "spec.json")   # the same words as the whole check's


def test_a_verdict_the_schema_rejects_is_refused_after_the_wait(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Findings, "verdict", property(lambda self: "maybe"))
    with pytest.raises(ToolcatError) as raised:
        pipeline.build(_target(tmp_path), render=True)
    assert "catalog.schema.json at /source/verdict" in raised.value.problems[0].message


def test_a_tool_the_schema_rejects_is_refused_by_the_build(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole check runs in the build (while the validator works), located at the
    operation of the tool that holds the value."""
    publish = pipeline.publish_outputs

    def broken(tools: Any, mode: str) -> Any:
        first, *rest = publish(tools, mode)
        bad = replace(first, binding=replace(first.binding, security=(
            ({"id": "k", "type": "apiKeyK"},),)))
        return [bad, *rest]

    monkeypatch.setattr(pipeline, "publish_outputs", broken)
    with pytest.raises(ToolcatError) as raised:
        pipeline.build(_target(tmp_path), render=True)
    problem = raised.value.problems[0]
    assert "catalog.schema.json at /tools/0/binding/security/0/0/type" in problem.message
    assert problem.location.startswith("/paths/"), problem
