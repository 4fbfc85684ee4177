"""Toolsets and budgets (issue 23): named selections of a catalog's tools in the config,
recorded in catalog.json and CATALOG.md with their size, served alone with
`toolcat serve --toolset NAME`; `max_tools` / `max_tokens` of a catalog or a toolset held
by generate and check with an error at the config line naming the largest tools."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
from helpers.fixtures import write_spec
from helpers.inprocess import RunCli
from mcp import Client
from toolcat.render.size import list_size
from toolcat.runtime.embed import build_server, open_catalog


def _op(op_id: str, tag: str, **extra: Any) -> dict[str, Any]:
    return {"operationId": op_id, "tags": [tag], "summary": op_id,
            "responses": {"200": {"description": "ok", "content": {"application/json": {
                "schema": {"type": "object", "properties": {
                    "id": {"type": "integer"}, "name": {"type": "string"}}}}}}}, **extra}


SPEC = {"openapi": "3.1.0", "info": {"title": "shop", "version": "1"},
        "servers": [{"url": "http://127.0.0.1:9/api"}],
        "paths": {"/pets": {"get": _op("listPets", "pets"), "post": _op("addPet", "pets")},
                  "/stores": {"get": _op("listStores", "stores")},
                  "/stores/{id}": {"delete": _op("deleteStore", "stores", parameters=[
                      {"name": "id", "in": "path", "required": True,
                       "schema": {"type": "integer"}}])}}}


def _project(tmp_path: Path, extra: str) -> Path:
    write_spec(tmp_path, SPEC, "shop.json")
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalogs:\n  shop:\n    spec: shop.json\n    output: out\n" + extra)
    return config


TOOLSETS = """    toolsets:
      pets:
        include: {tags: [pets]}
      readers:
        include: {methods: [GET]}
        exclude: {operations: [listStores]}
"""


def test_toolsets_recorded_listed_and_served(tmp_path: Path, toolcat: RunCli) -> None:
    config = _project(tmp_path, TOOLSETS)
    assert toolcat("generate", "--config", config).returncode == 0
    catalog = open_catalog(tmp_path / "out")
    assert catalog["toolsets"] == {"pets": ["add_pet", "list_pets"], "readers": ["list_pets"]}
    tools = {e["tool"]["name"]: e["tool"] for e in catalog["tools"]}
    summary = (tmp_path / "out" / "CATALOG.md").read_text()
    pets = list_size([tools["add_pet"], tools["list_pets"]])
    assert f"| `pets` | 2 | {pets.total:,} | {pets.tokens:,} |" in summary
    assert "| `readers` | 1 |" in summary
    assert toolcat("check", "--config", config).returncode == 0

    async def listed(toolset: str, mode: str) -> list[str]:
        async with Client(build_server(catalog, toolset=toolset, mode=mode),
                          mode="legacy") as client:
            if mode == "tools":
                return [t.name for t in (await client.list_tools()).tools]
            found = await client.call_tool("search_tools", {"query": "store pet"})
            return [t["name"] for t in found.structured_content["tools"]]

    assert anyio.run(listed, "pets", "tools") == ["add_pet", "list_pets"]
    assert anyio.run(listed, "readers", "discover") == ["list_pets"]
    unknown = toolcat("serve", "shop", "--config", config, "--toolset", "writers")
    assert unknown.returncode == 2
    assert "no toolset named 'writers'" in unknown.stderr
    assert "pets, readers" in unknown.stderr


def test_stale_toolset_selector_is_located(tmp_path: Path, toolcat: RunCli) -> None:
    config = _project(tmp_path, "    toolsets:\n      cats:\n        include: {tags: [cats]}\n")
    run = toolcat("generate", "--config", config)
    assert run.returncode == 2
    assert f"{config}" in run.stderr
    assert "line 7" in run.stderr
    assert "include.tags 'cats' matches no operation" in run.stderr


def test_budgets_held_by_generate_and_check(tmp_path: Path, toolcat: RunCli) -> None:
    config = _project(tmp_path, TOOLSETS)
    assert toolcat("generate", "--config", config).returncode == 0
    # Over the catalog's budget: check (output fresh, config tightened) and generate refuse.
    config.write_text(config.read_text() + "    max_tools: 3\n")
    for command in ("check", "generate"):
        run = toolcat(command, "--config", config)
        assert run.returncode == 2, (command, run.stdout)
        assert "line 11" in run.stderr, run.stderr
        assert "catalog shop is over its budget: 4 tools, more than max_tools 3" in run.stderr
        assert "Largest tools: " in run.stderr
    # A toolset's token budget: its own line, its largest tool named.
    tools = json.loads((tmp_path / "out" / "catalog.json").read_text())["tools"]
    pets = list_size([e["tool"] for e in tools if e["tool"]["name"] in ("add_pet",
                                                                         "list_pets")])
    text = TOOLSETS.replace("tags: [pets]}\n", "tags: [pets]}\n        max_tokens: "
                            f"{pets.tokens - 1}\n")
    config.write_text("catalogs:\n  shop:\n    spec: shop.json\n    output: out\n" + text)
    run = toolcat("check", "--config", config)
    assert run.returncode == 2
    assert "line 8" in run.stderr
    assert f"toolset pets of shop is over its budget: about {pets.tokens:,} tokens" in run.stderr
    assert pets.largest[0].name in run.stderr.split("Largest tools: ")[1]
    config.write_text(config.read_text().replace(f"{pets.tokens - 1}", f"{pets.tokens}"))
    assert toolcat("check", "--config", config).returncode == 0
