"""The config's rules, as strict pydantic models: imported only to validate a config
whose bytes this machine has not validated before (``cache/configs.py`` remembers the
result), to check a selector written elsewhere, and for the JSON Schema editors read.

``validate`` turns a config file into plain data (every default filled in, keys as the
fields are named) and the line of every key; ``load_config`` builds the targets from that.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic

from ..parse.checked_yaml import parse_model, read_yaml
from ..parse.inputs import Read
from ..parse.lines import Lines
from ..vocab.mcp import MAX_NAME
from ..vocab.outputs import OutputSchemas
from ..vocab.validation import Mode
from .values import ENV_VAR, TOOLSET_PATTERN, Selector, selector

_Values = pydantic.conlist(pydantic.constr(min_length=1), min_length=1)


class SelectorConfig(pydantic.BaseModel):
    """``include:`` / ``exclude:``: see ``generator/model/selection.py``."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    tags: _Values | None = None  # type: ignore[valid-type]
    paths: _Values | None = None  # type: ignore[valid-type]
    methods: list[pydantic.constr(  # type: ignore[valid-type]
        pattern=r"^(?i:get|put|post|delete|options|head|patch|trace)$")] | None = pydantic.Field(
        default=None, min_length=1)
    operations: _Values | None = None  # type: ignore[valid-type]

    @pydantic.model_validator(mode="after")
    def _not_empty(self) -> SelectorConfig:
        if not self.model_fields_set:
            raise ValueError("a selector needs at least one of tags, paths, methods, operations")
        return self

    def selector(self) -> Selector:
        found = selector(self.model_dump())
        assert found is not None
        return found


class UndeclaredCredentialConfig(pydantic.BaseModel):
    """One ``undeclared_credentials:`` entry."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    scheme: pydantic.constr(pattern=r"^[A-Za-z0-9_.-]{1,64}$")  # type: ignore[valid-type]
    location: Literal["header", "query", "cookie"] = pydantic.Field(alias="in")
    name: pydantic.constr(pattern=r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$")  # type: ignore[valid-type]
    env: pydantic.constr(pattern=ENV_VAR)  # type: ignore[valid-type]
    include: SelectorConfig | None = None


_Limit = Annotated[int, pydantic.Field(ge=1)]

class ToolsetConfig(pydantic.BaseModel):
    """``toolsets: {NAME: {include:, exclude:, max_tools:, max_tokens:}}``: a named
    selection of the catalog's tools (``toolcat serve --toolset NAME``)."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    include: SelectorConfig | None = None
    exclude: SelectorConfig | None = None
    max_tools: _Limit | None = None
    max_tokens: _Limit | None = None

    @pydantic.model_validator(mode="after")
    def _selects(self) -> ToolsetConfig:
        if self.include is None and self.exclude is None:
            raise ValueError("a toolset needs include or exclude (else it is the catalog)")
        return self


class CatalogConfig(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    spec: str
    output: str
    prefix: str = pydantic.Field(default="", pattern=r"^[A-Za-z0-9_-]*$", max_length=24)
    overrides: str | None = None
    overlays: list[pydantic.constr(min_length=1)] = []  # type: ignore[valid-type]
    name_budget: int = pydantic.Field(default=MAX_NAME, ge=16, le=MAX_NAME)
    open_world: bool = False
    validation: Mode = "strict"
    models: bool = False
    templates: str | None = None
    # toolcat serve reads each security scheme's credential from the environment variable
    # named here (never from a file); unnamed schemes use TOOLCAT_<CATALOG>_<SCHEME>.
    credentials: dict[str, Annotated[str, pydantic.StringConstraints(
        pattern=ENV_VAR)]] = {}
    undeclared_credentials: list[UndeclaredCredentialConfig] = []
    output_schemas: OutputSchemas = "exact"   # model/lenient.py, model/shallow.py
    include: SelectorConfig | None = None
    exclude: SelectorConfig | None = None
    ref_root: str | None = None
    toolsets: dict[Annotated[str, pydantic.StringConstraints(pattern=TOOLSET_PATTERN)],
                   ToolsetConfig] = {}
    max_tools: _Limit | None = None     # budgets of tools/list, enforced by generate, check
    max_tokens: _Limit | None = None


class Config(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    catalogs: dict[str, CatalogConfig]


def validate(path: Path, read: Read) -> tuple[dict[str, Any], Lines]:
    """The config at ``path`` as plain data, and the line of every key; a located
    error (file, line, key) for anything the models refuse."""
    data, lines = read_yaml(path, read)
    return parse_model(Config, data, lines, str(path)).model_dump(), lines


SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def config_json_schema() -> str:
    """The JSON Schema of ``toolcat.yaml``, from the models above (shipped in
    ``schemas/config.schema.json`` for editors; a test keeps the file equal to this)."""
    schema = {"$schema": SCHEMA_DIALECT, **Config.model_json_schema(),
              "title": "toolcat.yaml",
              "description": "The catalogs toolcat generates (toolcat's docs/usage.md)."}
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
