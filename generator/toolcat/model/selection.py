"""Which operations become tools: a catalog's ``include:`` and ``exclude:`` selectors.

A selector has up to four kinds of value: ``tags`` (exact), ``paths`` (glob on
the path template), ``methods`` (case-insensitive) and ``operations`` (glob on
the operationId). An operation matches a selector when, for every kind the
selector names, one of its values matches (any value within a kind, all kinds).
Without ``include`` every operation is included; ``exclude`` then removes.

Every value must match some operation of the spec: a selector left behind by a
spec change is an error naming it, like a stale override, never a silent no-op.
Each operation left out is listed in ``catalog.exclusions`` with the rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from ..config import Selection, Selector, Toolset
from ..errors import Problem, ToolcatError
from .operations import Operation
from .types import Exclusion, Tool


@dataclass(frozen=True)
class Selected:
    """An operation the selection left out, and the rule that did."""

    operation: Operation
    exclusion: Exclusion


def _matches_value(op: Operation, kind: str, value: str) -> bool:
    if kind == "tags":
        tags = op.node.get("tags")
        return isinstance(tags, list) and value in tags
    if kind == "paths":
        return fnmatchcase(op.path, value)
    if kind == "methods":
        return op.method == value.upper()
    return op.operation_id is not None and fnmatchcase(op.operation_id, value)


def matches(op: Operation, selector: Selector) -> bool:
    return all(any(_matches_value(op, kind, v) for v in selector.values(kind))
               for kind in selector.kinds())


def _stale(ops: list[Operation], selection: Selection) -> list[Problem]:
    problems = []
    for side, selector in (("include", selection.include), ("exclude", selection.exclude)):
        if selector is None:
            continue
        for kind in selector.kinds():
            for i, value in enumerate(selector.values(kind)):
                if not any(_matches_value(op, kind, value) for op in ops):
                    problems.append(Problem(
                        selection.file, selection.line(f"{side}.{kind}.{i}"),
                        f"selector {side}.{kind} '{value}' matches no operation of the spec",
                        "remove it, or correct it to a value the spec has"
                        + _known(ops, kind)))
    return problems


def _known(ops: Iterable[Operation], kind: str) -> str:
    if kind != "tags":
        return ""
    tags = sorted({t for op in ops for t in op.node.get("tags") or [] if isinstance(t, str)})
    return f" (tags in the spec: {', '.join(tags)})" if tags else " (the spec has no tags)"


def select_operations(ops: list[Operation], selection: Selection | None
                      ) -> tuple[list[Operation], list[Selected]]:
    """The operations that become tools, and every other one with the rule that left it out."""
    if selection is None:
        return ops, []
    problems = _stale(ops, selection)
    if problems:
        raise ToolcatError(problems)
    kept: list[Operation] = []
    excluded: list[Selected] = []
    for op in ops:
        if selection.include is not None and not matches(op, selection.include):
            excluded.append(Selected(op, Exclusion(op.key, "selection: not matched by include "
                                                   + selection.include.describe())))
        elif selection.exclude is not None and matches(op, selection.exclude):
            excluded.append(Selected(op, Exclusion(op.key, "selection: matched by exclude "
                                                   + selection.exclude.describe())))
        else:
            kept.append(op)
    if not kept:
        raise ToolcatError([Problem(selection.file, selection.line("include"),
                                    "the selection leaves no operation of the spec",
                                    "widen include or narrow exclude")])
    return kept, excluded


def toolset_members(toolsets: Sequence[Toolset], drafts: Sequence[tuple[Operation, Tool]],
                    tools: Sequence[Tool]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each toolset's tools, by name: the catalog's operations its selectors keep (matched
    like ``include:``/``exclude:``, a stale value an error), as the tools they became."""
    ops = [op for op, _ in drafts]
    pointer = {id(op): tool.binding.pointer for op, tool in drafts}
    found = []
    for toolset in toolsets:
        kept, _ = select_operations(ops, toolset.selection)
        chosen = {pointer[id(op)] for op in kept}
        found.append((toolset.name, tuple(sorted(t.name for t in tools
                                                 if t.binding.pointer in chosen))))
    return tuple(found)
