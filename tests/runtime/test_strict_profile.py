"""The `openai-strict` schema profile (issue 23 item 5): every inputSchema shown as OpenAI's
strict mode accepts it, through a reversible mapping of arguments (runtime/strict.py).

Proven with drawn instances: for every `x` the exact schema accepts, `encode(x)` passes the
profile schema and `decode(encode(x)) == x` (compared as JSON text, so 1, 1.0 and true stay
apart); every profile passes `strict_problems`, whose rules are each shown red by a mutation;
and a served call with encoded arguments sends the very request the exact call sends.
"""

from __future__ import annotations

import json
import os
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from helpers.draw import draw_arguments
from helpers.fixtures import real_catalog
from helpers.paths import EXAMPLE_OUTPUT
from helpers.stub_api import StubApi
from hypothesis.errors import Unsatisfiable
from jsonschema import Draft202012Validator, SchemaError
from mcp import Client
from toolcat.cli import cli
from toolcat.runtime.embed import build_server, open_catalog
from toolcat.runtime.strict import (
    ARGUMENTS,
    MAX_ENUM_VALUES,
    RULES,
    Codec,
    StrictView,
    UndecodableArguments,
    compile_schema,
    decode,
    encode,
    strict_problems,
)

EVERY_KIND: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["id", "node"],
    "properties": {
        "id": {"type": "integer", "minimum": 1},
        "node": {"$ref": "#/$defs/Node"},
        "note": {"type": "string", "maxLength": 5},                  # optional: nullable
        "limit": {"type": ["integer", "null"]},                      # optional, admits null
        "labels": {"type": "object", "additionalProperties": {"type": "string"}},   # map
        "extra": {"type": "object"},                                 # free-form: JSON text
        "anything": {},                                              # untyped: JSON text
        "mode": {"enum": ["a", "b", 1, None]},
        "fixed": {"const": "v"},
        "pick": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/Leaf"}]},   # disjoint
        "either": {"anyOf": [{"$ref": "#/$defs/Leaf"},
                             {"type": "object", "additionalProperties": False,
                              "properties": {"y": {"type": "boolean"}}}]},    # ambiguous
        "pair": {"type": "array", "prefixItems": [{"type": "integer"}]},      # tuple
        "leaves": {"type": "array", "items": {"$ref": "#/$defs/Leaf"}, "maxItems": 3},
        "both": {"allOf": [{"$ref": "#/$defs/Leaf"}]},
        "keyed": {"type": "object", "patternProperties": {"^k": {"type": "integer"}}},
        "open": {"type": "object", "required": ["_other"],               # declared + rest
                 "properties": {"_other": {"type": "integer"}, "b": {"type": "string"}}}},
    "$defs": {
        "Leaf": {"type": "object", "additionalProperties": False,
                 "properties": {"x": {"type": "number"}, "tag": {"type": ["string", "null"]}}},
        "Node": {"type": "object", "additionalProperties": False, "required": ["name"],
                 "properties": {"name": {"type": "string"},
                                "children": {"type": "array",
                                             "items": {"$ref": "#/$defs/Node"}}}}}}


def _same(left: Any, right: Any) -> bool:
    return json.dumps(left, sort_keys=True) == json.dumps(right, sort_keys=True)


def _round_trips(schema: dict[str, Any], draws: int) -> int:
    codec, broken = compile_schema(schema)
    assert broken == [], broken
    assert strict_problems(codec.schema) == []
    shown = Draft202012Validator(codec.schema)
    instances = draw_arguments(schema, draws)
    for x in instances:
        y = encode(codec, x)
        assert shown.is_valid(y), (x, y, [e.message for e in shown.iter_errors(y)][:2])
        back = decode(codec, y)
        assert _same(back, x), (x, y, back)
    return len(instances)


def test_every_kind_maps_as_documented() -> None:
    codec, _ = compile_schema(EVERY_KIND)
    props = codec.schema["properties"]
    assert codec.schema["required"] == list(props)
    assert props["note"]["anyOf"] == [{"type": "string"}, {"type": "null"}]
    boxed = props["limit"]["anyOf"][0]
    assert boxed["required"] == ["value"]
    assert boxed["additionalProperties"] is False
    assert props["labels"]["anyOf"][0]["type"] == "array"
    for name in ("extra", "anything", "either", "pair", "keyed"):   # JSON text
        assert props[name]["anyOf"][0]["type"] == "string", name
    assert props["mode"]["anyOf"][0]["properties"]["value"]["anyOf"] == [
        {"type": "string", "enum": ["a", "b"]}, {"type": "integer", "enum": [1]},
        {"type": "null"}]
    inner = props["node"]["properties"]["children"]["anyOf"][0]["items"]
    inner = inner["properties"]["children"]["anyOf"][0]["items"]
    assert inner["type"] == "string"   # the Node cycle met twice more: JSON text from there
    assert _round_trips(EVERY_KIND, 12) >= 12


def test_open_object_keeps_its_declared_properties() -> None:
    codec, _ = compile_schema(EVERY_KIND)
    shown = codec.schema["properties"]["open"]["anyOf"][0]
    assert list(shown["properties"]) == ["_other", "b", "__other"]   # rest: a free name
    assert shown["required"] == ["_other", "b", "__other"]
    base = {"id": 1, "node": {"name": "n"}}
    value = {**base, "open": {"_other": 1, "z": [True], "b": "x"}}
    said = encode(codec, value)
    assert said["open"] == {"_other": 1, "b": "x", "__other": '{"z": [true]}'}
    assert decode(codec, said) == value
    with pytest.raises(UndecodableArguments) as twice:
        decode(codec, {**base, "open": {"_other": 1, "b": "x", "__other": '{"b": "y"}'}})
    assert twice.value.problems == [
        'open: "b" given twice (listed and in the other members)']


def test_null_and_absent_stay_apart() -> None:
    codec, _ = compile_schema(EVERY_KIND)
    base = {"id": 1, "node": {"name": "n"}}
    given_null, absent = {**base, "limit": None}, dict(base)
    assert encode(codec, given_null)["limit"] == {"value": None}
    assert encode(codec, absent)["limit"] is None
    assert decode(codec, encode(codec, given_null)) == given_null
    assert decode(codec, encode(codec, absent)) == absent


def test_decode_errors_are_located() -> None:
    codec, _ = compile_schema(EVERY_KIND)
    with pytest.raises(UndecodableArguments) as bad_text:
        decode(codec, {"id": 1, "node": {"name": "n"}, "extra": "{nope"})
    assert bad_text.value.problems[0].startswith("extra: not JSON text")
    twice = [{"key": "a", "value": "1"}, {"key": "a", "value": "2"}]
    with pytest.raises(UndecodableArguments) as dup:
        decode(codec, {"id": 1, "node": {"name": "n"}, "labels": twice})
    assert dup.value.problems == ['labels[1].key: "a" given twice']


FULL = bool(os.environ.get("TOOLCAT_STRICT_FULL"))   # make strict-walk
DOCUMENTS = {"kratos": ("kratos", "api.json"), "discord": ("discord", "openapi.json"),
             "stripe": ("stripe", "spec3.yaml"), "cloudflare": ("cloudflare", "openapi.json"),
             "openai": ("openai", "openapi.yaml")}
SLICES = {"example": 1, "kratos": 1, "discord": 24}   # in the suite: every Nth tool


@pytest.mark.parametrize("source", list(SLICES) if not FULL else ["example", *DOCUMENTS])
def test_corpus_tools_round_trip(source: str) -> None:
    catalog = (open_catalog(EXAMPLE_OUTPUT) if source == "example"
               else real_catalog("corpus", *DOCUMENTS[source]))
    tools = catalog["tools"][::1 if FULL else SLICES[source]]
    drawn = 0
    for entry in tools:
        try:
            drawn += _round_trips(entry["tool"]["inputSchema"], 2)
        except (Unsatisfiable, SchemaError):
            continue    # hypothesis-jsonschema cannot draw it (Discord's guild join) or
            # reads its pattern as Python's re (Cloudflare's named groups)
    assert drawn >= len(tools)


# ---- the checker: each rule by name, red by one mutation of a valid profile ----

VALID: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["a", "b", "c"],
    "properties": {"a": {"type": "string", "format": "date", "enum": ["x"]},
                   "b": {"type": "array", "items": {"type": "integer"}},
                   "c": {"anyOf": [{"type": "object", "properties": {},
                                    "required": [], "additionalProperties": False},
                                   {"type": "null"}]}}}


def _nested(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "object", "properties": {"n": node}, "required": ["n"],
                "additionalProperties": False}
    return node


def _mutate(rule: str) -> dict[str, Any]:
    s = json.loads(json.dumps(VALID))
    p = s["properties"]
    if rule == "root-object":
        s = {"anyOf": [s]}
    elif rule == "supported-keywords":
        p["a"]["minLength"] = 1
    elif rule == "typed":
        p["a"] = {"description": "no type"}
    elif rule == "known-types":
        p["a"]["type"] = "date"
    elif rule == "formats":
        p["a"]["format"] = "uri"
    elif rule == "additional-properties-false":
        del p["c"]["anyOf"][0]["additionalProperties"]
    elif rule == "all-required":
        s["required"] = ["a", "b"]
    elif rule == "array-items":
        del p["b"]["items"]
    elif rule == "nesting":
        p["c"] = _nested(10)          # under the root: 11 object levels
    elif rule == "property-count":
        p.update({f"p{i}": {"type": "string"} for i in range(5000)})
        s["required"] = list(p)
    elif rule == "string-size":
        p["a"]["enum"] = ["x" * 120_001]
    elif rule == "enum-count":
        p["a"]["enum"] = [str(i) for i in range(MAX_ENUM_VALUES + 1)]
    elif rule == "large-enum":
        p["a"]["enum"] = [f"{i:060d}" for i in range(251)]
    return s


def test_valid_profile_passes_every_rule() -> None:
    assert strict_problems(VALID) == []
    assert strict_problems(_nested(10)) == []      # ten levels: the limit itself


@pytest.mark.parametrize("rule", RULES)
def test_each_rule_is_red_by_mutation(rule: str) -> None:
    broken = {name for name, _ in strict_problems(_mutate(rule))}
    assert rule in broken, (rule, broken)


def test_a_tool_over_a_limit_falls_back_to_json_text_with_a_warning() -> None:
    wide = {"type": "object", "additionalProperties": False,
            "properties": {"kind": {"enum": [f"k{i}" for i in range(MAX_ENUM_VALUES + 1)]}}}
    view = StrictView([{"name": "wide_tool", "inputSchema": wide}])
    assert len(view.warnings) == 1
    assert view.warnings[0].startswith("wide_tool: ")
    assert "enum-count" in view.warnings[0]
    shown = view.tool({"name": "wide_tool", "inputSchema": wide})["inputSchema"]
    assert list(shown["properties"]) == [ARGUMENTS]
    assert strict_problems(shown) == []
    assert view.decode("wide_tool", {ARGUMENTS: '{"kind": "k7"}'}) == {"kind": "k7"}


def test_build_server_passes_the_fallback_warning_on() -> None:
    catalog = json.loads(json.dumps(open_catalog(EXAMPLE_OUTPUT)))
    tool = catalog["tools"][0]["tool"]
    tool["inputSchema"]["properties"]["kind"] = {
        "enum": [f"k{i}" for i in range(MAX_ENUM_VALUES + 1)]}
    heard: list[str] = []
    build_server(catalog, schema_profile="openai-strict", warn=heard.append)
    assert len(heard) == 1
    assert heard[0].startswith(f"{tool['name']}: ")
    assert "enum-count" in heard[0]


# ---- the server: listed as the profile, called with the profile's arguments ----

def _served(catalog: dict[str, Any], api: StubApi, profile: str | None,
            calls: list[tuple[str, dict[str, Any]]]) -> tuple[Any, list[Any], list[Any]]:
    """List and call through a served catalog; what arrived at the stub API as
    (method, raw target, body)."""
    base = api.url
    async def run() -> tuple[Any, list[Any]]:
        server = build_server(catalog, base_url=base, schema_profile=profile)
        async with Client(server, mode="legacy") as client:
            listed = await client.list_tools()
            results = [(await client.call_tool(n, a)).model_dump(mode="json", by_alias=True)
                       for n, a in calls]
        return listed, results

    start = len(api.seen)
    listed, results = anyio.run(run)
    return listed, results, [(a.method, a.target, a.body) for a in api.seen[start:]]


def test_served_calls_send_the_exact_requests() -> None:
    catalog = open_catalog(EXAMPLE_OUTPUT)
    codecs: dict[str, Codec] = {}
    exact: list[tuple[str, dict[str, Any]]] = []
    for entry in catalog["tools"]:
        name, schema = entry["tool"]["name"], entry["tool"]["inputSchema"]
        codecs[name] = compile_schema(schema)[0]
        exact += [(name, x) for x in draw_arguments(schema, 2)]
    profiled = [(name, encode(codecs[name], x)) for name, x in exact]
    with StubApi() as api:
        _, direct, sent = _served(catalog, api, None, exact)
        listed, through, sent_through = _served(catalog, api, "openai-strict", profiled)
    assert {t.name: t.input_schema for t in listed.tools} == {
        n: c.schema for n, c in codecs.items()}
    assert len(sent) == len(exact)
    assert sent_through == sent
    assert through == direct


def test_served_decode_error_sends_nothing() -> None:
    catalog = open_catalog(EXAMPLE_OUTPUT)
    codec = compile_schema(next(e["tool"]["inputSchema"] for e in catalog["tools"]
                                if e["tool"]["name"] == "broadcast_create_schedule"))[0]
    arguments = encode(codec, {"name": "s"})
    arguments["blocks"] = [{"name": "b", "durationMinutes": 1, "children": None,
                            "_other": "{not json"}]   # an open object's other members
    with StubApi() as api:
        _, results, sent = _served(catalog, api, "openai-strict",
                                   [("broadcast_create_schedule", arguments)])
    assert sent == []
    assert results[0]["isError"] is True
    text = results[0]["content"][0]["text"]
    assert text.startswith("Invalid arguments; nothing was sent to the API:")
    assert 'blocks[0]["_other"]: not JSON text' in text


def test_cli_refuses_strict_profile_in_discovery_mode() -> None:
    result = CliRunner().invoke(cli, ["serve", "--schema-profile", "openai-strict",
                                       "--mode", "discover"])
    assert result.exit_code == 2
    assert "drop --mode discover" in result.output
