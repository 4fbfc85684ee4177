"""One override for many operations: ``all_operations`` in the override file.

A path parameter renamed on five tools needed five identical entries; now one
entry renames it wherever it appears (optionally only ``where`` a selector
matches). An operation's own entry wins; an entry that reaches no tool is an
error, like any stale override. Ad hoc runs take the file with ``--overrides``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.generate import run_cli
from toolcat.errors import ToolcatError
from toolcat.overrides.apply import apply_overrides
from toolcat.overrides.schema import OverrideFile


def _spec(tmp_path: Path) -> Path:
    paths: dict[str, dict[str, object]] = {}
    for path in ("/channels/{id}", "/channels/{id}/items", "/schedules/{id}"):
        for method in ("get", "delete"):
            oid = method + "".join(w.strip("{}").title() for w in path.split("/"))
            paths.setdefault(path, {})[method] = {
                "operationId": oid, "responses": {"200": {"description": "ok"}},
                "parameters": [{"name": "id", "in": "path", "required": True,
                                "schema": {"type": "integer"}}]}
    spec = tmp_path / "api.json"
    spec.write_text(json.dumps({"openapi": "3.1.0", "info": {"title": "Channels",
                                                             "version": "1"}, "paths": paths}))
    return spec


def _generate(tmp_path: Path, overrides: str) -> tuple[int, str, dict[str, list[str]]]:
    (tmp_path / "overrides.yaml").write_text(overrides)
    result = run_cli("generate", "--spec", _spec(tmp_path), "--out", tmp_path / "out",
                     "--overrides", tmp_path / "overrides.yaml")
    if result.returncode:
        return result.returncode, result.stderr, {}
    data = json.loads((tmp_path / "out" / "catalog.json").read_text())
    return 0, "", {t["tool"]["name"]: sorted(t["tool"]["inputSchema"]["properties"])
                   for t in data["tools"]}


def test_rename_wherever_it_appears_and_own_entry_wins(tmp_path: Path) -> None:
    code, err, tools = _generate(tmp_path, """\
all_operations:
  - where: {paths: ['/channels/*']}
    arguments:
      id: {rename: channelId, description: The channel.}
operations:
  getChannelsIdItems:
    arguments: {id: {rename: channel}}
""")
    assert code == 0, err
    assert tools == {
        "delete_channels_id": ["channelId"], "get_channels_id": ["channelId"],
        "delete_channels_id_items": ["channelId"], "get_channels_id_items": ["channel"],
        "delete_schedules_id": ["id"], "get_schedules_id": ["id"]}
    data = json.loads((tmp_path / "out" / "catalog.json").read_text())
    (tool,) = [t for t in data["tools"] if t["tool"]["name"] == "get_channels_id"]
    assert tool["binding"]["arguments"]["channelId"] == {"in": "path", "name": "id",
                                                         "style": "simple", "explode": False}
    assert tool["tool"]["inputSchema"]["properties"]["channelId"]["description"] == "The channel."


def test_everywhere_without_where(tmp_path: Path) -> None:
    code, err, tools = _generate(tmp_path, "all_operations:\n"
                                           "  - arguments: {id: {rename: key}}\n")
    assert code == 0, err
    assert set(map(tuple, tools.values())) == {("key",)}


@pytest.mark.parametrize(("overrides", "message"), [
    ("all_operations:\n  - arguments: {ident: {rename: key}}\n",
     "all_operations[0] argument 'ident' is on no tool it selects"),
    ("all_operations:\n  - where: {paths: ['/gone/*']}\n    arguments: {id: {rename: k}}\n",
     "all_operations[0] argument 'id' is on no tool it selects"),
    ("all_operations:\n  - arguments: {}\n", "all_operations.0.arguments"),
    ("all_operations:\n  - wher: {}\n    arguments: {id: {rename: k}}\n",
     "unknown key 'all_operations.0.wher'"),
])
def test_stale_or_malformed_entry_exits_2(tmp_path: Path, overrides: str,
                                          message: str) -> None:
    code, err, _ = _generate(tmp_path, overrides)
    assert code == 2
    assert message in err
    assert "overrides.yaml" in err
    assert "Traceback" not in err


def test_excluded_operation_keeps_its_exclusion() -> None:
    # An exclusion is alone on its entry; the shared rename must not make it "also set".
    entry = OverrideFile.model_validate({
        "all_operations": [{"arguments": {"id": {"rename": "k"}}}],
        "operations": {"x": {"exclude": "not for agents"}}})
    with pytest.raises(ToolcatError, match="override 'x' matches no operation"):
        apply_overrides([], entry, "o.yaml", {})


def test_overrides_option_needs_ad_hoc(tmp_path: Path) -> None:
    result = run_cli("generate", "--overrides", tmp_path / "o.yaml", "--config",
                     tmp_path / "toolcat.yaml")
    assert result.returncode == 2
    assert "--overrides is for ad hoc runs" in result.stderr
