"""Every emitted schema is valid JSON Schema 2020-12 that a client can use on its own.

MCP requires an object root; clients resolve ``$ref`` only inside the tool's own
schema, so every reference must resolve there with nothing else registered. The
whole ``catalog.json`` is also checked against the format's own JSON Schema,
shipped in the package as ``generator/schemas/catalog.schema.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib.resources import files
from typing import Any

import jsonschema
import pytest
import referencing
import referencing.exceptions
from helpers.generate import build
from helpers.paths import ERSATZTV_SCRIPTED, ERSATZTV_V1, ERSATZTV_V1_30, FIXTURES, ersatztv
from referencing.jsonschema import DRAFT202012
from toolcat.model.types import Catalog
from toolcat.render.catalog import catalog_data

BASE = "urn:toolcat:tool-schema"
# Keywords whose values are data, not schemas: a "$ref" key inside them is not a reference.
LITERALS = frozenset({"const", "default", "enum", "examples", "example"})
CATALOGS = ["example", "shapes", ERSATZTV_V1, ERSATZTV_V1_30, ERSATZTV_SCRIPTED]
# Cookie, form and text bodies, allOf and nullable refs: shapes the real specs lack.
SHAPES = FIXTURES / "reachability" / "shapes.json"


def catalog_schema() -> dict[str, Any]:
    resource = files("toolcat").joinpath("schemas/catalog.schema.json")
    loaded: dict[str, Any] = json.loads(resource.read_bytes())
    return loaded


@pytest.fixture(scope="module", params=CATALOGS)
def catalog(request: pytest.FixtureRequest, example_catalog: Catalog) -> dict[str, Any]:
    if request.param == "example":
        return catalog_data(example_catalog)
    if request.param == "shapes":
        return catalog_data(build(SHAPES))
    return catalog_data(build(ersatztv(request.param), "ersatztv"))


def _refs(node: Any, at: str) -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value, at
            elif key not in LITERALS:
                yield from _refs(value, f"{at}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _refs(value, f"{at}/{i}")


def _schema_problems(name: str, kind: str, schema: Any) -> list[str]:
    where = f"{name}.{kind}"
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        return [f"{where}: not a valid 2020-12 schema: {exc.message} at "
                f"/{'/'.join(map(str, exc.absolute_path))}"]
    problems = []
    if schema.get("type") != "object":
        problems.append(f"{where}: root type is {schema.get('type')!r}, MCP needs 'object'")
    # Only this schema is registered: a reference elsewhere cannot resolve.
    resource = referencing.Resource.from_contents(schema, default_specification=DRAFT202012)
    resolver = referencing.Registry().with_resource(BASE, resource).resolver(BASE)
    for ref, at in _refs(schema, ""):
        try:
            resolver.lookup(ref)
        except referencing.exceptions.Unresolvable:
            problems.append(f"{where}: $ref {ref!r} at {at or '/'} does not resolve inside "
                            "the tool's own schema")
    return problems


def test_tool_schemas(catalog: dict[str, Any]) -> None:
    problems = []
    for entry in catalog["tools"]:
        tool = entry["tool"]
        problems += _schema_problems(tool["name"], "inputSchema", tool["inputSchema"])
        if tool["inputSchema"].get("additionalProperties") is not False:
            problems.append(f"{tool['name']}.inputSchema: additionalProperties is not false")
        if "outputSchema" in tool:
            problems += _schema_problems(tool["name"], "outputSchema", tool["outputSchema"])
        properties = set(tool["inputSchema"].get("properties", {}))
        arguments = set(entry["binding"]["arguments"])
        if properties != arguments:
            problems.append(f"{tool['name']}: inputSchema properties and bound arguments "
                            f"differ: {sorted(properties ^ arguments)}")
        missing = set(tool["inputSchema"].get("required", [])) - properties
        if missing:
            problems.append(f"{tool['name']}: required names no property: {sorted(missing)}")
    assert not problems, "\n".join(problems)


def test_catalog_matches_its_format_schema(catalog: dict[str, Any]) -> None:
    validator = jsonschema.Draft202012Validator(catalog_schema())
    errors = sorted(validator.iter_errors(catalog), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(
        f"/{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in errors[:20])


def test_format_schema_is_valid() -> None:
    jsonschema.Draft202012Validator.check_schema(catalog_schema())


def test_format_schema_rejects_what_it_should(example_catalog: Catalog) -> None:
    """The format schema is closed where the generator is: it can fail."""
    validator = jsonschema.Draft202012Validator(catalog_schema())
    good = catalog_data(example_catalog)
    breaks = {
        "unknown top-level key": lambda c: c.update(generatedAt="2026-01-01"),
        "open input schema": lambda c: c["tools"][0]["tool"]["inputSchema"].update(
            additionalProperties=True),
        "array output root": lambda c: c["tools"][0]["tool"].update(
            outputSchema={"type": "array"}),
        "parameter without a wire name": lambda c: next(
            a for t in c["tools"] for a in t["binding"]["arguments"].values()
            if a["in"] == "path").update(name=None),
        "unknown argument location": lambda c: next(
            a for t in c["tools"] for a in t["binding"]["arguments"].values()
            if a["in"] == "body").update({"in": "form"}),
        "tool name with a dot": lambda c: c["tools"][0]["tool"].update(name="a.b"),
        "invalid schema keyword value": lambda c: c["tools"][0]["tool"]["inputSchema"].update(
            required="name"),
    }
    for label, mutate in breaks.items():
        broken = json.loads(json.dumps(good))
        mutate(broken)
        assert not validator.is_valid(broken), f"catalog schema accepted: {label}"


def test_dangling_ref_is_caught() -> None:
    schema = {"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"},
                                               "b": {"$ref": "other.json#/X"}},
              "$defs": {"Here": {"type": "string"}}}
    problems = _schema_problems("t", "inputSchema", schema)
    assert len(problems) == 2, problems
    assert "#/$defs/Missing" in problems[0]
    assert "other.json#/X" in problems[1]
