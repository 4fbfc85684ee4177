"""The oracle's sampler draws from schemas too large to inline whole.

Kubernetes' create/replace tools for pods, deployments, jobs and the like (31 tools)
inline the container schema in a dozen places; unrolled, the inputSchema passed the
sampler's size limit and the tools were counted "undrawable", never judged. The sampler
now leaves optional properties out below a nesting level, deepest first, until the
schema fits: a subset of the instances, every required part still drawn.
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from oracle.sample import draw, unroll

LEAF = {"type": "object", "required": ["name"], "properties": {
    "name": {"type": "string", "minLength": 1, "maxLength": 3},
    **{f"opt{i}": {"type": "string", "description": "x" * 200} for i in range(20)}}}
SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["spec"],
    "properties": {"spec": {"$ref": "#/$defs/Spec"}, "note": {"$ref": "#/$defs/Leaf"}},
    "$defs": {
        "Leaf": LEAF,
        "Spec": {"type": "object", "required": ["main"], "properties": {
            "main": {"$ref": "#/$defs/Leaf"},
            **{f"side{i}": {"$ref": "#/$defs/Leaf"} for i in range(10)}}},
    },
}


def test_too_large_is_pruned_to_fit_keeping_what_is_required() -> None:
    whole = len(json.dumps(unroll(SCHEMA)))
    small = unroll(SCHEMA, max_size=whole // 4)
    assert len(json.dumps(small)) <= whole // 4
    spec = small["properties"]["spec"]
    main = spec["properties"]["main"]["properties"]
    assert main["name"] == LEAF["properties"]["name"]   # required: kept
    assert main["opt0"] is False                         # optional, deepest: left out
    assert spec["properties"]["side0"] is not False      # higher up: kept, as it fits
    validator = jsonschema.Draft202012Validator(SCHEMA)
    values = draw(SCHEMA, 5, 11, max_size=whole // 4)
    assert values
    for value in values:
        validator.validate(value)
        assert value["spec"]["main"]["name"]


def test_what_cannot_fit_is_still_refused() -> None:
    with pytest.raises(ValueError, match="too large"):
        unroll(SCHEMA, max_size=100)
