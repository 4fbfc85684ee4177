"""The catalog config: one declarative YAML file, validated strictly.

    catalogs:
      broadcast:
        spec: broadcast/v1.json        # relative to this file
        output: ../generated/broadcast # relative to this file
        prefix: broadcast_
        overrides: broadcast/overrides.yaml
        validation: strict             # or warn: generate despite validator problems
        models: true                   # also write models.py (pydantic + typed surface)
        templates: broadcast/templates # files here replace built-in templates by name
        ref_root: ..                   # optional: relative $refs may reach files under
                                       # this folder (default: the spec's own folder)
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pydantic

from generator.errors import fail, nearest
from generator.parse.checked_yaml import parse_model, read_yaml
from generator.vocab.files import CATALOG_TEMPLATES
from generator.vocab.mcp import MAX_NAME
from generator.vocab.validation import Mode

DEFAULT_CONFIG = Path("specs/toolcat.yaml")
# The catalog name rule, the one place it lives: the name becomes a Python package
# folder, module constants and catalog.json's "name" (the JSON Schema repeats it and
# a test keeps the two equal).
NAME_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"
NAME_RULE = "a lower-case letter, then up to 63 lower-case letters, digits or _"


class CatalogConfig(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    spec: str
    output: str
    prefix: str = pydantic.Field(default="", pattern=r"^[A-Za-z0-9_-]*$", max_length=24)
    overrides: str | None = None
    name_budget: int = pydantic.Field(default=MAX_NAME, ge=16, le=MAX_NAME)
    open_world: bool = False
    validation: Mode = "strict"
    models: bool = False
    templates: str | None = None
    ref_root: str | None = None


class Config(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    catalogs: dict[str, CatalogConfig]


class Target(pydantic.BaseModel):
    """One catalog to generate, with paths resolved."""

    model_config = pydantic.ConfigDict(frozen=True)

    name: str = pydantic.Field(pattern=NAME_PATTERN)
    spec: Path
    spec_label: str
    output: Path
    prefix: str = ""
    overrides: Path | None = None
    name_budget: int = MAX_NAME
    open_world: bool = False
    validation: Mode = "strict"
    models: bool = False
    templates: Path | None = None
    ref_root: Path | None = None    # None: the spec's folder


def load_config(path: Path) -> list[Target]:
    data, lines = read_yaml(path)
    config = parse_model(Config, data, lines, str(path))
    base = path.parent
    targets = []
    for name, entry in sorted(config.catalogs.items()):
        check_catalog_name(name, str(path), f"catalogs.{name}")
        targets.append(Target(
            name=name, spec=Path(os.path.normpath(base / entry.spec)), spec_label=entry.spec,
            output=Path(os.path.normpath(base / entry.output)), prefix=entry.prefix,
            overrides=Path(os.path.normpath(base / entry.overrides)) if entry.overrides
            else None,
            name_budget=entry.name_budget, open_world=entry.open_world,
            validation=entry.validation, models=entry.models,
            templates=_folder(base, entry.templates, str(path), name),
            ref_root=Path(os.path.normpath(base / entry.ref_root)) if entry.ref_root
            else None))
    return targets


def _folder(base: Path, folder: str | None, file: str, name: str) -> Path | None:
    if folder is None:
        return None
    path = Path(os.path.normpath(base / folder))
    where = f"catalogs.{name}.templates"
    if not path.is_dir():
        raise fail(file, where, f"templates folder '{folder}' not found "
                   f"(looked in {path})", "name a folder of templates, relative to this file")
    # A file that replaces no built-in template would be silently unused.
    builtin = list(CATALOG_TEMPLATES)
    for extra in sorted(p.relative_to(path).as_posix() for p in path.rglob("*")
                        if p.is_file() and p.relative_to(path).as_posix() not in builtin):
        raise fail(file, where, f"'{folder}/{extra}' replaces no built-in template"
                   f"{nearest(extra, builtin)}",
                   f"name it after one of: {', '.join(builtin)}")
    return path


def check_catalog_name(name: str, file: str, location: str) -> str:
    """``name`` if it follows the catalog name rule, else exit 2 naming it."""
    if re.match(NAME_PATTERN, name) is None:
        raise fail(file, location, f"catalog name {name!r} is not a Python identifier in "
                   "snake_case", f"use {NAME_RULE}")
    return name


def select(targets: list[Target], name: str | None, file: str) -> list[Target]:
    if name is None:
        return targets
    chosen = [t for t in targets if t.name == name]
    if not chosen:
        raise fail(file, "catalogs", f"no catalog named '{name}'"
                   f"{nearest(name, [t.name for t in targets])}",
                   f"known catalogs: {', '.join(t.name for t in targets)}")
    return chosen
