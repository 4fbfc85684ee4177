"""Parity: does the server advertise exactly the catalog's tools? Pure functions.

For every catalog tool: the server lists a tool of that name (after the name
map); the same argument names; each argument's type (``resolution.py``), enum
and required-ness; ``additionalProperties: false``; the four annotations with
their protocol defaults; an outputSchema where the catalog has one. Tools and
arguments only the server has are reported too. A full-replace tool lacking a
body field is critical: the API applies the omission as a clear.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..vocab.mcp import HINT_DEFAULTS
from .findings import Finding
from .names import NameMap
from .resolution import enum_values, type_label

FULL_REPLACE = "full-replace"


def compare_tools(catalog: list[dict[str, Any]], server: list[dict[str, Any]],
                  names: NameMap) -> list[Finding]:
    """``catalog``: entries of catalog.json (``tool`` and ``binding``); ``server``:
    tools as ``tools/list`` returned them, wire JSON."""
    listed = {tool["name"]: tool for tool in server}
    claimed: set[str] = set()
    findings = [Finding("error", name, "parity", "duplicate-tool",
                        message=f"the server lists this name {count} times")
                for name, count in sorted(Counter(t["name"] for t in server).items())
                if count > 1]
    for entry in catalog:
        tool, binding = entry["tool"], entry["binding"]
        name = names.server_name(tool["name"])
        if name not in listed:
            alias = "" if name == tool["name"] else f" (looked for '{name}')"
            findings.append(Finding("error", tool["name"], "parity", "missing-tool",
                                    message=f"the server does not list this tool{alias}"))
            continue
        claimed.add(name)
        findings += compare_tool(tool, binding, listed[name])
    for name in sorted(set(listed) - claimed):
        findings.append(Finding("error", name, "parity", "extra-tool",
                                message="the server lists a tool the catalog does not have"))
    return findings


def compare_tool(expected: dict[str, Any], binding: dict[str, Any],
                 actual: dict[str, Any]) -> list[Finding]:
    name = expected["name"]
    want, got = expected["inputSchema"], _object(actual.get("inputSchema"))
    want_props, got_props = want.get("properties") or {}, _object(got.get("properties"))
    findings = [_missing(name, arg, binding) for arg in sorted(set(want_props) - set(got_props))]
    findings += [Finding("error", name, "parity", "extra-argument", arg,
                         "the server declares an argument the catalog does not have")
                 for arg in sorted(set(got_props) - set(want_props))]
    want_required, got_required = set(want.get("required") or []), set(got.get("required") or [])
    for arg in sorted(set(want_props) & set(got_props)):
        findings += _argument(name, arg, (want_props[arg], want), (got_props[arg], got),
                              (arg in want_required, arg in got_required))
    if got.get("type") != "object":
        findings.append(Finding("error", name, "parity", "input-root",
                                message="an inputSchema's root must be an object schema",
                                expected="object", actual=_show(got.get("type"))))
    if want.get("additionalProperties") is False and got.get("additionalProperties") is not False:
        findings.append(Finding(
            "error", name, "parity", "additional-properties",
            message="the catalog rejects unknown arguments; the server's schema accepts them",
            expected="false", actual=_show(got.get("additionalProperties"))))
    findings += _annotations(name, expected.get("annotations") or {},
                             _object(actual.get("annotations")))
    if "outputSchema" in expected and "outputSchema" not in actual:
        findings.append(Finding("error", name, "parity", "output-schema",
                                message="the catalog declares an outputSchema; the server none"))
    return findings


def _missing(tool: str, arg: str, binding: dict[str, Any]) -> Finding:
    where = (binding.get("arguments") or {}).get(arg, {}).get("in", "")
    if where == "body" and binding.get("semantics") == FULL_REPLACE:
        return Finding("critical", tool, "parity", "missing-argument", arg,
                       "full-replace tool lacks a body field: omission is applied as a clear",
                       expected=f"{where} field", actual="absent")
    if where == "query":
        why = "query parameter unreachable: callers cannot send it"
    else:
        why = f"the server does not declare this {where or 'catalog'} argument"
    return Finding("error", tool, "parity", "missing-argument", arg, why,
                   expected=f"{where} argument" if where else "argument", actual="absent")


def _argument(tool: str, arg: str, want: tuple[Any, dict[str, Any]],
              got: tuple[Any, dict[str, Any]], required: tuple[bool, bool]) -> list[Finding]:
    findings = []
    want_type, got_type = type_label(*want), type_label(*got)
    if want_type != got_type:
        findings.append(_type_finding(tool, arg, (want_type, got_type), optional=not required[0]))
    want_enum, got_enum = enum_values(*want), enum_values(*got)
    if want_enum != got_enum:
        findings.append(Finding("error", tool, "parity", "enum", arg, "allowed values differ",
                                expected=want_enum or "no enum", actual=got_enum or "no enum"))
    if required[0] != required[1]:
        findings.append(Finding("error", tool, "parity", "required", arg,
                                "required in the catalog, optional on the server" if required[0]
                                else "optional in the catalog, required on the server",
                                expected=_show(required[0]), actual=_show(required[1])))
    return findings


def _type_finding(tool: str, arg: str, types: tuple[str, str], *, optional: bool) -> Finding:
    """A type difference; a server that only adds ``null`` to an argument the catalog
    leaves optional (``x: str | None = None``) is a warning of its own kind: a caller
    who follows the catalog never sends null, so nothing it sends is read differently."""
    want, got = types
    if optional and got == f"{want}|null" and not want.endswith("|null"):
        return Finding("warning", tool, "parity", "null-for-optional", arg,
                       "the server also accepts null for this optional argument",
                       expected=want, actual=got)
    return Finding("error", tool, "parity", "type", arg, "argument type differs",
                   expected=want, actual=got)


def _annotations(tool: str, want: dict[str, Any], got: dict[str, Any]) -> list[Finding]:
    findings = []
    for hint, default in HINT_DEFAULTS.items():
        expected, actual = want.get(hint, default), got.get(hint, default)
        if expected != actual:
            findings.append(Finding("error", tool, "parity", "annotation", hint,
                                    "annotation differs (absent means the protocol default)",
                                    expected=_show(expected), actual=_show(actual)))
    return findings


def _object(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _show(value: Any) -> str:
    if value is None:
        return "absent"
    return "true" if value is True else "false" if value is False else str(value)
