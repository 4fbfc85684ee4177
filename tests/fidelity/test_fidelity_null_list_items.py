"""A list parameter whose items may be null (Discord's `sku_ids`, `include_roles`): `[null]`
has no serialisation (it becomes `sku_ids=`, which the API refuses), so the inputSchema
refuses null items, and empty string items where empty values are refused. The rule binds
only lists: a string value of the same parameter is unaffected."""

from __future__ import annotations

from pathlib import Path

from helpers.fixtures import generate, operation, write_spec
from jsonschema import Draft202012Validator


def _schema(tmp_path: Path, location: str) -> dict:
    param = {"name": "ids", "in": location, "required": False,
             "schema": {"oneOf": [{"type": "string"},
                                  {"type": "array", "items": {"type": ["string", "null"]}}]}}
    spec = write_spec(tmp_path, operation("/things", "get", parameters=[param]))
    tool = generate(spec)["tools"][0]["tool"]
    return tool["inputSchema"]


def test_null_and_empty_items_are_refused_in_a_query_list(tmp_path: Path) -> None:
    validator = Draft202012Validator(_schema(tmp_path, "query"))
    assert not validator.is_valid({"ids": [None]}), "null item admitted"
    assert not validator.is_valid({"ids": ["a", ""]}), "empty item admitted"
    assert validator.is_valid({"ids": ["a", "b"]})
    assert validator.is_valid({"ids": "a"}), "the string form must stay valid"


def test_null_items_are_refused_in_a_header_list(tmp_path: Path) -> None:
    validator = Draft202012Validator(_schema(tmp_path, "header"))
    assert not validator.is_valid({"ids": [None]}), "null item admitted"
    assert validator.is_valid({"ids": ["a"]})
