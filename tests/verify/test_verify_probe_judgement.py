"""How a probe's answer is judged: only a result with isError passes a schema-invalid
call, and only a JSON-RPC error passes an unknown tool. Silence is a failure too."""

from __future__ import annotations

import pytest
from toolcat.verify.probes import Outcome, Probe, judge, judge_unknown_tool

PROBE = Probe("broadcast_get_channel", "wrong-type", {"channelId": "x"}, "'channelId' given 'x'")


@pytest.mark.parametrize(("outcome", "actual"), [
    (Outcome(), "success"),
    (Outcome(protocol_error="-32602: Invalid params"), "-32602: Invalid params"),
    (Outcome(timed_out=True), ""),
])
def test_invalid_arguments_must_be_is_error(outcome: Outcome, actual: str) -> None:
    finding = judge(PROBE, outcome)
    assert finding is not None
    assert (finding.tool, finding.check, finding.kind, finding.actual) == (
        "broadcast_get_channel", "probe", "wrong-type", actual)


def test_is_error_passes() -> None:
    assert judge(PROBE, Outcome(is_error=True)) is None


@pytest.mark.parametrize(("outcome", "actual"), [
    (Outcome(), "success"),
    (Outcome(is_error=True), "result with isError: true"),
    (Outcome(timed_out=True), "no answer"),
])
def test_unknown_tool_must_be_a_protocol_error(outcome: Outcome, actual: str) -> None:
    finding = judge_unknown_tool(outcome)
    assert finding is not None
    assert (finding.kind, finding.expected, finding.actual) == (
        "unknown-tool", "JSON-RPC error", actual)
    assert judge_unknown_tool(Outcome(protocol_error="-32602: Unknown tool")) is None
