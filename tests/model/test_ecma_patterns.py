"""Schema patterns are ECMA-262 regular expressions, compiled as such everywhere (issue 21
item 6).

Cloudflare's ``api_shield_settings_set_configuration_properties`` carries
``^(?<token_config_id>[a-z0-9\\-]{32,36}):\\$(?<json_path>.*?)$`` (a named group in ECMA
syntax): validating a call raised ``re.error`` and the stdio server died. serve, verify and
the generate-time check compile patterns with regress (an ECMA-262 engine,
``vocab/ecma.py``); a pattern no engine compiles is a located error at generate time.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers.fixtures import generate, real_catalog, tool, write_spec
from helpers.stub_api import StubApi
from mcp import Client
from toolcat.errors import ToolcatError
from toolcat.runtime.embed import build_server
from toolcat.verify.instances import invalid
from toolcat.vocab.ecma import EcmaPatternError, ECMAValidator, compile_pattern, search

CLOUDFLARE = ("corpus", "cloudflare", "openapi.json")
NAMED = r"^(?<token_config_id>[a-z0-9\-]{32,36}):\$(?<json_path>.*?)$"
CONFIG_ID = "e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5"


def test_the_cloudflare_tool_is_called_and_its_pattern_judged() -> None:
    catalog = real_catalog(*CLOUDFLARE)
    name = "api_shield_settings_set_configuration_properties"
    assert json.dumps(NAMED) in json.dumps(tool(catalog, name)["tool"]["inputSchema"])
    # Only the inputSchema is judged here: the stub's `{}` answer is not a Cloudflare body.
    entry = tool(catalog, name)
    catalog = {**catalog, "tools": [{**entry, "tool": {
        k: v for k, v in entry["tool"].items() if k != "outputSchema"}}]}

    def claim(text: str) -> dict[str, Any]:
        return {"zone_id": "z1", "auth_id_characteristics": [{"type": "jwt", "name": text}]}

    async def run(base: str) -> list[Any]:
        async with Client(build_server(catalog, base_url=base), mode="legacy") as client:
            return [await client.call_tool(name, claim(f"{CONFIG_ID}:$.foo.bar[0]")),
                    await client.call_tool(name, claim("not-a-claim")),
                    await client.call_tool(name, claim(f"{CONFIG_ID}:$.x\n"))]

    with StubApi() as api:
        good, bad, newline = anyio.run(run, f"{api.url}/api")
    assert not good.is_error, good.content
    assert bad.is_error
    assert "auth_id_characteristics" in bad.content[0].text
    assert "nothing was sent" in bad.content[0].text
    # ECMA: `.` stops at \n and `$` is the end of input (Python's `$` matches before it)
    assert newline.is_error
    # the server URL keeps its path (/client/v4); --base-url swaps scheme and host
    assert [a.target for a in api.seen] == ["/client/v4/zones/z1/api_gateway/configuration"]


@pytest.mark.parametrize(("pattern", "text", "matches"), [
    (NAMED, f"{CONFIG_ID}:$.a", True),
    (r"^\d+$", "123", True),
    (r"^\d+$", "١٢٣", False),          # ECMA \d is ASCII; Python's is Unicode
    (r"^\w+$", "é", False),             # so is \w
    (r"^a$", "a\n", False),             # ECMA $ is the end of input, not before a final \n
    (r"^[a-zA-Z0-9_\-\:]+$", "a:b", True),   # Annex B identity escape (not valid with u)
    (r"^(?<y>\d{4})-\k<y>$", "2024-2024", True),
    (r"^\p{Lu}", "Ärger", True),       # Unicode property escapes (u mode)
])
def test_ecma_semantics(pattern: str, text: str, matches: bool) -> None:
    assert search(pattern, text) is matches
    schema = {"type": "string", "pattern": pattern}
    assert (not list(ECMAValidator(schema).iter_errors(text))) is matches
    assert (invalid(schema, text) == []) is matches   # verify's judge


def test_every_keyword_that_matches_patterns_uses_the_engine() -> None:
    schema = {"type": "object", "patternProperties": {"^(?<k>x)": {"type": "integer"}},
              "additionalProperties": False,
              "properties": {"u": {"unevaluatedProperties": False,
                                   "patternProperties": {"^(?<k>y)": True}},
                             "f": {"type": "string", "format": "regex"}}}
    validator = ECMAValidator(schema, format_checker=ECMAValidator.FORMAT_CHECKER)
    assert not list(validator.iter_errors({"x1": 1, "u": {"y": 1}, "f": "(?<n>a)"}))
    messages = sorted(e.message for e in validator.iter_errors(
        {"x1": "s", "z": 1, "u": {"w": 1}, "f": "(?P<n>a)"}))
    assert messages == ["'(?P<n>a)' is not a 'regex'", "'s' is not of type 'integer'",
                        "'z' does not match any of the regexes: '^(?<k>x)'",
                        "Unevaluated properties are not allowed ('w' was unexpected)"]


def test_a_lone_surrogate_is_judged_not_raised() -> None:
    assert search("a", "\udc00a")
    assert not list(ECMAValidator({"pattern": "^.a$"}).iter_errors("\udc00a"))


@pytest.mark.parametrize(("where", "pointer"), [
    ({"type": "string", "pattern": "(?P<x>a)"}, "/components/schemas/Thing/properties/p/pattern"),
    ({"type": "object", "patternProperties": {"[z-a]": {}}},
     "/components/schemas/Thing/properties/p/patternProperties/[z-a]"),
])
def test_a_pattern_no_engine_compiles_is_a_located_error(tmp_path: Path, where: Any,
                                                        pointer: str) -> None:
    spec = {"openapi": "3.1.0", "info": {"title": "p", "version": "1"}, "paths": {"/t": {
        "post": {"operationId": "make", "requestBody": {"content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Thing"}}}},
            "responses": {"204": {"description": "done"}}}}},
        "components": {"schemas": {"Thing": {"type": "object", "properties": {"p": where}}}}}
    # warn mode: the OpenAPI validator's own verdict aside, generation checks patterns
    with pytest.raises(ToolcatError) as caught:
        generate(write_spec(tmp_path, spec, "spec.json"), validate=False)
    [problem] = caught.value.problems
    assert problem.file.endswith("spec.json")
    assert problem.location == pointer
    assert "not an ECMA-262 regular expression" in problem.message


# Every pattern of every emitted schema compiles. The default suite takes the documents
# with patterns whose catalogs other tests build too; TOOLCAT_PATTERNS_FULL=1 (make
# patterns-full) takes the whole corpus.
SLICE = ["corpus/cloudflare/openapi.json", "corpus/github/api.github.com.json",
         "corpus/kratos/api.json", "corpus/discord/openapi.json"]
FULL = os.environ.get("TOOLCAT_PATTERNS_FULL") == "1"


def _patterns(node: Any, out: list[str]) -> list[str]:
    """Every ``pattern`` value and ``patternProperties`` key under a JSON value (names
    that are property names are harmless extras: they are compiled too)."""
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            out.append(node["pattern"])
        if isinstance(node.get("patternProperties"), dict):
            out.extend(node["patternProperties"])
        for value in node.values():
            _patterns(value, out)
    elif isinstance(node, list):
        for value in node:
            _patterns(value, out)
    return out


def _documents() -> list[str]:
    if not FULL:
        return SLICE
    from corpus.docs import BROKEN, DOCUMENTS
    return [d for d in DOCUMENTS if d not in BROKEN]


@pytest.mark.parametrize("doc", _documents())
def test_every_emitted_pattern_compiles(doc: str) -> None:
    catalog = real_catalog(*doc.split("/"))
    schemas = [s for e in catalog["tools"] for s in (e["tool"]["inputSchema"],
                                                      e["tool"].get("outputSchema"))]
    found = set(_patterns(schemas, []))
    failures = []
    for pattern in sorted(found):
        try:
            compile_pattern(pattern)
        except EcmaPatternError as exc:
            failures.append((pattern, str(exc)))
    assert failures == []
    if doc in SLICE:   # not vacuous: the slice is chosen for its patterns
        assert found, f"{doc}: no pattern at all"
