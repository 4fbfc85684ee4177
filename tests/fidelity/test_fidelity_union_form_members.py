"""A form-urlencoded body carried whole (a union) writes each member as a field and a
list as one ``name=item`` per item: a list item cannot be an object or a list.

Lichess' ``broadcast_round_create``/``_update`` body is a oneOf whose "send games via
push" branch declares only ``name`` and is open to other names, so ``syncUrl`` (a string
in another branch) could be anything there, and was drawn as a list of objects, which no
form rule writes (3 "unserialisable" serve-oracle calls). The inputSchema now says so:
``additionalProperties: {items: {not: {type: [object, array]}}}`` beside the union. An
object member stays (it travels as its JSON text), and multipart bodies are untouched (a
list item there is a part of its own, an object a JSON part).
"""

from __future__ import annotations

from typing import Any

from helpers.fixtures import generate, tool, write_spec
from oracle.sample import Tally, arguments_for
from oracle.wire import build

NAME = {"type": "string", "maxLength": 5}
UNION = {"oneOf": [
    {"type": "object", "required": ["name"], "properties": {"name": NAME}},
    {"type": "object", "required": ["name", "syncUrl"],
     "properties": {"name": NAME, "syncUrl": {"type": "string", "format": "uri"}}}]}


def _spec(media: str) -> dict[str, Any]:
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "servers": [{"url": "https://example.invalid"}],
            "paths": {"/rounds": {"post": {
                "operationId": "createRound",
                "requestBody": {"required": True, "content": {media: {"schema": UNION}}},
                "responses": {"200": {"description": "ok"}}}}}}


RULE = {"additionalProperties": {"items": {"not": {"type": ["object", "array"]}}}}


def test_union_form_members_hold_no_nested_list(tmp_path: Any) -> None:
    spec = write_spec(tmp_path, _spec("application/x-www-form-urlencoded"), "spec.json")
    entry = tool(generate(spec), "create_round")
    body = entry["tool"]["inputSchema"]["properties"]["body"]
    assert RULE in body["allOf"], body
    # Oracle figure: seed 1 draws 9 such calls of 27 without the rule, none with it.
    drawn = arguments_for(entry, 30, 1, Tally())
    assert len(drawn) >= 20
    marked = [why for why in (build(entry, a, "").get("unserialisable") for a in drawn) if why]
    assert marked == []


def test_multipart_union_is_untouched(tmp_path: Any) -> None:
    spec = write_spec(tmp_path / "m", _spec("multipart/form-data"), "spec.json")
    body = tool(generate(spec), "create_round")["tool"]["inputSchema"]["properties"]["body"]
    assert RULE not in body.get("allOf", []), body
