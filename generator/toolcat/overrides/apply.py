"""Apply the override file to the drafted tools, checking every name it uses."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import Problem, ToolcatError, nearest
from ..model.operations import Operation
from ..model.selection import Selected, matches
from ..model.types import ArgumentBinding, Exclusion, Tool
from ..model.wire import body_dependencies
from ..parse.lines import Lines, line_of
from ..vocab.mcp import IF_MATCH
from ..vocab.pointers import defs_referenced
from .semantics import (
    ANNOTATIONS,
    ETAG_SENTENCE,
    IF_MATCH_DESCRIPTION,
    SENTENCES,
    Semantics,
)

if TYPE_CHECKING:   # the pydantic models: imported where an override file is read
    from .schema import (
        AllOperations,
        ArgumentOverride,
        OperationOverride,
        OverrideFile,
        ToolShape,
    )

Draft = tuple[Operation, Tool]


class _Context:
    def __init__(self, file: str, lines: Lines) -> None:
        self.file = file
        self.lines = lines
        self.problems: list[Problem] = []

    def error(self, loc: tuple[str | int, ...], message: str, fix: str) -> None:
        self.problems.append(Problem(self.file, line_of(self.lines, loc), message, fix))


def _select(drafts: list[Draft], overrides: OverrideFile, ctx: _Context,
            left_out: list[Selected]) -> dict[str, tuple[str, OperationOverride]]:
    """Map each operation key to the override entry that selects it."""
    by_id = {op.operation_id: op for op, _ in drafts if op.operation_id}
    by_route = {op.key: op for op, _ in drafts}
    unselected = {name: s.exclusion for s in left_out
                  for name in (s.operation.operation_id, s.operation.key) if name}
    chosen: dict[str, tuple[str, OperationOverride]] = {}
    for selector, entry in overrides.operations.items():
        method, _, path = selector.partition(" ")
        op = by_id.get(selector) or by_route.get(f"{method.upper()} {path}")
        gone = unselected.get(selector) or unselected.get(f"{method.upper()} {path}")
        if op is None and gone is not None:
            ctx.error(("operations", selector), f"override '{selector}' names "
                      f"{gone.operation}, which the catalog's selection leaves out "
                      f"({gone.reason.removeprefix('selection: ')})",
                      "remove the override, or select the operation in the config")
        elif op is None:
            ctx.error(("operations", selector), f"override '{selector}' matches no operation"
                      f"{nearest(selector, [*by_id, *by_route])}",
                      "use an operationId or 'METHOD /path' from the spec; remove overrides "
                      "of operations the spec no longer has")
        elif op.key in chosen:
            ctx.error(("operations", selector), f"'{selector}' selects {op.key}, already "
                      f"selected by '{chosen[op.key][0]}'", "merge the two entries")
        else:
            chosen[op.key] = (selector, entry)
    return chosen


def apply_overrides(drafts: list[Draft], overrides: OverrideFile | None, file: str,
                    lines: Lines, left_out: list[Selected] | None = None
                    ) -> tuple[list[Tool], list[Exclusion]]:
    """Tools and exclusions (``left_out``: operations the selection excluded)."""
    left_out = left_out or []
    ctx = _Context(file, lines)
    chosen = _select(drafts, overrides, ctx, left_out) if overrides else {}
    tools: list[Tool] = []
    exclusions: list[Exclusion] = [s.exclusion for s in left_out]
    shared = _Shared(overrides.all_operations if overrides else [])
    for op, tool in drafts:
        own = chosen.get(op.key)
        entry = shared.merged(op, tool, own[1] if own else None)
        if entry is None:
            tools.append(_finish(tool, None, None))
            continue
        selector = own[0] if own else op.key
        if entry.exclude is not None:
            _check_exclude_alone(entry, ("operations", selector), ctx)
            exclusions.append(Exclusion(op.key, entry.exclude))
            continue
        tools.extend(_apply(op, tool, entry, ("operations", selector), ctx))
    shared.report_unused(ctx)
    if ctx.problems:
        raise ToolcatError(ctx.problems)
    return tools, sorted(exclusions, key=lambda e: e.operation)


class _Shared:
    """``all_operations`` entries: which tools they reach, and which reach none."""

    def __init__(self, entries: list[AllOperations]) -> None:
        self.entries = [(e.where.selector() if e.where else None, e) for e in entries]
        self.used: set[tuple[int, str]] = set()

    def merged(self, op: Operation, tool: Tool,
               own: OperationOverride | None) -> OperationOverride | None:
        """The operation's entry with the shared argument changes that reach it."""
        if own is not None and own.exclude is not None:
            return own
        changes: dict[str, ArgumentOverride] = {}
        props = tool.input_schema.get("properties", {})
        for i, (where, entry) in enumerate(self.entries):
            if where is not None and not matches(op, where):
                continue
            for name, change in entry.arguments.items():
                if name in props:
                    self.used.add((i, name))
                    changes.setdefault(name, change)   # the first entry that names it
        if not changes:
            return own
        if own is None:
            from .schema import OperationOverride  # noqa: PLC0415 - a file was read

            return OperationOverride(arguments=changes)
        return own.model_copy(update={"arguments": {**changes, **own.arguments}})

    def report_unused(self, ctx: _Context) -> None:
        for i, (_, entry) in enumerate(self.entries):
            for name in entry.arguments:
                if (i, name) not in self.used:
                    ctx.error(("all_operations", i, "arguments", name),
                              f"all_operations[{i}] argument '{name}' is on no tool it "
                              "selects", "remove it, or correct the argument name or where:")


def _check_exclude_alone(entry: OperationOverride, loc: tuple[str, ...], ctx: _Context) -> None:
    others = sorted(k for k in entry.model_fields_set if k != "exclude")
    if others:
        ctx.error((*loc, "exclude"), f"an excluded operation cannot also set {others}",
                  "remove the other keys or the exclusion")


def _body_fields(tool: Tool) -> dict[str, str]:
    """Flattened body fields: wire name -> argument name."""
    return {b.wire_name: b.argument for b in tool.binding.arguments
            if b.location == "body" and b.wire_name is not None}


def _apply(op: Operation, tool: Tool, entry: OperationOverride, loc: tuple[str, ...],
           ctx: _Context) -> list[Tool]:
    before = len(ctx.problems)
    tool = _arguments(tool, entry, loc, ctx)
    fields = _body_fields(tool)
    for name in entry.omit:
        if name not in fields:
            ctx.error((*loc, "omit", name), f"omit names '{name}', not a body field of "
                      f"{op.key}{nearest(name, fields)}", "name a field of the request body")
    parts: list[ToolShape] = list(entry.split) if entry.split else [entry]
    assigned: set[str] = set(entry.omit)
    for i, part in enumerate(parts):
        where: tuple[str | int, ...] = (*loc, "split", i, "fields") if entry.split else (
            *loc, "fields")
        for name in part.fields if part.fields is not None else sorted(set(fields) - set(
                entry.omit)):
            if name not in fields:
                ctx.error(where, f"field '{name}' is not a body field of {op.key}"
                          f"{nearest(name, fields)}", "name a field of the request body")
            assigned.add(name)
    for name in sorted(set(fields) - assigned):
        ctx.error((*loc, "split" if entry.split else "fields"),
                  f"body field '{name}' of {op.key} is on no tool and not omitted",
                  f"add '{name}' to a tool's fields, or list it under omit with a reason")
    if len(ctx.problems) > before:
        return []
    omitted = tuple(sorted(entry.omit.items()))
    return [_finish(_shape(tool, entry, part, fields), entry, part, omitted) for part in parts]


def _if_match_mode(entry: OperationOverride, part: ToolShape) -> str | None:
    return part.if_match or entry.if_match


def _arguments(tool: Tool, entry: OperationOverride, loc: tuple[str, ...],
               ctx: _Context) -> Tool:
    schema = copy.deepcopy(tool.input_schema)
    props: dict[str, Any] = schema["properties"]
    required = set(schema.get("required", []))
    bindings = {b.argument: b for b in tool.binding.arguments}
    for name, change in entry.arguments.items():
        if name not in props:
            ctx.error((*loc, "arguments", name), f"tool {tool.name} has no argument "
                      f"'{name}'{nearest(name, props)}", f"arguments: {', '.join(props)}")
            continue
        if change.description is not None:
            props[name] = {**props[name], "description": change.description}
        if change.required is not None:
            required = required | {name} if change.required else required - {name}
        if change.rename and change.rename != name:
            if change.rename in props:
                ctx.error((*loc, "arguments", name, "rename"), f"'{change.rename}' is "
                          "already an argument", "choose another name")
                continue
            props[change.rename] = props.pop(name)
            required = {change.rename if r == name else r for r in required}
            _rename_dependent(schema, name, change.rename)
            bindings[change.rename] = dataclasses.replace(bindings.pop(name),
                                                          argument=change.rename)
    return _with_arguments(tool, schema, props, required, bindings.values())


def _with_arguments(tool: Tool, schema: dict[str, Any], props: dict[str, Any],
                    required: set[str], bindings: Iterable[ArgumentBinding]) -> Tool:
    schema["properties"] = dict(sorted(props.items()))
    schema.pop("required", None)
    if required:
        schema["required"] = sorted(required)
    _prune_dependent(schema)
    schema = _ordered(_prune_defs(schema))
    binding = dataclasses.replace(tool.binding, arguments=tuple(
        sorted(bindings, key=lambda b: b.argument)))
    return dataclasses.replace(tool, input_schema=schema, binding=binding)


def _rename_dependent(schema: dict[str, Any], old: str, new: str) -> None:
    """Keep ``dependentRequired`` (an optional body's rule) in step with a rename."""
    rules = schema.get("dependentRequired")
    if rules:
        named = {n for v in rules.values() for n in v}
        schema["dependentRequired"] = body_dependencies(
            [new if k == old else k for k in rules],
            [new if n == old else n for n in named])


def _prune_dependent(schema: dict[str, Any]) -> None:
    """Drop ``dependentRequired`` names a narrowed tool no longer has, and state the
    rule again over the rest (its representative may be gone): the required names
    are those any rule lists (``wire.body_dependencies``)."""
    rules = schema.pop("dependentRequired", None)
    if not rules:
        return
    props = schema["properties"]
    needed = sorted({n for v in rules.values() for n in v if n in props})
    kept = body_dependencies([k for k in rules if k in props], needed)
    if kept:
        schema["dependentRequired"] = kept


def _if_match(tool: Tool, *, required: bool) -> Tool:
    schema = copy.deepcopy(tool.input_schema)
    props = schema["properties"]
    bindings = {b.argument: b for b in tool.binding.arguments}
    if IF_MATCH not in props:
        props[IF_MATCH] = {"type": "string", "description": IF_MATCH_DESCRIPTION}
        bindings[IF_MATCH] = ArgumentBinding(IF_MATCH, "header", "If-Match", "simple", False)
    req = set(schema.get("required", []))
    req = req | {IF_MATCH} if required else req - {IF_MATCH}
    return _with_arguments(tool, schema, props, req, bindings.values())


def _shape(tool: Tool, entry: OperationOverride, part: ToolShape,
           fields: dict[str, str]) -> Tool:
    keep = set(part.fields) if part.fields is not None else set(fields) - set(entry.omit)
    drop = {arg for wire, arg in fields.items() if wire not in keep}
    schema = copy.deepcopy(tool.input_schema)
    props = {k: v for k, v in schema["properties"].items() if k not in drop}
    required = set(schema.get("required", [])) - drop
    if part.require_all_body_fields or entry.require_all_body_fields:
        required |= {fields[w] for w in keep}
    bindings = [b for b in tool.binding.arguments if b.argument not in drop]
    shaped = _with_arguments(tool, schema, props, required, bindings)
    mode = _if_match_mode(entry, part)
    return _if_match(shaped, required=mode == "required") if mode else shaped


def _finish(tool: Tool, entry: OperationOverride | None, part: ToolShape | None,
            omitted: tuple[tuple[str, str], ...] = ()) -> Tool:
    """Name, text, semantics and annotations; the ETag sentence for every tool."""
    # Without a split the entry is its own only part: apply it once.
    layers = [x for x in (entry, part if part is not entry else None) if x is not None]
    if not layers and tool.binding.semantics is None and tool.binding.omitted == omitted:
        return _plain(tool)
    name, title, description = tool.name, tool.title, tool.description
    semantics: Semantics | None = None
    annotations = dict(tool.annotations)
    appended: list[str] = []
    for layer in layers:
        name = layer.name or name
        title = layer.title or title
        description = layer.description or description
        if layer.append_description:
            appended.append(layer.append_description.strip())
        semantics = layer.semantics or semantics
    if semantics is not None:
        annotations.update(ANNOTATIONS[semantics])
        appended.append(SENTENCES[semantics])
    for layer in layers:
        if layer.annotations is not None:
            annotations.update(layer.annotations.model_dump(exclude_none=True))
    if tool.binding.etag:
        appended.append(ETAG_SENTENCE)
    text = "\n\n".join([description.strip(), *appended])
    binding = dataclasses.replace(tool.binding, semantics=semantics.value if semantics else None,
                                  omitted=omitted)
    return dataclasses.replace(tool, name=name, title=title, description=text,
                               annotations=annotations, binding=binding)


def _plain(tool: Tool) -> Tool:
    """``_finish`` of a tool no override reaches: its text with the ETag sentence; the
    same tool when that changes nothing (GitHub: 1,223 tools, 2,446 dataclass copies)."""
    text = "\n\n".join([tool.description.strip(),
                         *([ETAG_SENTENCE] if tool.binding.etag else [])])
    return tool if text == tool.description else dataclasses.replace(tool, description=text)


def _prune_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """Drop $defs no remaining property reaches (after a split narrowed the tool)."""
    defs = schema.get("$defs")
    if not defs:
        return schema
    reached: set[str] = set()
    todo = defs_referenced(schema["properties"])
    while todo:
        name = todo.pop()
        if name in reached or name not in defs:
            continue
        reached.add(name)
        todo |= defs_referenced(defs[name])
    schema = dict(schema)
    kept = {k: v for k, v in defs.items() if k in reached}
    if kept:
        schema["$defs"] = kept
    else:
        schema.pop("$defs")
    return schema


def _ordered(schema: dict[str, Any]) -> dict[str, Any]:
    order = ("type", "properties", "required", "dependentRequired", "additionalProperties",
             "$defs")
    return {k: schema[k] for k in order if k in schema}
