"""The override file is strict: every mistake is exit 2 with file, line and nearest name."""

from __future__ import annotations

from pathlib import Path

import pytest
from toolcat.errors import ToolcatError

from overrides.seed import generate, seed_spec


def _error(tmp_path: Path, overrides: str) -> str:
    with pytest.raises(ToolcatError) as err:
        generate(tmp_path, seed_spec(), overrides)
    return err.value.render()


@pytest.mark.parametrize(("text", "expected"), [
    ("operations:\n  updateChanel:\n    semantics: merge\n",
     "line 2: override 'updateChanel' matches no operation (did you mean 'updateChannel'?)"),
    ("operations:\n  PUT /channel/{id}:\n    semantics: merge\n",
     "line 2: override 'PUT /channel/{id}' matches no operation (did you mean "
     "'PUT /channels/{id}'?)"),
    ("operations:\n  updateChannel:\n    semantic: merge\n",
     "line 3: unknown key 'operations.updateChannel.semantic' (did you mean 'semantics'?)"),
    ("operation:\n  updateChannel: {}\n",
     "line 1: unknown key 'operation' (did you mean 'operations'?)"),
    ("operations:\n  updateChannel:\n    arguments:\n      idd: {rename: channelId}\n",
     "line 4: tool seed_update_channel has no argument 'idd' (did you mean 'id'?)"),
    ("operations:\n  updateChannel:\n    fields: [name, nam]\n    omit: {}\n",
     "field 'nam' is not a body field of PUT /channels/{id} (did you mean 'name'?)"),
    ("operations:\n  updateChannel:\n    omit: {colour: x}\n",
     "line 3: omit names 'colour', not a body field of PUT /channels/{id}"),
    ("operations:\n  updateChannel:\n    semantics: replace\n",
     "line 3: operations.updateChannel.semantics: Input should be 'full-replace', 'merge' "
     "or 'additive'"),
    ("operations:\n  updateChannel:\n    exclude: no\n",
     "line 3: operations.updateChannel.exclude"),
    ("operations:\n  updateChannel:\n    exclude: not for agents\n    semantics: merge\n",
     "an excluded operation cannot also set ['semantics']"),
    ("operations:\n  updateChannel: {}\n  PUT /channels/{id}: {}\n",
     "'PUT /channels/{id}' selects PUT /channels/{id}, already selected by 'updateChannel'"),
    ("operations:\n  updateChannel:\n    arguments:\n      id: {rename: name}\n",
     "line 4: 'name' is already an argument"),
    ("operations:\n  updateChannel:\n    name: seed update\n",
     "line 3: operations.updateChannel.name: String should match pattern"),
])
def test_mistakes_are_located(tmp_path: Path, text: str, expected: str) -> None:
    message = _error(tmp_path, text)
    assert expected in message
    assert "overrides.yaml" in message


def test_a_split_name_clash_is_an_error(tmp_path: Path) -> None:
    text = ("operations:\n  updateChannel:\n    name: seed_create_channel\n")
    message = _error(tmp_path, text)
    assert "tool name 'seed_create_channel' is given to both" in message


def test_override_outliving_its_operation(tmp_path: Path) -> None:
    spec = seed_spec()
    del spec["paths"]["/schedules/{id}"]
    with pytest.raises(ToolcatError, match="override 'updateSchedule' matches no operation"):
        generate(tmp_path, spec, "operations:\n  updateSchedule:\n    semantics: merge\n")


def test_exclusion_is_listed(tmp_path: Path) -> None:
    catalog = generate(tmp_path, seed_spec(),
                       "operations:\n  createSchedule:\n    exclude: schedules are made in "
                       "the UI\n")
    assert catalog["exclusions"] == [{"operation": "POST /schedules",
                                      "reason": "schedules are made in the UI"}]
    assert "seed_create_schedule" not in {e["tool"]["name"] for e in catalog["tools"]}
