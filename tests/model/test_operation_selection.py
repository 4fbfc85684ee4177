"""Selecting operations per catalog: ``include:`` / ``exclude:`` by tags, paths, methods
and operationIds.

Every operation left out is listed in ``catalog.exclusions`` with the rule that
left it out; a selector value that matches nothing is an error naming it and its
line (a spec change must not turn a selector into a silent no-op); the folder's
record carries the selection, so changing it makes ``check`` regenerate.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.generate import run_cli
from toolcat.config import load_config
from toolcat.errors import ToolcatError
from toolcat.pipeline import build_catalog

OPS = [  # (method, path, operationId, tags)
    ("get", "/media/items", "listMediaItems", ["media"]),
    ("post", "/media/items", "createMediaItem", ["media"]),
    ("delete", "/media/items/{id}", "deleteMediaItem", ["media"]),
    ("get", "/net/status", "getNetStatus", ["net"]),
    ("get", "/admin/users", "listAdminUsers", ["admin"]),
    ("get", "/health", "getHealth", []),
]
ALL = {f"{m.upper()} {p}" for m, p, _, _ in OPS}


def _project(tmp_path: Path, selection: str, overrides: str | None = None) -> Path:
    paths: dict[str, dict[str, object]] = {}
    for method, path, oid, tags in OPS:
        op: dict[str, object] = {"operationId": oid, "tags": tags,
                                 "responses": {"200": {"description": "ok"}}}
        if "{id}" in path:
            op["parameters"] = [{"name": "id", "in": "path", "required": True,
                                 "schema": {"type": "string"}}]
        paths.setdefault(path, {})[method] = op
    (tmp_path / "api.json").write_text(json.dumps({
        "openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": paths}))
    config = tmp_path / "toolcat.yaml"
    extra = "    overrides: overrides.yaml\n" if overrides is not None else ""
    config.write_text("catalogs:\n  demo:\n    spec: api.json\n    output: out\n" + extra
                      + "".join(f"    {line}\n" for line in selection.splitlines()))
    if overrides is not None:
        (tmp_path / "overrides.yaml").write_text(overrides)
    return config


def _catalog(tmp_path: Path, selection: str) -> tuple[set[str], dict[str, str]]:
    target = load_config(_project(tmp_path, selection))[0]
    catalog = build_catalog(target)
    tools = {f"{t.binding.method} {t.binding.path}" for t in catalog.tools}
    excluded = {e.operation: e.reason for e in catalog.exclusions}
    assert tools | set(excluded) == ALL, "an operation is neither a tool nor an exclusion"
    assert not tools & set(excluded)
    return tools, excluded


@pytest.mark.parametrize(("selection", "tools"), [
    ("include: {tags: [media, net]}", {"GET /media/items", "POST /media/items",
                                       "DELETE /media/items/{id}", "GET /net/status"}),
    ("include: {paths: ['/media/*']}", {"GET /media/items", "POST /media/items",
                                        "DELETE /media/items/{id}"}),
    ("include: {methods: [get]}", {"GET /media/items", "GET /net/status",
                                   "GET /admin/users", "GET /health"}),
    ("include: {operations: ['list*']}", {"GET /media/items", "GET /admin/users"}),
    ("exclude: {tags: [admin]}", ALL - {"GET /admin/users"}),
    ("exclude: {paths: ['/health']}", ALL - {"GET /health"}),
    ("exclude: {methods: [DELETE, POST]}", ALL - {"POST /media/items",
                                                  "DELETE /media/items/{id}"}),
    ("exclude: {operations: ['*Admin*', getHealth]}", ALL - {"GET /admin/users",
                                                            "GET /health"}),
])
def test_each_selector_kind(tmp_path: Path, selection: str, tools: set[str]) -> None:
    assert _catalog(tmp_path, selection)[0] == tools


def test_combination_and_rules_listed(tmp_path: Path) -> None:
    # Kinds in one selector must all match (tags AND methods); exclude then removes.
    tools, excluded = _catalog(tmp_path, "include: {tags: [media, net], methods: [GET, POST]}\n"
                                         "exclude: {operations: ['create*']}")
    assert tools == {"GET /media/items", "GET /net/status"}
    include_rule = "selection: not matched by include {tags: [media, net], methods: [GET, POST]}"
    assert excluded == {
        "POST /media/items": "selection: matched by exclude {operations: [create*]}",
        "DELETE /media/items/{id}": include_rule,
        "GET /admin/users": include_rule,
        "GET /health": include_rule,
    }


@pytest.mark.parametrize(("selection", "named", "line"), [
    ("include: {tags: [media, video]}", "include.tags 'video'", 5),
    ("exclude:\n  paths:\n    - '/media/*'\n    - '/gone/*'", "exclude.paths '/gone/*'", 8),
    ("include: {operations: [listMedia]}", "include.operations 'listMedia'", 5),
    ("exclude: {methods: [PATCH]}", "exclude.methods 'PATCH'", 5),
])
def test_stale_selector_is_an_error_naming_it(tmp_path: Path, selection: str, named: str,
                                              line: int) -> None:
    with pytest.raises(ToolcatError) as err:
        _catalog(tmp_path, selection)
    (problem,) = err.value.problems
    assert problem.message == f"selector {named} matches no operation of the spec"
    assert problem.location == f"line {line}"
    assert problem.file.endswith("toolcat.yaml")


def test_stale_tag_lists_the_spec_tags(tmp_path: Path) -> None:
    with pytest.raises(ToolcatError) as err:
        _catalog(tmp_path, "include: {tags: [medai]}")
    assert "(tags in the spec: admin, media, net)" in err.value.problems[0].fix


def test_selection_leaving_nothing_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ToolcatError, match="leaves no operation"):
        _catalog(tmp_path, "include: {tags: [media]}\nexclude: {tags: [media]}")


@pytest.mark.parametrize(("selection", "message"), [
    ("include: {}", "at least one of tags, paths, methods, operations"),
    ("include: {tag: [media]}", "unknown key 'catalogs.demo.include.tag'"),
    ("exclude: {methods: [FETCH]}", "catalogs.demo.exclude.methods.0"),
    ("exclude: {tags: []}", "catalogs.demo.exclude.tags"),
])
def test_malformed_selector_exits_2(tmp_path: Path, selection: str, message: str) -> None:
    result = run_cli("generate", "--config", _project(tmp_path, selection))
    assert result.returncode == 2, result.stdout
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_override_of_a_left_out_operation(tmp_path: Path) -> None:
    config = _project(tmp_path, "exclude: {tags: [admin]}",
                      "operations:\n  listAdminUsers:\n    title: Users\n")
    result = run_cli("generate", "--config", config)
    assert result.returncode == 2, result.stdout
    assert ("override 'listAdminUsers' names GET /admin/users, which the catalog's selection "
            "leaves out (matched by exclude {tags: [admin]})") in result.stderr


def test_cli_stale_selector_and_changed_selection(tmp_path: Path) -> None:
    config = _project(tmp_path, "exclude: {tags: [admin]}")
    assert run_cli("generate", "--config", config).returncode == 0
    assert run_cli("check", "--config", config).returncode == 0
    data = json.loads((tmp_path / "out" / "catalog.json").read_text())
    assert data["exclusions"] == [{"operation": "GET /admin/users",
                                   "reason": "selection: matched by exclude {tags: [admin]}"}]
    # The record must not vouch for the folder once the selection changed.
    config.write_text(config.read_text().replace("[admin]", "[net]"))
    result = run_cli("check", "--config", config)
    assert result.returncode == 1, result.stdout + result.stderr
    config.write_text(config.read_text().replace("[net]", "[nett]"))
    result = run_cli("check", "--config", config)
    assert result.returncode == 2
    assert "selector exclude.tags 'nett' matches no operation of the spec" in result.stderr
