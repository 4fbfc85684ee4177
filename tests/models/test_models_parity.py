"""Each tool's input model accepts exactly what its inputSchema accepts.

On instances hypothesis-jsonschema draws from each inputSchema, and on mutations
of a valid instance with every property filled (missing required, wrong type,
extra property, null, enum violation), for every tool of the example catalog
and of a fixed sample of corpus catalogs. Where the two disagree, the
disagreement must be one of the keywords pinned in ``DIVERGENCES`` (each proven
real below on a fixture the test writes); anything else fails, naming the tool,
the mutation and the keyword.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers.generate import adhoc_target, build, example_target
from helpers.models import DIVERGENCES, bounded, disagreement, import_models, mutations
from helpers.paths import shared
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import NonInteractiveExampleWarning
from hypothesis_jsonschema import from_schema
from toolcat.model.types import Catalog
from toolcat.models.document import input_class
from toolcat.output.files import Files
from toolcat.pipeline import build_catalog, render_files

# Small corpus documents with varied shapes (oneOf bodies, form bodies, const,
# allOf); `make test` runs the first two, `make models-parity` all of them with
# more examples each.
FULL = os.environ.get("TOOLCAT_PARITY_FULL") == "1"
CORPUS_SAMPLE = ("train-travel/openapi.yaml", "museum/openapi.yaml",
                 *(("swagger-petstore/master/src/main/resources/openapi.yaml",
                    "kratos/api.json", "oai-examples/v3.0/petstore-expanded.json")
                   if FULL else ()))
EXAMPLES = 30 if FULL else 4   # the seed is fixed either way (derandomize)

_settings = settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None,
                     suppress_health_check=list(HealthCheck))


def _all_required(schema: dict[str, Any]) -> Any:
    return bounded({**schema, "required": sorted(schema.get("properties", {}))})


def _check_tool(schema: dict[str, Any], model: Any, data: st.DataObject, tool: str) -> None:
    problems = []
    drawn = data.draw(from_schema(bounded(schema)), label="drawn")
    found = disagreement(schema, model, drawn)
    if found is not None and found not in DIVERGENCES:
        problems.append(f"{tool} drawn {drawn!r}: {found}")
    full = data.draw(from_schema(_all_required(schema)), label="full")
    for label, instance in mutations(schema, full):
        found = disagreement(schema, model, instance)
        if found is not None and found not in DIVERGENCES:
            problems.append(f"{tool} {label}: {found}")
    assert problems == []


def _parity(tool: str, schema: dict[str, Any], model: Any) -> None:
    @_settings
    @given(st.data())
    def run(data: st.DataObject) -> None:
        _check_tool(schema, model, data, tool)

    run()


def _tools(catalog: Catalog, module: ModuleType) -> list[tuple[str, dict[str, Any], Any]]:
    return [(t.name, t.input_schema, getattr(module, input_class(t.name)))
            for t in catalog.tools]


@pytest.fixture(scope="module")
def example_models(tmp_path_factory: pytest.TempPathFactory,
                   example_files: Files) -> ModuleType:
    return import_models(example_files, tmp_path_factory.mktemp("example"))


@pytest.mark.parametrize("tool", sorted(t.name for t in build_catalog(example_target()).tools))
def test_example_tool(tool: str, example_catalog: Catalog, example_models: ModuleType) -> None:
    entry = next(t for t in _tools(example_catalog, example_models) if t[0] == tool)
    _parity(*entry)


@pytest.mark.parametrize("document", CORPUS_SAMPLE)
def test_corpus_sample(document: str, tmp_path: Path) -> None:
    spec = shared("corpus", *document.split("/"))
    catalog = build(spec)
    module = import_models(render_files(catalog, models=True), tmp_path)
    for entry in _tools(catalog, module):
        _parity(*entry)


# -- each pinned divergence is real -------------------------------------------------

def _fixture(tmp_path: Path, properties: dict[str, Any]) -> tuple[dict[str, Any], Any]:
    spec = tmp_path / "api" / "spec.json"
    spec.parent.mkdir()
    spec.write_text(__import__("json").dumps({
        "openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/things": {"post": {
            "operationId": "makeThing",
            "requestBody": {"required": True, "content": {"application/json": {"schema": {
                "type": "object", "properties": properties}}}},
            "responses": {"204": {"description": "made"}}}}}}))
    catalog = build_catalog(adhoc_target(spec))
    module = import_models(render_files(catalog, models=True), tmp_path / "out")
    tool = catalog.tools[0]
    return tool.input_schema, getattr(module, input_class(tool.name))


def test_null_for_optional_is_a_real_divergence(tmp_path: Path) -> None:
    schema, model = _fixture(tmp_path, {"label": {"type": "string"}})
    assert disagreement(schema, model, {"label": None}) == "null-for-optional"


def test_format_is_an_annotation_in_the_model_too(tmp_path: Path) -> None:
    """2020-12 does not assert ``format``; neither do the models (no AwareDatetime)."""
    schema, model = _fixture(tmp_path, {"at": {"type": "string", "format": "date-time"},
                                        "mail": {"type": "string", "format": "email"},
                                        "site": {"type": "string", "format": "uri"}})
    instance = {"at": "not a time", "mail": "nobody", "site": "http://example.com"}
    assert disagreement(schema, model, instance) is None
    assert model.model_validate(instance).model_dump(mode="json") == instance


def test_the_guard_sees_an_unexplained_disagreement(tmp_path: Path) -> None:
    """Mutation check: a model looser than its schema is reported, not forgiven."""
    schema, model = _fixture(tmp_path, {"size": {"type": "integer", "maximum": 3}})
    assert disagreement(schema, model, {"size": 9}) is None
    loose = {**schema, "properties": {"size": {"type": "integer", "maximum": 1}}}
    found = disagreement(loose, model, {"size": 2})
    assert found is not None
    assert found.startswith("unknown: the model accepts")


def test_every_mutation_kind_is_tried(example_catalog: Catalog) -> None:
    tool = next(t for t in example_catalog.tools if t.name == "broadcast_update_channel")
    full = dict.fromkeys(tool.input_schema["properties"])
    labels = {label.split(" ")[0] for label, _ in mutations(tool.input_schema, full)}
    assert labels == {"extra", "missing", "wrong", "null", "enum"}


warnings.filterwarnings("ignore", category=NonInteractiveExampleWarning)
