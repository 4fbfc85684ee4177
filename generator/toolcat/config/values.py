"""The config's values as the stages use them: plain frozen dataclasses, no pydantic
(``checked.py`` holds the rules a config file is validated by)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

ENV_VAR = r"^[A-Za-z_][A-Za-z0-9_]*$"
TOOLSET_PATTERN = r"^[a-z][a-z0-9_-]{0,63}$"

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


def selector(entry: dict[str, Any] | None) -> Selector | None:
    """A checked ``include:``/``exclude:`` entry (plain data) as a ``Selector``."""
    if entry is None:
        return None
    return Selector(*(tuple(entry[kind] or ()) for kind in SELECTOR_KINDS))
