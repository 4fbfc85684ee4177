"""The catalog name has one rule, kept in one place, and the JSON Schema agrees.

Issue 9 item 9: ``--name ../../x`` produced a catalog that failed its own schema.
"""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest
from toolcat.config import CATALOG_NAME_PATTERN, Target, load_config
from toolcat.errors import ToolcatError


def test_schema_repeats_the_rule() -> None:
    schema = json.loads(files("toolcat").joinpath("schemas/catalog.schema.json").read_bytes())
    assert schema["properties"]["name"]["pattern"] == CATALOG_NAME_PATTERN


def test_a_target_cannot_carry_a_bad_name(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="name"):
        Target(name="../../x", spec=tmp_path, spec_label="s", output=tmp_path)


def test_config_names_the_bad_catalog(tmp_path: Path) -> None:
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalogs:\n  Bad-Name:\n    spec: s.json\n    output: out\n")
    with pytest.raises(ToolcatError) as caught:
        load_config(config)
    text = caught.value.render()
    assert "catalogs.Bad-Name: catalog name 'Bad-Name' is not" in text
    assert "fix: use a lower-case letter" in text
