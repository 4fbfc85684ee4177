"""The incident in types: the full-replace update model requires the field create lacks.

A handler written against ``BroadcastUpdateChannelInput`` cannot build one
without ``graphicsElementIds``; the create model has no such field at all. Names
are pinned: a renamed class is a decision, not a side effect.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pydantic
import pytest
from helpers.models import import_models
from toolcat.output.files import Files

UPDATE_ONLY = "graphicsElementIds"
VALID_UPDATE = {
    "channelId": 1, "ifMatch": '"v1"', "name": "News", "number": "1", "group": "g",
    "categories": [], "streamingMode": "HttpLiveStreamingDirect", "ffmpegProfileId": 1,
    "watermarkId": None, "fallbackFillerId": None, "preferredAudioLanguageCode": None,
    "isEnabled": True, "showInEpg": True, UPDATE_ONLY: [3],
}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory, example_files: Files) -> ModuleType:
    return import_models(example_files, tmp_path_factory.mktemp("seed"))


def test_update_requires_the_update_only_field(models: ModuleType) -> None:
    fields = models.BroadcastUpdateChannelInput.model_fields
    assert fields[UPDATE_ONLY].is_required()
    assert models.BroadcastUpdateChannelInput.model_validate(VALID_UPDATE)
    without = {k: v for k, v in VALID_UPDATE.items() if k != UPDATE_ONLY}
    with pytest.raises(pydantic.ValidationError, match=UPDATE_ONLY):
        models.BroadcastUpdateChannelInput.model_validate(without)


def test_create_lacks_it(models: ModuleType) -> None:
    assert UPDATE_ONLY not in models.BroadcastCreateChannelInput.model_fields
    with pytest.raises(pydantic.ValidationError, match=UPDATE_ONLY):
        models.BroadcastCreateChannelInput.model_validate(
            {"name": "News", "number": "1", "ffmpegProfileId": 1, UPDATE_ONLY: [3]})


def test_the_typed_surface_names_every_tool(models: ModuleType, example_files: Files) -> None:
    import json

    tools = [e["tool"] for e in json.loads(example_files["catalog.json"])["tools"]]
    assert set(models.TYPED_TOOLS) == {t["name"] for t in tools}
    for tool in tools:
        entry = models.TYPED_TOOLS[tool["name"]]
        assert entry.method == tool["name"]
        assert callable(getattr(models.BroadcastTools, entry.method))
        assert (entry.output is None) == ("outputSchema" not in tool), tool["name"]
    update = models.TYPED_TOOLS["broadcast_update_channel"]
    assert update.input is models.BroadcastUpdateChannelInput
    assert update.output is models.BroadcastUpdateChannelOutput
    assert models.TYPED_TOOLS["broadcast_delete_channel"].output is None


def test_committed_module_is_the_one_checked(example_files: Files) -> None:
    committed = Path(__file__).resolve().parents[2] / "generated" / "broadcast" / "models.py"
    assert committed.read_bytes() == example_files["models.py"]
