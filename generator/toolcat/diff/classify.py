"""Classify every difference between two catalogs as breaking or compatible for callers.

Breaking: a tool or argument removed (a rename is a removal and an addition), an
argument newly required, an input type narrowed or changed, an enum value
removed, an output property removed or retyped, the HTTP binding changed, or a
hint or write semantics that now promise more danger. Compatible: additions,
widenings, text, and hints toward less danger. A field this module does not
know is reported as breaking, naming it, rather than passed over.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..catalog.reader import CatalogView, ToolRecord
from ..text.escape import code
from ..vocab.mcp import HINT_DEFAULTS
from .schemas import BREAKING, COMPATIBLE, Found, compare_schemas, show

# The value of each hint that promises more danger.
_DANGER = {"readOnlyHint": False, "destructiveHint": True, "idempotentHint": False,
           "openWorldHint": True}
# MCP's defaults for absent hints, and the value that promises more danger.
HINTS: dict[str, tuple[bool, bool]] = {name: (HINT_DEFAULTS[name], _DANGER[name])
                                       for name in HINT_DEFAULTS}
TOOL_FIELDS = frozenset({"name", "title", "description", "inputSchema", "outputSchema",
                         "annotations"})
# Binding fields whose change sends the same call somewhere else, or reads its answer
# differently: an MCP server built for the old binding no longer works.
WIRE_FIELDS = ("method", "path", "requestContentType", "responseContentType",
               "outputWrapper", "servers", "security")
# Added in format 2: a format-1 side has no opinion on them, so they are compared only
# when both sides carry them.
FORMAT_2_FIELDS = frozenset({"servers", "security"})
ARGUMENT_WIRE = ("in", "name", "style", "explode", "allowReserved", "contentType")
BINDING_FIELDS = frozenset({*WIRE_FIELDS, "operationId", "arguments", "semantics",
                            "ignoredParameters", "responseETag", "omittedFields",
                            "bodyRequired"})
FULL_REPLACE = "full-replace"


@dataclass(frozen=True)
class Change:
    tool: str
    severity: str          # breaking | compatible
    kind: str              # e.g. argument-removed, enum-value-removed, binding-changed
    subject: str           # what changed: "tool", "argument `x`", "output property `y`"
    detail: str

    @property
    def breaking(self) -> bool:
        return self.severity == BREAKING

    def message(self) -> str:
        return f"{self.tool}: {self.subject}: {self.detail}"


@dataclass(frozen=True)
class ToolDiff:
    name: str
    status: str            # added | removed | changed
    changes: tuple[Change, ...]

    @property
    def breaking(self) -> int:
        return sum(c.breaking for c in self.changes)


@dataclass(frozen=True)
class CatalogDiff:
    label: str
    name: str
    old_count: int | None  # None: the catalog does not exist on that side
    new_count: int | None
    tools: tuple[ToolDiff, ...]

    @property
    def changes(self) -> list[Change]:
        return [c for t in self.tools for c in t.changes]

    @property
    def breaking(self) -> int:
        return sum(c.breaking for c in self.changes)

    @property
    def compatible(self) -> int:
        return len(self.changes) - self.breaking

    def status_count(self, status: str) -> int:
        return sum(t.status == status for t in self.tools)


def diff_catalogs(old: CatalogView | None, new: CatalogView | None, label: str = ""
                  ) -> CatalogDiff:
    old_tools = old.tools if old else {}
    new_tools = new.tools if new else {}
    name = new.name if new else old.name if old else ""
    if old and new and old.digest and old.digest == new.digest \
            and old_tools.keys() == new_tools.keys():
        # The digest covers what clients see, not the bindings: only those need a look.
        names = sorted(n for n in new_tools if old_tools[n].binding != new_tools[n].binding)
    else:
        names = sorted(set(old_tools) | set(new_tools))
    renamed = _renames(old_tools, new_tools)
    tools = []
    for tool in names:
        if tool not in new_tools:
            hint = renamed.get(tool)
            detail = "removed" + (f" (its operation is now tool {code(hint)}: a rename "
                                  "breaks callers that use the old name)" if hint else "")
            tools.append(ToolDiff(tool, "removed",
                                  (Change(tool, BREAKING, "tool-removed", "tool", detail),)))
        elif tool not in old_tools:
            tools.append(ToolDiff(tool, "added",
                                  (Change(tool, COMPATIBLE, "tool-added", "tool", "added"),)))
        elif old_tools[tool] != new_tools[tool]:
            changes = compare_tool(tool, old_tools[tool], new_tools[tool])
            tools.append(ToolDiff(tool, "changed", tuple(changes)))
    side = new or old
    return CatalogDiff(label or (side.label if side else ""), name,
                       len(old.tools) if old else None, len(new.tools) if new else None,
                       tuple(t for t in tools if t.changes))


def _renames(old: dict[str, ToolRecord], new: dict[str, ToolRecord]) -> dict[str, str]:
    """Removed tool -> added tool bound to the same method and path."""
    added = {_operation(r): n for n, r in sorted(new.items()) if n not in old}
    return {n: added[_operation(r)] for n, r in old.items()
            if n not in new and _operation(r) in added}


def _operation(record: ToolRecord) -> str:
    return f"{record.binding.get('method')} {record.binding.get('path')}"


def compare_tool(name: str, old: ToolRecord, new: ToolRecord) -> list[Change]:
    changes: list[Change] = []
    add = changes.append
    was, now = old.tool, new.tool
    for key in ("title", "description"):
        if was.get(key) != now.get(key):
            how = "added" if key not in was else "removed" if key not in now else "changed"
            detail = f"{key} {how}"
            if key == "title":
                detail += f": {show(was.get(key))} -> {show(now.get(key))}"
            add(Change(name, COMPATIBLE, f"{key}-changed", "tool", detail))
    changes += _annotations(name, was.get("annotations") or {}, now.get("annotations") or {})
    changes += _schema_changes(name, was["inputSchema"], now["inputSchema"], "input")
    changes += _output(name, was.get("outputSchema"), now.get("outputSchema"))
    changes += _binding(name, old, new)
    for key in sorted((set(was) | set(now)) - TOOL_FIELDS):
        if was.get(key) != now.get(key):
            add(Change(name, BREAKING, "tool-field-changed", f"tool field {code(key)}",
                       f"{show(was.get(key))} -> {show(now.get(key))} "
                       "(unclassified; review it)"))
    return sorted(changes, key=lambda c: not c.breaking)


def _annotations(name: str, was: dict[str, Any], now: dict[str, Any]) -> list[Change]:
    out = []
    for key in sorted(set(was) | set(now)):
        if key in HINTS:
            default, danger = HINTS[key]
            before, after = was.get(key, default), now.get(key, default)
            if before == after:
                continue
            if isinstance(before, bool) and isinstance(after, bool):
                more = after == danger
                out.append(Change(name, BREAKING if more else COMPATIBLE, "annotation-changed",
                                  f"annotation {code(key)}",
                                  f"{show(before)} -> {show(after)} "
                                  f"({'more' if more else 'less'} danger)"))
                continue
        elif was.get(key) == now.get(key):
            continue
        elif key == "title":
            out.append(Change(name, COMPATIBLE, "title-changed", "annotation `title`",
                              f"{show(was.get(key))} -> {show(now.get(key))}"))
            continue
        out.append(Change(name, BREAKING, "annotation-changed", f"annotation {code(key)}",
                          f"{show(was.get(key))} -> {show(now.get(key))} "
                          "(unclassified; review it)"))
    return out


def _schema_changes(name: str, was: dict[str, Any], now: dict[str, Any],
                    direction: str) -> list[Change]:
    found = compare_schemas(was, now, "input" if direction == "input" else "output")
    return [_change(name, f, direction) for f in found]


def _change(name: str, found: Found, direction: str) -> Change:
    where = _path(found.path)
    if direction == "input":
        subject = f"argument {code(where)}" if where else "input schema"
    else:
        subject = f"output property {code(where)}" if where else "output"
    return Change(name, found.severity, found.kind, subject, found.detail)


def _path(parts: tuple[str, ...]) -> str:
    text = ""
    for part in parts:
        joined = part.startswith(("[", "{", " ("))
        text += part if joined or not text else f".{part}"
    return text


def _output(name: str, was: Any, now: Any) -> list[Change]:
    if was == now:
        return []
    if was is None:
        return [Change(name, COMPATIBLE, "output-added", "output", "outputSchema added")]
    if now is None:
        return [Change(name, BREAKING, "output-removed", "output",
                       "outputSchema removed: callers get no structured result")]
    return _schema_changes(name, was, now, "output")


def _binding(name: str, old: ToolRecord, new: ToolRecord) -> list[Change]:
    was, now = old.binding, new.binding
    out = []
    for key in WIRE_FIELDS:
        if key in FORMAT_2_FIELDS and (key not in was or key not in now):
            continue
        if key == "security" and was.get(key) != now.get(key):
            out += _security(name, was.get(key) or [], now.get(key) or [])
        elif was.get(key) != now.get(key):
            out.append(Change(name, BREAKING, "binding-changed", "binding",
                              f"{key} {show(was.get(key))} -> {show(now.get(key))}"))
    out += _argument_bindings(name, old, new)
    if was.get("semantics") != now.get("semantics"):
        more = now.get("semantics") == FULL_REPLACE
        out.append(Change(name, BREAKING if more else COMPATIBLE, "semantics-changed",
                          "write semantics",
                          f"{show(was.get('semantics'))} -> {show(now.get('semantics'))}"
                          + (" (omitted fields are now cleared)" if more else "")))
    if was.get("responseETag") != now.get("responseETag"):
        lost = bool(was.get("responseETag")) and not now.get("responseETag")
        out.append(Change(name, BREAKING if lost else COMPATIBLE, "etag-changed", "binding",
                          "the response no longer declares an ETag" if lost
                          else "the response now declares an ETag"))
    if bool(was.get("bodyRequired")) != bool(now.get("bodyRequired")):   # format 1: absent
        more = bool(now.get("bodyRequired"))
        out.append(Change(name, BREAKING if more else COMPATIBLE, "body-required-changed",
                          "binding", "a request body is now required (send {} without body "
                          "arguments)" if more else "the request body is now optional"))
    if was.get("operationId") != now.get("operationId"):
        out.append(Change(name, COMPATIBLE, "operation-id-changed", "binding",
                          f"operationId {show(was.get('operationId'))} -> "
                          f"{show(now.get('operationId'))}"))
    for key, kind in (("ignoredParameters", "ignored-parameters-changed"),
                      ("omittedFields", "omitted-fields-changed")):
        if was.get(key) != now.get(key):
            out.append(Change(name, COMPATIBLE, kind, "binding",
                              f"{key} {show(was.get(key))} -> {show(now.get(key))}"))
    for key in sorted((set(was) | set(now)) - BINDING_FIELDS):
        if was.get(key) != now.get(key):
            out.append(Change(name, BREAKING, "binding-changed", f"binding field {code(key)}",
                              f"{show(was.get(key))} -> {show(now.get(key))} "
                              "(unclassified; review it)"))
    return out


def _security(name: str, was: list[list[dict[str, Any]]], now: list[list[dict[str, Any]]]
              ) -> list[Change]:
    """Security by scheme: each scheme added or removed is one change, worded the same for
    every tool (so a report can group them); anything else names the alternatives."""
    def schemes(alternatives: list[list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
        return {s["id"]: s for alt in alternatives for s in alt if isinstance(s, dict)}
    old, new = schemes(was), schemes(now)
    out = [Change(name, BREAKING, "security-scheme-added", "security",
                  f"security scheme {code(sid)} ({new[sid].get('type', '?')}) added")
           for sid in sorted(set(new) - set(old))]
    out += [Change(name, BREAKING, "security-scheme-removed", "security",
                   f"security scheme {code(sid)} removed") for sid in sorted(set(old) - set(new))]
    if not out:
        alternatives = " or ".join("+".join(s["id"] for s in alt) or "none" for alt in now)
        out.append(Change(name, BREAKING, "security-changed", "security",
                          f"requirements now {alternatives or 'none'}"))
    return out


def _argument_bindings(name: str, old: ToolRecord, new: ToolRecord) -> list[Change]:
    was, now = old.binding["arguments"], new.binding["arguments"]
    old_args = set(old.tool["inputSchema"].get("properties") or {})
    new_args = set(new.tool["inputSchema"].get("properties") or {})
    out = []
    for arg in sorted(set(was) | set(now)):
        subject = f"argument {code(arg)}"
        if arg not in now or arg not in was:
            # An argument that left (or joined) the schema too is reported there.
            if (arg in old_args) != (arg in new_args):
                continue
            out.append(Change(name, BREAKING, "binding-changed", subject,
                              "binding removed" if arg not in now else "binding added"))
            continue
        for key in ARGUMENT_WIRE:
            if was[arg].get(key) != now[arg].get(key):
                out.append(Change(name, BREAKING, "binding-changed", subject,
                                  f"{_WIRE_WORDS[key]} {show(was[arg].get(key))} -> "
                                  f"{show(now[arg].get(key))}"))
        for key in sorted((set(was[arg]) | set(now[arg])) - set(ARGUMENT_WIRE)):
            if was[arg].get(key) != now[arg].get(key):
                out.append(Change(name, BREAKING, "binding-changed", subject,
                                  f"{key} {show(was[arg].get(key))} -> "
                                  f"{show(now[arg].get(key))} (unclassified; review it)"))
    return out


_WIRE_WORDS = {"in": "location", "name": "wire name", "style": "style", "explode": "explode",
               "allowReserved": "allowReserved", "contentType": "content type"}
