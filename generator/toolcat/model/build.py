"""Operations -> draft tools: names, descriptions, schemas, annotations, bindings.

Drafts get their final names, splits and texts in the overrides stage; names are
checked only after it, so an override can settle a clash.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..config import Selection
from ..errors import Problem, ToolcatError
from ..normalise.defs import Definitions
from ..vocab.mcp import MAX_NAME, NAME_RE
from .arguments import build_inputs
from .naming import name_from_route, tool_name
from .operations import Operation, operations
from .outputs import build_outputs
from .selection import Selected, select_operations
from .servers import credential_names, security, servers
from .size_limit import Budget
from .types import Binding, Exclusion, Tool

_READ = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True}
ANNOTATIONS: dict[str, dict[str, bool]] = {
    "GET": _READ, "HEAD": _READ, "OPTIONS": _READ, "TRACE": _READ,
    "PUT": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True},
    "DELETE": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True},
    "POST": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False},
    "PATCH": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False},
}


def describe(op: Operation) -> tuple[str | None, str]:
    summary = op.node.get("summary")
    summary = summary.strip() if isinstance(summary, str) and summary.strip() else None
    text = op.node.get("description")
    text = text.strip() if isinstance(text, str) and text.strip() else None
    if summary and text and not text.startswith(summary):
        return summary, f"{summary}\n\n{text}"
    return summary, text or summary or f"{op.method} {op.path}"


def draft_tool(defs: Definitions, op: Operation, name: str, open_world: bool,
               document: dict[str, Any]) -> Tool:
    requirements = security(defs, document, op.node)
    inputs = build_inputs(defs, op, credential_names(requirements))
    outputs = build_outputs(defs, op)
    input_schema = dict(inputs.schema)
    if inputs.defs:
        input_schema["$defs"] = defs.closure(inputs.defs, "input")
    output_schema = outputs.schema   # carries its own $defs (size policy: outputs.py)
    title, description = describe(op)
    annotations: dict[str, Any] = {**ANNOTATIONS[op.method], "openWorldHint": open_world}
    # A fragment in a path key (Box: /files/{file_id}#get_shared_link) keeps two
    # operations apart in the document; it is no part of the request path.
    binding = Binding(op.method, op.path.split("#", 1)[0], op.operation_id, op.pointer,
                      inputs.bindings, inputs.content_type, outputs.content_type, outputs.wrapper,
                      ignored=inputs.ignored, etag=outputs.etag,
                      servers=servers(defs.file, [(op.node.get("servers"), f"{op.pointer}/servers"),
                                                  op.item_servers,
                                                  (document.get("servers"), "/servers")],
                                      defs.memo),
                      security=requirements,
                      body_required=inputs.body_required)
    return Tool(name, title, description, input_schema, output_schema, annotations, binding)


def draft_tools(document: dict[str, Any], defs: Definitions, prefix: str,
                budget: int = MAX_NAME, open_world: bool = False,
                selection: Selection | None = None, size: Budget | None = None,
                notes: list[Problem] | None = None, leave_out: bool = False
                ) -> tuple[list[tuple[Operation, Tool]], list[Selected]]:
    """Drafts of the selected operations; the others with the rule that left each out.

    Selecting before drafting spares the schema work of every operation left out;
    ``size`` counts each draft against the catalog's size limit (size_limit.py).
    ``notes`` receives a located finding per operation whose operationId another
    operation shares (named from its method and path instead); with ``leave_out``
    (warn mode) an operation that cannot be drafted is left out with a finding.
    """
    every = list(operations(document, defs))
    notes = notes if notes is not None else []
    shared = _shared_ids(every, defs.file, notes)
    chosen, left_out = select_operations(every, selection)
    drafts, broken = [], []
    for op in chosen:
        name = tool_name(prefix, None if op.operation_id in shared else op.operation_id,
                         op.method, op.path, budget)
        try:
            tool = draft_tool(defs, op, name, open_world, document)
        except ToolcatError as exc:
            if not leave_out:
                raise
            broken.append(exc)
            left_out.append(_left_out(op, exc, notes))
            continue
        if size is not None:
            size.charge(tool)
        drafts.append((op, tool))
    if broken and not drafts:   # nothing would be left: a refusal, not an empty catalog
        raise broken[0]
    return drafts, left_out


def _left_out(op: Operation, exc: ToolcatError, notes: list[Problem]) -> Selected:
    """Warn mode: an operation whose own parts toolcat cannot use (a ``$ref: null`` in its
    schema) is left out, recorded in the catalog's exclusions and warned about where it
    broke, so the rest of the document still gives tools."""
    first = exc.problems[0]
    notes += [replace(p, message=f"{op.key} left out (validation: warn): {p.message}")
              for p in exc.problems]
    return Selected(op, Exclusion(op.key, f"validation: warn: left out, {first.location}: "
                                  f"{first.message}"))


def _shared_ids(every: list[Operation], file: str, notes: list[Problem]) -> frozenset[str]:
    """operationIds given to more than one operation (an upstream defect, Gitea's
    ``user_get_oauth2_application``): each of those operations is named from its method
    and path, a function of the set of operations, never of their order."""
    holders: dict[str, list[Operation]] = {}
    for op in every:
        if op.operation_id is not None:
            holders.setdefault(op.operation_id, []).append(op)
    shared = {oid: ops for oid, ops in holders.items() if len(ops) > 1}
    for oid, ops in sorted(shared.items()):
        routes = " and ".join(sorted(f"'{op.key}'" for op in ops))
        for op in ops:
            notes.append(Problem(file, f"{op.pointer}/operationId", f"operationId {oid!r} is "
                                 f"given to {routes}; each is named from its method and path "
                                 f"instead (this one: {name_from_route(op.method, op.path)!r})",
                                 "give each operation its own operationId (an overlay), or "
                                 "name the tools with overrides"))
    return frozenset(shared)


def check_names(tools: list[Tool], file: str, budget: int = MAX_NAME) -> list[Tool]:
    """Every name valid, within budget and unique; sorted by name."""
    problems = []
    seen: dict[str, Tool] = {}
    for tool in tools:
        binding = tool.binding
        if not NAME_RE.match(tool.name) or len(tool.name) > budget:
            problems.append(Problem(file, binding.pointer, f"tool name '{tool.name}' is not "
                                    f"1-{budget} of [A-Za-z0-9_-]", "set a name in overrides"))
        elif tool.name in seen:
            other = seen[tool.name].binding
            problems.append(Problem(file, binding.pointer, f"tool name '{tool.name}' is given "
                                    f"to both '{other.method} {other.path}' and "
                                    f"'{binding.method} {binding.path}'",
                                    "give one of them a name with an override"))
        seen[tool.name] = tool
    if problems:
        raise ToolcatError(problems)
    return sorted(tools, key=lambda t: t.name)
