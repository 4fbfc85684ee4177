"""The override file format (strict: an unknown key is an error with its line)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pydantic

from ..config.checked import SelectorConfig
from ..parse.checked_yaml import parse_model, read_yaml
from ..parse.inputs import Read
from ..parse.limits import read_bounded
from ..parse.lines import Lines
from ..vocab.mcp import TOOL_NAME_PATTERN
from .semantics import Semantics

Strict = pydantic.ConfigDict(extra="forbid", frozen=True)
ToolNameStr = pydantic.constr(pattern=TOOL_NAME_PATTERN)


class Annotations(pydantic.BaseModel):
    model_config = Strict
    readOnlyHint: bool | None = None
    destructiveHint: bool | None = None
    idempotentHint: bool | None = None
    openWorldHint: bool | None = None


class ArgumentOverride(pydantic.BaseModel):
    model_config = Strict
    rename: ToolNameStr | None = None  # type: ignore[valid-type]
    description: str | None = None
    required: bool | None = None


class ToolShape(pydantic.BaseModel):
    """What one generated tool looks like: shared by plain entries and split parts."""

    model_config = Strict
    name: ToolNameStr | None = None  # type: ignore[valid-type]
    title: str | None = None
    description: str | None = None
    append_description: str | None = None
    annotations: Annotations | None = None
    semantics: Semantics | None = None
    require_all_body_fields: bool = False
    fields: list[str] | None = None   # body fields this tool carries (default: all)
    if_match: Literal["optional", "required"] | None = None


class SplitPart(ToolShape):
    name: ToolNameStr  # type: ignore[valid-type]
    fields: list[str]


class OperationOverride(ToolShape):
    exclude: str | None = pydantic.Field(default=None, min_length=3)
    arguments: dict[str, ArgumentOverride] = {}
    omit: dict[str, str] = {}         # body field -> reason it is on no tool
    split: list[SplitPart] | None = pydantic.Field(default=None, min_length=2)


class AllOperations(pydantic.BaseModel):
    """Argument changes for every tool that has the argument, optionally narrowed by
    ``where`` (a selector, as in the config's ``include:``). An operation's own
    ``arguments`` entry for the same argument wins."""

    model_config = Strict
    where: SelectorConfig | None = None
    arguments: dict[str, ArgumentOverride] = pydantic.Field(min_length=1)


class OverrideFile(pydantic.BaseModel):
    model_config = Strict
    all_operations: list[AllOperations] = []
    operations: dict[str, OperationOverride] = {}


def read_overrides(path: Path, read: Read = read_bounded) -> tuple[OverrideFile, Lines]:
    data, lines = read_yaml(path, read)
    return parse_model(OverrideFile, data if data is not None else {}, lines, str(path)), lines
