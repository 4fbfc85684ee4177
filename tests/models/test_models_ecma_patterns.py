"""Generated pydantic models import and check whatever ECMA-262 pattern a document holds
(issue 21 item 6, for ``models.py``).

A model checks a value second, after the inputSchema (ECMA-262, ``vocab/ecma.py``), and
with pydantic's engines: Python's ``re`` (a model with a lookaround, such as a header
parameter's pattern, gets ``python-re``) or Rust's ``regex``. Cloudflare's named group
``(?<token_config_id>...)`` beside a header parameter made importing ``models.py`` raise
``re.error``. Named groups and their backreferences are respelled for those engines; a
pattern neither engine compiles (``\\p{Lu}``) is left out of the model, never a crash.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pydantic
import pytest
from helpers.fixtures import write_spec
from helpers.generate import adhoc_target, generate_files
from helpers.models import import_models
from toolcat.vocab.ecma import python_spelling

NAMED = r"^(?<token_config_id>[a-z0-9\-]{32,36}):\$(?<json_path>.*?)$"
CLAIM = "e0de1a3a-8c2c-4f90-98d8-cbdf0a3f2cb5:$.foo"
SPEC: dict[str, Any] = {
    "openapi": "3.1.0", "info": {"title": "m", "version": "1"},
    "paths": {"/t": {"post": {
        "operationId": "make",
        "parameters": [{"name": "X-Trace", "in": "header", "schema": {"type": "string"}}],
        "requestBody": {"content": {"application/json": {"schema": {
            "type": "object", "properties": {
                "claim": {"type": "string", "pattern": NAMED},
                "twice": {"type": "string", "pattern": r"^(?<y>\d{2})-\k<y>$"},
                "upper": {"type": "string", "pattern": r"^\p{Lu}"}}}}}},
        "responses": {"204": {"description": "done"}}}}},
}


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory) -> Any:
    folder: Path = tmp_path_factory.mktemp("ecma_models")
    target = replace(adhoc_target(write_spec(folder, SPEC, "spec.json"), "m"), models=True)
    files = generate_files(target)
    assert b'regex_engine="python-re"' in files["models.py"]   # the header's lookahead
    return import_models(files, folder / "pkg")


def test_the_model_imports_and_checks_the_named_group(models: Any) -> None:
    model = models.MakeInput
    assert model.model_validate({"claim": CLAIM}).claim == CLAIM
    with pytest.raises(pydantic.ValidationError, match="claim"):
        model.model_validate({"claim": "not-a-claim"})


def test_named_groups_and_backreferences_are_respelled() -> None:
    assert python_spelling(r"^(?<y>\d)-\k<y>[(?<n>](?<=a)(?<!b)\(?<z>)") == (
        r"^(?P<y>\d)-(?P=y)[(?<n>](?<=a)(?<!b)\(?<z>)")   # `\(` is a literal


def test_a_pattern_a_model_engine_cannot_compile_is_left_to_the_input_schema(
        models: Any) -> None:
    """``\\p{Lu}`` (neither engine) and a backreference (Rust's has none): the inputSchema
    (ECMA) refuses ``a`` and ``12-13`` before a model ever sees them."""
    assert models.MakeInput.model_validate({"upper": "a"}).upper == "a"
    assert models.MakeInput.model_validate({"twice": "12-13"}).twice == "12-13"
