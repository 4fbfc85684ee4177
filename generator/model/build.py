"""Operations -> tools: names, descriptions, schemas, annotations, bindings."""

from __future__ import annotations

from typing import Any

from generator.errors import Problem, ToolcatError
from generator.model.arguments import build_inputs
from generator.model.naming import MAX_NAME, NAME_RE, tool_name
from generator.model.operations import Operation, operations
from generator.model.outputs import build_outputs
from generator.model.types import Binding, Tool
from generator.normalise.defs import Definitions

_READ = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True}
ANNOTATIONS: dict[str, dict[str, bool]] = {
    "GET": _READ, "HEAD": _READ, "OPTIONS": _READ, "TRACE": _READ,
    "PUT": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True},
    "DELETE": {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": True},
    "POST": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False},
    "PATCH": {"readOnlyHint": False, "destructiveHint": False, "idempotentHint": False},
}


ETAG_SENTENCE = ("\n\nThe response's ETag header carries the current version of the "
                 "resource; pass it as `ifMatch` to update it only if it is unchanged.")


def describe(op: Operation) -> tuple[str | None, str]:
    summary = op.node.get("summary")
    summary = summary.strip() if isinstance(summary, str) and summary.strip() else None
    text = op.node.get("description")
    text = text.strip() if isinstance(text, str) and text.strip() else None
    if summary and text and not text.startswith(summary):
        return summary, f"{summary}\n\n{text}"
    return summary, text or summary or f"{op.method} {op.path}"


def build_tool(defs: Definitions, op: Operation, name: str, open_world: bool) -> Tool:
    inputs = build_inputs(defs, op)
    outputs = build_outputs(defs, op)
    input_schema = dict(inputs.schema)
    if inputs.defs:
        input_schema["$defs"] = defs.closure(inputs.defs, "input")
    output_schema = outputs.schema
    if output_schema is not None and outputs.defs:
        output_schema = {**output_schema, "$defs": defs.closure(outputs.defs, "output")}
    title, description = describe(op)
    if outputs.etag:
        description += ETAG_SENTENCE
    annotations: dict[str, Any] = {**ANNOTATIONS[op.method], "openWorldHint": open_world}
    binding = Binding(op.method, op.path, op.operation_id, op.pointer, inputs.bindings,
                      inputs.content_type, outputs.content_type, outputs.wrapper,
                      ignored=inputs.ignored, etag=outputs.etag)
    return Tool(name, title, description, input_schema, output_schema, annotations, binding)


def build_tools(document: dict[str, Any], defs: Definitions, prefix: str,
                budget: int = MAX_NAME, open_world: bool = False) -> list[Tool]:
    ops = list(operations(document, defs))
    named: dict[str, Operation] = {}
    problems = []
    for op in ops:
        name = tool_name(prefix, op.operation_id, op.method, op.path, budget)
        if not NAME_RE.match(name):
            problems.append(Problem(defs.file, op.pointer, f"tool name '{name}' is invalid",
                                    "set a name with an override"))
        elif name in named:
            other = named[name]
            problems.append(Problem(defs.file, op.pointer,
                                    f"tool name '{name}' is derived from both "
                                    f"'{other.key}' and '{op.key}'",
                                    "give one of them a name with an override"))
        named[name] = op
    if problems:
        raise ToolcatError(problems)
    tools = [build_tool(defs, op, name, open_world) for name, op in named.items()]
    return sorted(tools, key=lambda t: t.name)
