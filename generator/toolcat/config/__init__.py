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

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import fail, nearest
from ..parse.inputs import Read
from ..parse.limits import read_bounded
from ..parse.lines import Lines, line_of
from ..vocab.files import CATALOG_TEMPLATES
from ..vocab.mcp import MAX_NAME
from ..vocab.outputs import OutputSchemas
from ..vocab.validation import Mode
from .values import Budget, Selection, Selector, Toolset, UndeclaredCredential, selector

# The values the stages import from here (model/selection.py, render/budget.py, ...).
__all__ = ["Budget", "Selection", "Selector", "Toolset", "UndeclaredCredential"]

DEFAULT_CONFIG = Path("specs/toolcat.yaml")
# Where a module outside a repository says its regenerate command runs.
FROM_PARENT = "the folder holding this one"
# The catalog name rule, the one place it lives: the name becomes a Python package
# folder, module constants and catalog.json's "name" (the JSON Schema repeats it and
# a test keeps the two equal).
CATALOG_NAME_PATTERN = r"^[a-z][a-z0-9_]{0,63}$"
CATALOG_NAME_RULE = "a lower-case letter, then up to 63 lower-case letters, digits or _"


@dataclass(frozen=True)
class Target:
    """One catalog to generate, with paths resolved: a plain value (a check this
    machine's cache vouches for builds it without importing pydantic)."""

    name: str
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
    credentials: dict[str, str] = field(default_factory=dict)
    undeclared_credentials: tuple[UndeclaredCredential, ...] = ()
    output_schemas: OutputSchemas = "exact"
    selection: Selection | None = None
    regenerate: str = ""        # the command that regenerates it, named in the module
    regenerate_from: str = ""   # where to run it; empty: the repository's root
    ref_root: Path | None = None    # None: the spec's folder
    toolsets: tuple[Toolset, ...] = ()
    budget: Budget | None = None

    def __post_init__(self) -> None:
        if re.match(CATALOG_NAME_PATTERN, self.name) is None:
            raise ValueError(f"Target name {self.name!r} breaks the catalog name rule: "
                             f"{CATALOG_NAME_RULE}")
        object.__setattr__(self, "overlays", tuple(self.overlays))


# The config as plain data (every key, defaults filled in) and the line of each key.
Validate = Callable[[Path, Read], tuple[dict[str, Any], Lines]]


def validate(path: Path, read: Read) -> tuple[dict[str, Any], Lines]:
    """The config checked by its pydantic models (``checked.py``, imported only here)."""
    from .checked import validate as checked  # noqa: PLC0415 - pydantic, only when needed

    return checked(path, read)


def load_config(path: Path, read: Read = read_bounded,
                validated: Validate = validate) -> list[Target]:
    """The config's targets, paths resolved; ``validated`` answers what ``validate``
    would (the CLI hands this machine's memo of it, ``cache/configs.py``)."""
    config, lines = validated(path, read)
    base, file = path.parent, str(path)

    def under(value: str | None) -> Path | None:
        return Path(os.path.normpath(base / value)) if value is not None else None

    targets = []
    for name, entry in sorted(config["catalogs"].items()):
        check_catalog_name(name, file, f"catalogs.{name}")
        loc = ("catalogs", name)
        output = Path(os.path.normpath(base / entry["output"]))
        command = regenerate_command([f"toolcat generate {name}", ("--config", path)], output)
        targets.append(Target(
            name=name, spec=Path(os.path.normpath(base / entry["spec"])),
            spec_label=entry["spec"], output=output, prefix=entry["prefix"],
            overrides=under(entry["overrides"]),
            overlays=tuple(Path(os.path.normpath(base / o)) for o in entry["overlays"]),
            name_budget=entry["name_budget"], open_world=entry["open_world"],
            validation=entry["validation"], models=entry["models"],
            templates=_folder(base, entry["templates"], file, name),
            credentials=dict(entry["credentials"]),
            undeclared_credentials=_undeclared(entry, lines, name, file),
            selection=_selection(entry, lines, loc, file),
            regenerate=command[0], regenerate_from=command[1],
            ref_root=under(entry["ref_root"]),
            toolsets=_toolsets(entry, lines, loc, file),
            budget=_budget(entry, lines, loc, file),
            output_schemas=entry["output_schemas"]))
    return targets


def _undeclared(entry: dict[str, Any], lines: Lines, name: str,
                file: str) -> tuple[UndeclaredCredential, ...]:
    return tuple(
        UndeclaredCredential(c["scheme"], c["location"], c["name"], c["env"],
                             selector(c["include"]), file,
                             line_of(lines, ("catalogs", name, "undeclared_credentials", i)))
        for i, c in enumerate(entry["undeclared_credentials"]))


def _budget(entry: dict[str, Any], lines: Lines, loc: tuple[str, ...],
            file: str) -> Budget | None:
    if entry["max_tools"] is None and entry["max_tokens"] is None:
        return None
    key = "max_tokens" if entry["max_tokens"] is not None else "max_tools"
    found = lines.get((*loc, key))
    return Budget(entry["max_tools"], entry["max_tokens"], file,
                  f"line {found}" if found is not None else ".".join((*loc, key)))


def _toolsets(entry: dict[str, Any], lines: Lines, loc: tuple[str, ...],
              file: str) -> tuple[Toolset, ...]:
    found = []
    for name, toolset in sorted(entry["toolsets"].items()):
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


def _selection(entry: dict[str, Any], lines: Lines, loc: tuple[str, ...],
               file: str) -> Selection | None:
    if entry["include"] is None and entry["exclude"] is None:
        return None
    # The line of every selector value, so a stale one is reported where it stands.
    found = {".".join(str(p) for p in key[len(loc):]): line for key, line in lines.items()
             if key[:len(loc)] == loc and key[len(loc):][:1] in (("include",), ("exclude",))}
    return Selection(selector(entry["include"]), selector(entry["exclude"]),
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
