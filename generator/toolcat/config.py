"""The catalog config: one declarative YAML file, validated strictly.

    catalogs:
      broadcast:
        spec: broadcast/v1.json        # relative to this file
        output: ../generated/broadcast # relative to this file
        prefix: broadcast_
        overrides: broadcast/overrides.yaml
        overlays: [broadcast/fixes.overlay.yaml]  # OpenAPI Overlays, applied in order
        validation: strict             # or warn: generate despite validator problems
        models: true                   # also write models.py (pydantic + typed surface)
        templates: broadcast/templates # files here replace built-in templates by name
        credentials:                   # toolcat serve: security scheme -> env variable
          bearerAuth: BROADCAST_TOKEN
        undeclared_credentials:        # sent where the document declares no security
          - scheme: token              # its name in the binding
            in: header                 # header | query | cookie
            name: Authorization        # the header, query parameter or cookie name
            env: BROADCAST_API_TOKEN   # the environment variable holding the value
            include: {tags: [admin]}   # optional: only these tools (as include: below)
        output_schemas: lenient        # exact (default) | lenient: every property may also
                                       # be null, objects stay open (docs/vendor-documents.md)
                                       # | shallow: top-level properties typed, deeper open
                                       # | none (docs/large-apis.md)
        ref_root: ..                   # optional: relative $refs may reach files under
                                       # this folder (default: the spec's own folder)
        max_tokens: 200000             # budgets of tools/list (render/budget.py); also
        max_tools: 300                 # per toolset
        toolsets:                      # toolcat serve --toolset NAME (docs/large-apis.md)
          channels:
            include: {tags: [channels]}
            max_tools: 20
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import pydantic

from .errors import fail, nearest
from .parse.checked_yaml import Lines, line_of, parse_model, read_yaml
from .vocab.files import CATALOG_TEMPLATES
from .vocab.mcp import MAX_NAME
from .vocab.outputs import OutputSchemas
from .vocab.validation import Mode

DEFAULT_CONFIG = Path("specs/toolcat.yaml")
# Where a module outside a repository says its regenerate command runs.
FROM_PARENT = "the folder holding this one"
# The catalog name rule, the one place it lives: the name becomes a Python package
# folder, module constants and catalog.json's "name" (the JSON Schema repeats it and
# a test keeps the two equal).
CATALOG_NAME_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"
CATALOG_NAME_RULE = "a lower-case letter, then up to 63 lower-case letters, digits or _"


_ENV_VAR = r"^[A-Za-z_][A-Za-z0-9_]*$"

# Which operations become tools (matching: generator/model/selection.py).
SELECTOR_KINDS = ("tags", "paths", "methods", "operations")


@dataclass(frozen=True)
class Selector:
    """One ``include:`` or ``exclude:`` entry, already checked for shape by the config."""

    tags: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    methods: tuple[str, ...] = ()
    operations: tuple[str, ...] = ()

    def values(self, kind: str) -> tuple[str, ...]:
        values: tuple[str, ...] = getattr(self, kind)
        return values

    def kinds(self) -> list[str]:
        return [k for k in SELECTOR_KINDS if self.values(k)]

    def describe(self) -> str:
        """``{tags: [media, net], methods: [GET]}``, the rule as the config spells it."""
        return "{" + ", ".join(f"{k}: [{', '.join(self.values(k))}]"
                               for k in self.kinds()) + "}"


@dataclass(frozen=True)
class Selection:
    include: Selector | None
    exclude: Selector | None
    file: str                          # the config file, for errors
    lines: tuple[tuple[str, int], ...]  # "include.tags.0" -> its line in that file

    def line(self, key: str) -> str:
        found = dict(self.lines).get(key)
        return f"line {found}" if found is not None else ""


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
        return Selector(tuple(self.tags or ()), tuple(self.paths or ()),
                        tuple(self.methods or ()), tuple(self.operations or ()))


@dataclass(frozen=True)
class UndeclaredCredential:
    """A credential the document does not declare, sent from an environment variable."""

    scheme: str                 # the name the binding's security gives it
    location: str               # header | query | cookie
    name: str                   # the header, query parameter or cookie name
    env: str                    # the environment variable holding the value
    include: Selector | None    # the tools it is for (None: every tool)
    file: str                   # the config file and the entry's line, for errors
    line: str


class UndeclaredCredentialConfig(pydantic.BaseModel):
    """One ``undeclared_credentials:`` entry."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    scheme: pydantic.constr(pattern=r"^[A-Za-z0-9_.-]{1,64}$")  # type: ignore[valid-type]
    location: Literal["header", "query", "cookie"] = pydantic.Field(alias="in")
    name: pydantic.constr(pattern=r"^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$")  # type: ignore[valid-type]
    env: pydantic.constr(pattern=_ENV_VAR)  # type: ignore[valid-type]
    include: SelectorConfig | None = None


_Limit = Annotated[int, pydantic.Field(ge=1)]
TOOLSET_PATTERN = r"^[a-z][a-z0-9_-]{0,63}$"


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
        pattern=_ENV_VAR)]] = {}
    undeclared_credentials: list[UndeclaredCredentialConfig] = []
    output_schemas: OutputSchemas = "exact"   # model/lenient.py, model/shallow.py
    include: SelectorConfig | None = None
    exclude: SelectorConfig | None = None
    ref_root: str | None = None
    toolsets: dict[Annotated[str, pydantic.StringConstraints(pattern=TOOLSET_PATTERN)],
                   ToolsetConfig] = {}
    max_tools: _Limit | None = None     # budgets of tools/list, enforced by generate, check
    max_tokens: _Limit | None = None


@dataclass(frozen=True)
class Budget:
    """``max_tools`` / ``max_tokens`` of a catalog or a toolset, and where they are set."""

    max_tools: int | None
    max_tokens: int | None
    file: str
    where: str     # ``line N`` of the config file


@dataclass(frozen=True)
class Toolset:
    name: str
    selection: Selection
    budget: Budget | None


class Config(pydantic.BaseModel):
    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)

    catalogs: dict[str, CatalogConfig]


class Target(pydantic.BaseModel):
    """One catalog to generate, with paths resolved."""

    model_config = pydantic.ConfigDict(frozen=True)

    name: str = pydantic.Field(pattern=CATALOG_NAME_PATTERN)
    spec: Path
    spec_label: str
    output: Path
    prefix: str = ""
    overrides: Path | None = None
    overlays: tuple[Path, ...] = ()     # OpenAPI Overlay files, applied in this order
    name_budget: int = MAX_NAME
    open_world: bool = False
    validation: Mode = "strict"
    models: bool = False
    templates: Path | None = None
    credentials: dict[str, str] = {}
    undeclared_credentials: tuple[UndeclaredCredential, ...] = ()
    output_schemas: OutputSchemas = "exact"
    selection: Selection | None = None
    regenerate: str = ""        # the command that regenerates it, named in the module
    regenerate_from: str = ""   # where to run it; empty: the repository's root
    ref_root: Path | None = None    # None: the spec's folder
    toolsets: tuple[Toolset, ...] = ()
    budget: Budget | None = None


def load_config(path: Path) -> list[Target]:
    data, lines = read_yaml(path)
    config = parse_model(Config, data, lines, str(path))
    base = path.parent
    targets = []
    for name, entry in sorted(config.catalogs.items()):
        check_catalog_name(name, str(path), f"catalogs.{name}")
        command = regenerate_command([f"toolcat generate {name}", ("--config", path)],
                                     Path(os.path.normpath(base / entry.output)))
        targets.append(Target(
            name=name, spec=Path(os.path.normpath(base / entry.spec)), spec_label=entry.spec,
            output=Path(os.path.normpath(base / entry.output)), prefix=entry.prefix,
            overrides=Path(os.path.normpath(base / entry.overrides)) if entry.overrides
            else None,
            overlays=tuple(Path(os.path.normpath(base / o)) for o in entry.overlays),
            name_budget=entry.name_budget, open_world=entry.open_world,
            validation=entry.validation, models=entry.models,
            templates=_folder(base, entry.templates, str(path), name),
            credentials=dict(entry.credentials),
            undeclared_credentials=_undeclared(entry, lines, name, str(path)),
            selection=_selection(entry, lines, ("catalogs", name), str(path)),
            regenerate=command[0], regenerate_from=command[1],
            ref_root=Path(os.path.normpath(base / entry.ref_root)) if entry.ref_root
            else None,
            toolsets=_toolsets(entry, lines, ("catalogs", name), str(path)),
            budget=_budget(entry, lines, ("catalogs", name), str(path)),
            output_schemas=entry.output_schemas))
    return targets


def _undeclared(entry: CatalogConfig, lines: Lines, name: str,
                file: str) -> tuple[UndeclaredCredential, ...]:
    return tuple(
        UndeclaredCredential(c.scheme, c.location, c.name, c.env,
                             c.include.selector() if c.include else None, file,
                             line_of(lines, ("catalogs", name, "undeclared_credentials", i)))
        for i, c in enumerate(entry.undeclared_credentials))


def _budget(entry: CatalogConfig | ToolsetConfig, lines: Lines, loc: tuple[str, ...],
            file: str) -> Budget | None:
    if entry.max_tools is None and entry.max_tokens is None:
        return None
    key = "max_tokens" if entry.max_tokens is not None else "max_tools"
    found = lines.get((*loc, key))
    return Budget(entry.max_tools, entry.max_tokens, file,
                  f"line {found}" if found is not None else ".".join((*loc, key)))


def _toolsets(entry: CatalogConfig, lines: Lines, loc: tuple[str, ...],
              file: str) -> tuple[Toolset, ...]:
    found = []
    for name, toolset in sorted(entry.toolsets.items()):
        where = (*loc, "toolsets", name)
        selection = _selection(toolset, lines, where, file)
        assert selection is not None   # a toolset has include or exclude (ToolsetConfig)
        found.append(Toolset(name, selection, _budget(toolset, lines, where, file)))
    return tuple(found)


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
    if re.match(CATALOG_NAME_PATTERN, name) is None:
        raise fail(file, location, f"catalog name {name!r} is not a Python identifier in "
                   "snake_case", f"use {CATALOG_NAME_RULE}")
    return name


def regenerate_command(words: Sequence[str | tuple[str, Path]],
                       output: Path) -> tuple[str, str]:
    """The command a generated file names, and the folder to run it from (Target's
    ``regenerate`` and ``regenerate_from``).

    ``words`` are kept as they are, but for ``(option, path)`` pairs: each path is spelled
    relative to the one folder the command is run from, so the command regenerates the same
    bytes wherever the project sits. That folder is the root of the repository holding the
    output and every path (stated as the default, ``regenerate_from`` empty), else the
    folder holding the catalog folder (generate never runs inside the folder it replaces):
    never absolute, never relative to the working
    directory, and never to a folder that holds the project by accident (a temporary folder
    above it would name the folders between). A config file at its default place
    (``specs/toolcat.yaml`` of the repository) is not named at all.
    """
    out = output.resolve()
    paths = [word[1].resolve() for word in words if isinstance(word, tuple)]
    root = _repository(out)
    inside = root is not None and all(_repository(p) == root for p in paths)
    base = root if inside and root is not None else out.parent
    spelled: list[str] = []
    for word in words:
        if isinstance(word, str):
            spelled.append(word)
            continue
        option, path = word
        relative = Path(os.path.relpath(path.resolve(), base)).as_posix()
        if not (option == "--config" and inside and relative == DEFAULT_CONFIG.as_posix()):
            spelled += [option, relative]
    return " ".join(spelled), "" if inside else FROM_PARENT


def _repository(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` holding a ``.git``, None outside one."""
    for folder in (path, *path.parents):
        if (folder / ".git").exists():
            return folder
    return None


def _selection(entry: CatalogConfig | ToolsetConfig, lines: Lines, loc: tuple[str, ...],
               file: str) -> Selection | None:
    if entry.include is None and entry.exclude is None:
        return None
    # The line of every selector value, so a stale one is reported where it stands.
    found = {".".join(str(p) for p in key[len(loc):]): line for key, line in lines.items()
             if key[:len(loc)] == loc and key[len(loc):][:1] in (("include",), ("exclude",))}
    return Selection(entry.include.selector() if entry.include else None,
                     entry.exclude.selector() if entry.exclude else None,
                     file, tuple(sorted(found.items())))


def select(targets: list[Target], name: str | None, file: str) -> list[Target]:
    if name is None:
        return targets
    chosen = [t for t in targets if t.name == name]
    if not chosen:
        raise fail(file, "catalogs", f"no catalog named '{name}'"
                   f"{nearest(name, [t.name for t in targets])}",
                   f"known catalogs: {', '.join(t.name for t in targets)}")
    return chosen


SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def config_json_schema() -> str:
    """The JSON Schema of ``toolcat.yaml``, from the models above (shipped in
    ``schemas/config.schema.json`` for editors; a test keeps the file equal to this)."""
    schema = {"$schema": SCHEMA_DIALECT, **Config.model_json_schema(),
              "title": "toolcat.yaml",
              "description": "The catalogs toolcat generates (toolcat's docs/usage.md)."}
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
