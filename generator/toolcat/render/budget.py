"""Budgets: `max_tools` and `max_tokens` of a catalog or a toolset, held by generate and check.

A budget is judged on what clients are served (`size.py`'s `tools/list` of the catalog or
of the toolset), so the estimate is the one CATALOG.md prints. Over budget is an error at the
config line that sets it, naming the largest tools: the ones to leave out or trim first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..config import Budget, Target
from ..errors import Problem, ToolcatError
from .size import list_size


def _over(budget: Budget, label: str, tools: Sequence[dict[str, Any]]) -> Problem | None:
    size = list_size(tools)
    over = []
    if budget.max_tools is not None and size.tools > budget.max_tools:
        over.append(f"{size.tools} tools, more than max_tools {budget.max_tools}")
    if budget.max_tokens is not None and size.tokens > budget.max_tokens:
        over.append(f"about {size.tokens:,} tokens of tools/list, more than max_tokens "
                    f"{budget.max_tokens:,}")
    if not over:
        return None
    largest = ", ".join(f"{t.name} ({t.tokens:,} tokens)" for t in size.largest)
    return Problem(budget.file, budget.where, f"{label} is over its budget: "
                   + "; ".join(over) + f". Largest tools: {largest}",
                   "narrow the selection (include/exclude), or raise the budget")


def check_budgets(target: Target, catalog: dict[str, Any]) -> None:
    """Raise a located error for every budget the catalog (data of catalog.json) exceeds."""
    tools = [e["tool"] for e in catalog["tools"]]
    by_name = {t["name"]: t for t in tools}
    members = catalog.get("toolsets") or {}
    judged = [(target.budget, f"catalog {target.name}", tools)]
    judged += [(t.budget, f"toolset {t.name} of {target.name}",
                [by_name[n] for n in members.get(t.name, []) if n in by_name])
               for t in target.toolsets]
    problems = [p for budget, label, served in judged if budget is not None
                for p in [_over(budget, label, served)] if p is not None]
    if problems:
        raise ToolcatError(problems)
