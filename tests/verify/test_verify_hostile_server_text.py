"""A server under test controls tool names and messages: none of it reaches the terminal
or the PR comment as escape codes, bidi overrides or extra table cells."""

from __future__ import annotations

import re
import subprocess
import sys
import time

from helpers.paths import EXAMPLE_OUTPUT, REPO
from toolcat.verify.findings import Finding, make_report
from toolcat.verify.report import render

HOSTILE = "evil\x1b[2J\u202etool|x\nline"


def _report() -> str:
    finding = Finding("error", HOSTILE, "parity", "extra-tool",
                      message="the server lists a tool the catalog does not have")
    return make_report("c.json", "cmd", "2025-11-25", ("parity",), 1, 2, [finding], [])


def test_terminal_shows_hidden_characters() -> None:
    text = render(_report(), "text")
    assert "\x1b" not in text
    assert "\u202e" not in text
    assert "evil\\u001b[2J\\u202etool|x line  [parity: extra-tool]" in text


def test_markdown_cell_stays_one_cell() -> None:
    text = render(_report(), "markdown")
    row = next(line for line in text.splitlines() if "extra-tool" in line)
    assert "\x1b" not in row
    assert "\u202e" not in row
    assert len(re.findall(r"(?<!\\)\|", row)) == 8   # seven cells, no extra: "\|" is text


def test_json_is_ascii() -> None:
    assert render(_report(), "json").isascii()


# A live hostile server over stdio (tests/helpers/hostile_mcp_server.py): its stderr, its
# non-JSON stdout and its exit message reach neither the terminal raw nor as SDK tracebacks.
HOSTILE_SERVER = REPO / "tests" / "helpers" / "hostile_mcp_server.py"
# ESC, BEL, CSI (C1) and the OSC/clipboard/hyperlink payloads that would run.
RAW = re.compile("[\x1b\x07\x9b]")


def _verify(mode: str, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from toolcat.cli import main; main()", "verify", "--catalog",
         str(EXAMPLE_OUTPUT), "--command", f"{sys.executable} {HOSTILE_SERVER} {mode}",
         "--timeout", "20", *extra],
        capture_output=True, text=True, timeout=120, check=False)


def test_server_stderr_is_escaped_and_sdk_logs_are_silent() -> None:
    result = _verify("exit")
    assert result.returncode == 2, result.stderr
    assert not RAW.search(result.stderr + result.stdout), result.stderr
    assert "\\u001b]0;PWNED-TITLE\\u0007" in result.stderr   # shown, not run
    assert "\\u009b31m" in result.stderr
    assert "fatal: " in result.stderr
    assert "Traceback" not in result.stderr
    assert "Failed to parse JSONRPC message" not in result.stderr


def test_deadline_bounds_the_whole_run() -> None:
    start = time.monotonic()
    result = _verify("slow", "--deadline", "3")
    took = time.monotonic() - start
    assert result.returncode == 2, result.stderr
    assert "verify did not finish within --deadline 3 s" in result.stderr
    assert "tools listed" in result.stderr
    assert took < 60
    assert not RAW.search(result.stderr + result.stdout)
