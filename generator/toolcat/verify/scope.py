"""Which catalog tools a verify run holds the server to: ``--include`` / ``--exclude``.

A server that implements part of a catalog is checked on that part only. Each
option is repeatable and takes either a glob on the catalog's tool names
(``broadcast_get_*``) or a selector written as the config's ``include:`` entries
are (``{methods: [GET], paths: ["/channels*"]}``), matched by the same code
(``model/selection.py``) against each tool's binding. Without ``--include`` every
tool is in scope; ``--exclude`` then removes. A tool left out is neither missing
nor extra on the server, and the report says how many were left out. An option
that selects no tool is an error, like a stale selector in the config.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase
from typing import Any

import pydantic
import yaml

from ..config import Selector
from ..config.checked import SelectorConfig
from ..errors import Problem, ToolcatError
from ..model.operations import Operation
from ..model.selection import matches


@dataclass(frozen=True)
class Rule:
    option: str                  # "--include" or "--exclude", for messages
    text: str                    # as given
    glob: str | None = None
    selector: Selector | None = None

    def matches(self, entry: dict[str, Any]) -> bool:
        if self.glob is not None:
            return fnmatchcase(entry["tool"]["name"], self.glob)
        assert self.selector is not None
        binding = entry["binding"]
        op = Operation(str(binding.get("method", "")).upper(), str(binding.get("path", "")),
                       {"operationId": binding.get("operationId")}, "", ())
        return matches(op, self.selector)


def parse_rules(option: str, values: Iterable[str]) -> list[Rule]:
    rules, problems = [], []
    for text in values:
        if not text.lstrip().startswith("{"):
            rules.append(Rule(option, text, glob=text))
            continue
        try:
            selector = SelectorConfig.model_validate(yaml.safe_load(text)).selector()
        except (yaml.YAMLError, pydantic.ValidationError) as exc:
            problems.append(Problem(option, "", f"'{text}' is not a selector: "
                                    f"{str(exc).splitlines()[0]}",
                                    "write {paths: [/channels*], methods: [GET]} "
                                    "(the config's include: form) or a tool-name glob"))
            continue
        if selector.tags:
            problems.append(Problem(option, "", f"'{text}': a catalog does not record tags",
                                    "select by paths, methods, operations or tool names"))
            continue
        rules.append(Rule(option, text, selector=selector))
    if problems:
        raise ToolcatError(problems)
    return rules


def in_scope(entries: list[dict[str, Any]], include: list[Rule], exclude: list[Rule]
             ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the entries to check, the entries left out); every rule must select a tool."""
    stale = [Problem(r.option, "", f"'{r.text}' selects no tool of the catalog",
                     "check the spelling against the catalog's tool names and bindings")
             for r in (*include, *exclude) if not any(r.matches(e) for e in entries)]
    if stale:
        raise ToolcatError(stale)
    kept, left = [], []
    for entry in entries:
        wanted = not include or any(r.matches(entry) for r in include)
        if wanted and not any(r.matches(entry) for r in exclude):
            kept.append(entry)
        else:
            left.append(entry)
    return kept, left
