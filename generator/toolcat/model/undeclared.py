"""Credentials a document does not declare (issue 22 item 2).

Vendor documents often declare no security at all although the API needs a token.
A catalog's ``undeclared_credentials:`` names, per credential, where it goes (a
header, query parameter or cookie, and its wire name) and the environment variable
that holds it; every tool (or those its ``include:`` selects) whose operation
declares no security requirement gets one: the binding's ``security`` becomes a
single alternative of these schemes, each recorded as ``type: apiKey`` with
``in``, ``name``, the variable as ``env`` and ``declared: false`` (never a value).
``toolcat serve``, ``verify`` and a user's own runtime read it like a declared
scheme; an operation that declares its own security keeps it.

Checked like selectors: an entry that reaches no tool is an error naming its line.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..config import UndeclaredCredential
from ..errors import Problem, ToolcatError
from .operations import Operation
from .selection import matches
from .types import Tool


def scheme_of(entry: UndeclaredCredential) -> dict[str, Any]:
    """The binding's description of ``entry``: where it goes and which variable holds it."""
    return {"id": entry.scheme, "type": "apiKey", "in": entry.location, "name": entry.name,
            "env": entry.env, "declared": False}


def add_undeclared(drafts: list[tuple[Operation, Tool]],
                   entries: tuple[UndeclaredCredential, ...]
                   ) -> list[tuple[Operation, Tool]]:
    """``drafts`` with every entry's credential on the tools it is for."""
    if not entries:
        return drafts
    reached = [False] * len(entries)
    out = []
    for op, tool in drafts:
        if tool.binding.security:    # the document says what this operation needs
            out.append((op, tool))
            continue
        schemes = []
        for i, entry in enumerate(entries):
            if entry.include is None or matches(op, entry.include):
                reached[i] = True
                schemes.append(scheme_of(entry))
        out.append((op, replace(tool, binding=replace(tool.binding, security=(tuple(schemes),)))
                    if schemes else tool))
    problems = [Problem(entry.file, entry.line,
                        f"undeclared credential '{entry.scheme}' reaches no tool: every "
                        "tool it selects declares its own security, or none is selected",
                        "correct its include:, or remove the entry")
                for entry, hit in zip(entries, reached, strict=True) if not hit]
    if problems:
        raise ToolcatError(problems)
    return out
