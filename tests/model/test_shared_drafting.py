"""Work shared between the tools of a catalog is done once, and changes no byte (issue 25).

A parameter reached through ``$ref`` is drafted once per catalog (GitHub: 3,526 uses of
582 objects), except where its neighbours decide its schema (an exploded form object
may not take another parameter's name); the size budget serialises each shared
``$defs`` mapping once and adds the parts up; argument-name ladders are built only for
names that collide; check_schemas scans for patterns without paths first, and checks
a shared ``$defs`` entry or top-level argument once.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from toolcat.errors import ToolcatError
from toolcat.jsonio import dumps
from toolcat.model import schema_check
from toolcat.model.argument_names import Wanted, _claim, _ladder, assign
from toolcat.model.build import draft_tools
from toolcat.model.naming import argument_name
from toolcat.model.schema_check import check_schemas
from toolcat.model.size_limit import Budget
from toolcat.model.types import LOCATIONS
from toolcat.normalise.defs import Definitions

OK = {"200": {"description": "ok"}}
FILTER = {"name": "filter", "in": "query",
          "schema": {"type": "object", "additionalProperties": {"type": "string"}}}


def _doc(paths: dict[str, Any], parameters: dict[str, Any]) -> dict[str, Any]:
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths,
            "components": {"parameters": parameters, "schemas": {}}}


def _inputs(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    defs = Definitions(doc, "spec.json", True)
    drafts, _ = draft_tools(doc, defs, "")
    return {tool.name: tool.input_schema for _, tool in drafts}


def _op(oid: str, *names: str) -> dict[str, Any]:
    params: list[dict[str, Any]] = [{"$ref": "#/components/parameters/filter"}]
    params += [{"name": n, "in": "query", "schema": {"type": "string"}} for n in names]
    return {"get": {"operationId": oid, "parameters": params, "responses": OK}}


def test_an_exploded_object_shared_by_ref_avoids_each_operations_own_names() -> None:
    doc = _doc({"/a": _op("a", "alpha"), "/b": _op("b", "beta"), "/c": _op("c", "alpha")},
               {"filter": FILTER})
    inputs = _inputs(doc)
    refused = {name: schema["properties"]["filter"]["allOf"][0]["propertyNames"]["not"]["enum"]
               for name, schema in inputs.items()}
    assert refused == {"a": ["alpha"], "b": ["beta"], "c": ["alpha"]}
    # the same neighbours: the same argument, drafted once
    assert inputs["a"]["properties"]["filter"] is inputs["c"]["properties"]["filter"]


def test_a_scalar_parameter_shared_by_ref_is_drafted_once() -> None:
    shared = {"name": "per_page", "in": "query", "schema": {"type": "integer"}}
    params = [{"$ref": "#/components/parameters/per_page"}]
    doc = _doc({f"/{n}": {"get": {"operationId": n, "parameters": params, "responses": OK}}
                for n in ("a", "b")}, {"per_page": shared})
    inputs = _inputs(doc)
    assert inputs["a"] == inputs["b"]
    assert inputs["a"]["properties"]["per_page"] is inputs["b"]["properties"]["per_page"]


def test_a_broken_ref_in_a_shared_parameter_is_located_at_the_ref() -> None:
    broken = {"name": "q", "in": "query", "schema": {"$ref": "#/components/schemas/Gone"}}
    params = [{"$ref": "#/components/parameters/q"}]
    doc = _doc({"/a": {"get": {"operationId": "a", "parameters": params, "responses": OK}}},
               {"q": broken})
    with pytest.raises(ToolcatError) as caught:
        _inputs(doc)
    assert [p.location for p in caught.value.problems] == [
        "/components/parameters/q/schema/$ref"]


BIG = 2**70
SCHEMAS: list[Any] = [
    None,
    {"type": "object"},
    {"$defs": {}},
    {"$defs": {"A": {"type": "string"}}},
    {"type": "object", "$defs": {"A": {"maximum": BIG}, "B\"\u00e9\n": {"enum": ["\u2028"]}},
     "properties": {"x": {"$ref": "#/$defs/A"}}},
    {"properties": {"k\\": {"minimum": -BIG}}, "$defs": {"C": True, "D": {"$defs": {"E": {}}}}},
    {"properties": {}},
    {"properties": {}, "type": "object", "$defs": {}},
    {"type": "object", "properties": {"\u00e9\"/": True, "b": False, "c": {"enum": [BIG, None]},
                                      "d": {"items": [{"type": "string"}]}},
     "required": ["b"], "additionalProperties": False},
    {"properties": {"a": {"type": "integer"}}, "$defs": {"A": {"properties": {}}},
     "title": "\u2028"},
]


@pytest.mark.parametrize("schema", SCHEMAS, ids=range(len(SCHEMAS)))
def test_the_budget_counts_each_schema_as_its_compact_bytes(schema: Any) -> None:
    budget = Budget("spec.json", 1)
    assert budget.size(schema) == len(dumps(schema, indent=False)), dumps(schema, indent=False)
    assert budget.size(schema) == len(dumps(schema, indent=False))   # entries remembered


def _eager(wanted: list[Wanted]) -> list[str] | tuple[int, int]:
    """The settling loop with every ladder built first (as before issue 25)."""
    ladders = [_ladder(w) for w in wanted]
    rung = [0] * len(wanted)
    while True:
        holders: dict[str, list[int]] = {}
        for i, ladder in enumerate(ladders):
            holders.setdefault(ladder[rung[i]], []).append(i)
        contested = [group for group in holders.values() if len(group) > 1]
        if not contested:
            return [ladders[i][rung[i]] for i in range(len(wanted))]
        for group in contested:
            winner = min(group, key=lambda i: _claim(wanted[i], rung[i]))
            if rung[winner] == 0 and _claim(wanted[winner], 0)[2]:
                winner = -1
            for i in group:
                if i == winner:
                    continue
                if rung[i] + 1 >= len(ladders[i]):
                    return winner, i
                rung[i] += 1


def test_argument_names_match_the_full_ladders() -> None:
    """Built lazily, the ladders settle every collision as the full ladders do."""
    rng = random.Random(25)
    wires = ["a", "a!", "a*", "a_not", "a_star", "query_a", "b<", "b_lt", "b", "x" * 70,
             "x" * 69 + "!"]
    for _ in range(400):
        wanted = [Wanted(argument_name(w), rng.choice(LOCATIONS[:4]), w)
                  for w in rng.sample(wires, rng.randint(1, 6))]
        wanted += [Wanted("body", "body", None)] * rng.randint(0, 1)
        assert assign(wanted) == _eager(wanted), wanted


def _checked_problems(parameter_schema: dict[str, Any]) -> list[tuple[str, str]]:
    """check_schemas' problems for two tools sharing one ``$ref``'d query parameter
    (the same emitted schema object in both), and a third tool without it."""
    params = [{"$ref": "#/components/parameters/q"}]
    doc = _doc({f"/{n}": {"get": {"operationId": n, "parameters": params, "responses": OK}}
                for n in ("a", "b")} | {"/c": {"get": {"operationId": "c", "responses": OK}}},
               {"q": {"name": "q", "in": "query", "schema": parameter_schema}})
    defs = Definitions(doc, "spec.json", True)
    drafts, _ = draft_tools(doc, defs, "")
    tools = [tool for _, tool in drafts]
    assert tools[0].input_schema["properties"]["q"] is tools[1].input_schema["properties"]["q"]
    with pytest.raises(ToolcatError) as caught:
        check_schemas(tools, "spec.json", defs)
    return [(p.location, p.message.split(":")[0]) for p in caught.value.problems]


def test_a_shared_argument_that_fails_the_meta_schema_is_reported_for_every_tool() -> None:
    """A top-level property found valid once is not checked again; one found invalid is
    reported for each tool that carries it, where the document says it."""
    assert _checked_problems({"type": "integer", "minimum": "1"}) == [
        ("/components/parameters/q/schema/minimum", "tool 'a'"),
        ("/components/parameters/q/schema/minimum", "tool 'b'")]


def test_a_shared_argument_with_a_bad_pattern_is_reported_for_every_tool() -> None:
    assert _checked_problems({"type": "string", "pattern": "(?P<x>a)"}) == [
        ("/components/parameters/q/schema/pattern", "tool 'a'"),
        ("/components/parameters/q/schema/pattern", "tool 'b'")]


def test_shared_arguments_are_checked_once() -> None:
    """GitHub's tools share 582 parameters' schemas and their roots' members: the
    meta-schema and the pattern walk see each once."""
    shared = {"type": "string", "pattern": "^[a-z]+$"}
    params = [{"$ref": "#/components/parameters/q"}]
    doc = _doc({f"/{n}": {"get": {"operationId": n, "parameters": params, "responses": OK}}
                for n in ("a", "b", "c")}, {"q": {"name": "q", "in": "query", "schema": shared}})
    defs = Definitions(doc, "spec.json", True)
    tools = [tool for _, tool in draft_tools(doc, defs, "")[0]]
    seen: list[Any] = []
    real = schema_check._compiles_all

    def walked(root: Any, depth: int = 0) -> bool:
        seen.append(root)
        return real(root, depth)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(schema_check, "_compiles_all", walked)
        check_schemas(tools, "spec.json", defs)
    argument = tools[0].input_schema["properties"]["q"]
    assert sum(node is argument for node in seen) == 1


def test_the_documents_servers_and_security_are_drafted_once() -> None:
    """Every tool without its own ``servers``/``security`` carries the document's, worked
    out once (the same values); a tool with its own keeps them; a broken server list
    leaves out (warn mode) every tool that uses it."""
    doc = _doc({f"/{n}": {"get": {"operationId": n, "responses": OK}} for n in ("a", "b")},
               {})
    doc["servers"] = [{"url": "https://api.example.com/{v}", "variables": {
        "v": {"default": 1}}}]
    doc["security"] = [{"key": []}]
    doc["components"]["securitySchemes"] = {"key": {"type": "apiKey", "in": "header",
                                                    "name": "X-Key"}}
    doc["paths"]["/c"] = {"servers": [{"url": "/c"}], "get": {
        "operationId": "c", "security": [], "responses": OK}}
    defs = Definitions(doc, "spec.json", True)
    a, b, c = (tool.binding for _, tool in draft_tools(doc, defs, "")[0])
    assert a.servers == ({"url": "https://api.example.com/{v}",
                          "variables": {"v": {"default": "1"}}},)
    assert a.servers is b.servers
    assert a.security is b.security
    assert a.security == (({"id": "key", "type": "apiKey", "in": "header", "name": "X-Key"},),)
    assert (c.servers, c.security) == (({"url": "/c"},), ())
    doc["paths"]["/d"] = {"get": {"operationId": "d", "security": [{"key": []}],
                                  "responses": OK}}
    *_, d = (tool.binding for _, tool in draft_tools(doc, defs, "")[0])
    assert d.security == a.security   # its own list: the scheme worked out once
    assert d.security[0][0] is a.security[0][0]
    doc["servers"] = [{"url": 5}]
    drafts, left_out = draft_tools(doc, Definitions(doc, "spec.json", True), "",
                                   leave_out=True)
    assert [tool.name for _, tool in drafts] == ["c"]
    assert [s.exclusion.reason for s in left_out] == [
        "validation: warn: left out, /servers/0: a server needs a 'url' string"] * 3


@pytest.mark.parametrize("maximum", [10, 2**70], ids=["int", "past-64-bits"])
def test_a_bad_pattern_in_a_shared_definition_is_found_once(maximum: int) -> None:
    """Serialised to tell a schema without patterns (most) from one to walk; one that
    cannot be serialised so (an integer past 64 bits) is walked."""
    thing = {"type": "object", "properties": {"n": {"type": "integer", "maximum": maximum},
                                              "p": {"type": "string", "pattern": "(?P<x>a)"}}}
    body = {"content": {"application/json": {"schema": {
        "type": "array", "items": {"$ref": "#/components/schemas/Thing"}}}}}
    doc = _doc({f"/{n}": {"post": {"operationId": n, "requestBody": body, "responses": OK}}
                for n in ("a", "b")}, {})
    doc["components"]["schemas"] = {"Thing": thing}
    defs = Definitions(doc, "spec.json", True)
    tools = [tool for _, tool in draft_tools(doc, defs, "")[0]]
    with pytest.raises(ToolcatError) as caught:
        check_schemas(tools, "spec.json", defs)
    assert [p.location for p in caught.value.problems] == [
        "/components/schemas/Thing/properties/p/pattern"]
