"""Mutation proof for the corpus check: break a binding the way a generator bug would, and
the oracle must reject the runtime's requests, naming the tool and the argument."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from helpers.fixtures import real_catalog
from helpers.paths import SHARED
from helpers.runtime_oracle import judge_runtime

DOC = "corpus/oai-examples/v2.0/yaml/petstore-separate/spec/swagger.yaml"


def _tool(catalog: dict[str, Any], name: str) -> dict[str, Any]:
    return next(e for e in catalog["tools"] if e["tool"]["name"] == name)


def _move_limit_to_header(catalog: dict[str, Any]) -> None:
    _tool(catalog, "find_pets")["binding"]["arguments"]["limit"]["in"] = "header"


def _rename_tags(catalog: dict[str, Any]) -> None:
    _tool(catalog, "find_pets")["binding"]["arguments"]["tags"]["name"] = "tag"


def _drop_base_path(catalog: dict[str, Any]) -> None:
    for entry in catalog["tools"]:
        entry["binding"]["servers"] = [{"url": "http://petstore.swagger.io"}]


@pytest.mark.parametrize(("mutate", "tool", "phrase"), [
    (_move_limit_to_header, "find_pets", "undeclared header 'limit'"),
    (_rename_tags, "find_pets", "undeclared query parameter 'tag'"),
    (_drop_base_path, "find_pet_by_id", "under any server base path ['/api']"),
])
def test_broken_binding_is_caught(mutate: Any, tool: str, phrase: str) -> None:
    catalog = copy.deepcopy(real_catalog(*DOC.split("/")))
    mutate(catalog)
    tally = judge_runtime(SHARED / DOC, catalog, count=2)
    named = [v["errors"] for t, _, v in tally.failures if t == tool]
    assert named, f"no request of {tool} was rejected"
    assert any(phrase in e for errors in named for e in errors), named
