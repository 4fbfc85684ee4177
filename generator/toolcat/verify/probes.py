"""Contract probes: calls a conforming server must refuse, and how it must refuse.

From the contract-testing guide (2025-11-25): an unknown tool is a JSON-RPC
error; arguments that violate a known tool's inputSchema (a required field
missing, a wrong type, an unknown property) are a result with ``isError: true``
- not a protocol error, and never success.

Why a probe cannot write: every probe's arguments are invalid against the
tool's inputSchema (``plan`` checks each one with a JSON Schema validator before
it is used), and a server that meets the contract must reject them before it
acts. A server that does not validate might act on them anyway - that is what
the probe exists to find out - so tools the *catalog* marks as not read-only
are only probed with ``--allow-writes``; the server's own hints are not trusted
for this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .findings import Finding
from .instances import Unsatisfiable, instance, invalid, wrong_value
from .resolution import type_label

UNKNOWN_TOOL = "toolcat_verify_no_such_tool"
UNKNOWN_PROPERTY = "toolcatVerifyUnknownArgument"


@dataclass(frozen=True)
class Probe:
    tool: str                    # catalog name, for the report
    kind: str                    # missing-required | wrong-type | unknown-property
    arguments: dict[str, Any]
    detail: str                  # what is wrong with the arguments


@dataclass(frozen=True)
class Outcome:
    """What the server did: exactly one of error (JSON-RPC), is_error, or success."""

    protocol_error: str | None = None
    is_error: bool = False
    timed_out: bool = False


def plan(tool: str, schema: dict[str, Any]) -> tuple[list[Probe], list[str]]:
    """The probes for one tool, and why any of the three is not possible."""
    try:
        valid = instance(schema)
    except Unsatisfiable as exc:
        return [], [f"no probes: cannot build valid arguments to start from ({exc})"]
    probes, skipped = [], []
    required = sorted(schema.get("required") or [])
    if required:
        dropped = {k: v for k, v in valid.items() if k != required[0]}
        probes.append(Probe(tool, "missing-required", dropped, f"without '{required[0]}'"))
    else:
        skipped.append("missing-required probe skipped: the tool has no required argument")
    wrong = _wrong_type(tool, schema, valid)
    if wrong is None:
        skipped.append("wrong-type probe skipped: no argument of a single JSON type")
    else:
        probes.append(wrong)
    if schema.get("additionalProperties") is False:
        probes.append(Probe(tool, "unknown-property", {**valid, UNKNOWN_PROPERTY: True},
                            f"with undeclared '{UNKNOWN_PROPERTY}'"))
    else:
        skipped.append("unknown-property probe skipped: the catalog allows extra arguments")
    for probe in probes:
        if not invalid(schema, probe.arguments):   # a probe must never be valid input
            raise AssertionError(f"probe {probe.kind} of {tool} is valid input")
    return probes, skipped


def _wrong_type(tool: str, schema: dict[str, Any], valid: dict[str, Any]) -> Probe | None:
    props = schema.get("properties") or {}
    for arg in sorted(props, key=lambda a: (a not in valid, a)):
        label = type_label(props[arg], schema)
        try:
            value = wrong_value(label)
        except Unsatisfiable:
            continue
        arguments = {**valid, arg: value}
        if invalid(schema, arguments):
            return Probe(tool, "wrong-type", arguments,
                         f"'{arg}' ({label}) given {value!r}")
    return None


def judge(probe: Probe, outcome: Outcome) -> Finding | None:
    if outcome.timed_out:
        return Finding("error", probe.tool, "probe", probe.kind, message=(
            f"no answer within the time limit to invalid arguments ({probe.detail})"))
    if outcome.protocol_error is not None:
        return Finding("error", probe.tool, "probe", probe.kind, message=(
            f"invalid arguments ({probe.detail}) gave a JSON-RPC error, not isError: true"),
            expected="isError: true", actual=outcome.protocol_error)
    if not outcome.is_error:
        return Finding("error", probe.tool, "probe", probe.kind, message=(
            f"accepted invalid arguments ({probe.detail})"),
            expected="isError: true", actual="success")
    return None


def judge_unknown_tool(outcome: Outcome) -> Finding | None:
    if outcome.protocol_error is not None:
        return None
    actual = "no answer" if outcome.timed_out else (
        "result with isError: true" if outcome.is_error else "success")
    return Finding("error", UNKNOWN_TOOL, "probe", "unknown-tool",
                   message="calling a tool that does not exist must be a JSON-RPC error",
                   expected="JSON-RPC error", actual=actual)
