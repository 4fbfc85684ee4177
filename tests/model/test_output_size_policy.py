"""Output schemas have a size budget, and loosening them never rejects a real response.

Policy (generator/normalise/defs.py, generator/model/outputs.py): an outputSchema
keeps its definitions exact up to the deepest reference level that fits
``OUTPUT_BUDGET`` bytes, and the level beyond is *loosened* to its types and
description. Input schemas are never loosened. These tests hold the policy to
"looser is acceptable, wrong is not":

* a loosened definition accepts every sample value its exact one accepts;
* every example response GitHub documents that the exact schema accepts, the
  budgeted schema accepts too;
* stripe's catalog shrinks under 10 MB with every tool under 256 KB, and every
  output schema is within budget unless even its root alone is over it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import jsonschema_rs
import orjson
import pytest
from helpers.fixtures import generate, real, real_catalog, tool, write_spec
from toolcat.load.bundle import bundle
from toolcat.load.swagger2 import convert
from toolcat.model import outputs
from toolcat.normalise.defs import Definitions
from toolcat.vocab.pointers import escape_token

SAMPLES = [None, True, 0, 1.5, "", "x", [], [1], {}, {"a": 1}]
REF = "#/components/schemas/"


def _rejecting(schemas: dict[str, Any], defs: dict[str, Any], value: Any) -> set[str]:
    """Names of the ``schemas`` that reject ``value`` (one compiled validator for all)."""
    holder = {"$defs": defs, "type": "object", "properties": schemas}
    validator = jsonschema_rs.validator_for(holder)
    return {str(error.instance_path[0]) for error in
            validator.iter_errors(dict.fromkeys(schemas, value)) if error.instance_path}


def _definitions(path: Path) -> Definitions:
    document = bundle(path).document
    document = convert(document) if "swagger" in document else document
    return Definitions(document, str(path), str(document["openapi"]).startswith("3.0"))


def _never_narrower(defs: Definitions) -> list[str]:
    """Definitions whose loosened form rejects a sample its exact form accepts."""
    schemas = defs.document["components"]["schemas"]
    names = sorted(defs.lookup(REF + escape_token(n), "")[0] for n in schemas)
    closure = defs.closure(frozenset(names), "output")
    exact = {name: {"$ref": f"#/$defs/{escape_token(name)}"} for name in names}
    loose = {name: defs.loosened(name, "output") for name in names}
    problems = []
    for value in SAMPLES:
        wrongly = _rejecting(loose, closure, value) - _rejecting(exact, closure, value)
        problems += [f"{name}: loosened {loose[name]} rejects {value!r}"
                     for name in sorted(wrongly)]
    return problems


SHAPES: dict[str, Any] = {
    "Obj": {"type": "object", "description": "An object.", "properties": {
        "child": {"$ref": REF + "Obj"}}},
    "NullableRef": {"allOf": [{"$ref": REF + "Obj"}], "nullable": True},
    "Union": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "OneOfNull": {"oneOf": [{"$ref": REF + "Obj"}, {"type": "null"}]},
    "Both": {"allOf": [{"type": ["number", "string"]}, {"type": "integer"}]},
    "Enum": {"enum": ["a", 1, None]},
    "Const": {"const": 2.5},
    "Anything": {"description": "no type at all"},
    "Nothing": {"not": {}},
    "Mixed": {"type": "object", "anyOf": [{"required": ["a"]}, {"required": ["b"]}]},
    "Cycle": {"anyOf": [{"$ref": REF + "Cycle2"}, {"type": "boolean"}]},
    "Cycle2": {"anyOf": [{"$ref": REF + "Cycle"}, {"type": "string"}]},
}


def test_loosened_types(tmp_path: Path) -> None:
    spec = {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": {},
            "components": {"schemas": SHAPES}}
    defs = _definitions(write_spec(tmp_path, spec))
    types = {name: defs.loosened(name, "output").get("type") for name in SHAPES}
    assert types == {
        "Obj": "object", "NullableRef": ["object", "null"], "Union": ["string", "integer"],
        "OneOfNull": ["object", "null"], "Both": "integer", "Enum": ["string", "integer",
                                                                      "null"],
        "Const": "number", "Anything": None, "Nothing": None, "Mixed": "object",
        "Cycle": None, "Cycle2": None}
    assert defs.loosened("Obj", "output") == {"type": "object", "description": "An object."}
    assert _never_narrower(defs) == []


@pytest.mark.parametrize("spec", [("stripe", "spec3.yaml"), ("github", "api.github.com.json"),
                                  ("kubernetes", "swagger.json.unprocessed")])
def test_loosening_never_narrows_real_schemas(spec: tuple[str, str]) -> None:
    assert _never_narrower(_definitions(real("corpus", *spec))) == []


@lru_cache(maxsize=2)
def _github(budget: int) -> dict[str, Any]:
    saved = outputs.OUTPUT_BUDGET
    outputs.OUTPUT_BUDGET = budget
    try:
        # Not the shared cache: this catalog is built under a patched budget.
        return generate(real("corpus", "github", "api.github.com.json"), validate=False)
    finally:
        outputs.OUTPUT_BUDGET = saved


def _local(document: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        _, _, section, name = node["$ref"].split("/")
        node = document["components"][section][name]
    return node


def _examples(document: dict[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """(method, path, example) of every documented 2xx application/json example."""
    for path, item in document["paths"].items():
        for method, op in item.items():
            if not isinstance(op, dict):
                continue
            for code, raw in op.get("responses", {}).items():
                if not code.startswith("2"):
                    continue
                response = _local(document, raw)
                media = response.get("content", {}).get("application/json", {})
                for example in (media.get("examples") or {}).values():
                    yield method.upper(), path, _local(document, example)["value"]
                if "example" in media:
                    yield method.upper(), path, media["example"]


def test_github_examples_still_validate() -> None:
    path = real("corpus", "github", "api.github.com.json")
    exact, budgeted = _github(10**12), _github(outputs.OUTPUT_BUDGET)
    exact_by_route = {(e["binding"]["method"], e["binding"]["path"]): e for e in exact["tools"]}
    budgeted_by_route = {(e["binding"]["method"], e["binding"]["path"]): e
                         for e in budgeted["tools"]}
    checked, loosened, problems = 0, 0, []
    for method, route, example in _examples(orjson.loads(path.read_bytes())):
        strict, loose = exact_by_route[(method, route)], budgeted_by_route[(method, route)]
        if "outputSchema" not in strict["tool"]:
            continue
        wrapper = strict["binding"]["outputWrapper"]
        value = {wrapper: example} if wrapper else example
        if not jsonschema_rs.validator_for(strict["tool"]["outputSchema"]).is_valid(value):
            continue   # the example disagrees with the spec's own schema: not our concern
        checked += 1
        loosened += strict["tool"]["outputSchema"] != loose["tool"]["outputSchema"]
        if not jsonschema_rs.validator_for(loose["tool"]["outputSchema"]).is_valid(value):
            problems.append(f"{method} {route}")
    assert checked > 300, f"only {checked} examples were comparable"
    assert loosened > 30, f"only {loosened} checked examples met a loosened schema"
    assert problems == [], f"budgeted output schemas reject documented responses: {problems}"


def test_stripe_fits_and_inputs_stay_exact() -> None:
    catalog = real_catalog("corpus", "stripe", "spec3.yaml")
    written = orjson.dumps(catalog, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS)
    assert len(written) < 10 * 1024 * 1024
    for entry in catalog["tools"]:
        size = len(orjson.dumps(entry, option=orjson.OPT_INDENT_2))
        assert size <= 256 * 1024, f"{entry['tool']['name']}: {size} bytes"
        output = entry["tool"].get("outputSchema")
        if output is None:
            continue
        size = len(orjson.dumps(output))
        # Over budget only when nothing is left to loosen: every def is types-only.
        assert size <= outputs.OUTPUT_BUDGET or all(
            set(d) <= {"type", "description"} for d in output.get("$defs", {}).values()), (
            f"{entry['tool']['name']}: {size} bytes although deeper levels could be loosened")
    # The one multipart body (file upload) and a form body keep every field: inputs exact.
    upload = tool(catalog, "post_files")["tool"]["inputSchema"]
    assert {"file", "purpose", "file_link_data"} <= set(upload["properties"])
