"""Scope and severity: a server that implements part of a catalog, in the Python idiom.

The SDK test server over stdio, with one tool removed (``missing-tool``) and an
optional argument that also takes null (``null-for-optional``). Scoped to the
tools it implements, with ``--include`` (a config selector) or ``--exclude`` (a
tool-name glob), it is not missing anything, and the tools left out are not
"extra"; the null is a warning that fails the run only with ``--fail-on warning``.
"""

from __future__ import annotations

import pytest
from helpers.verify_run import CATALOG, run_verify, server_command

COMMAND = server_command("missing-tool", "null-for-optional")


def _run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
         *args: str) -> tuple[int, str, str]:
    return run_verify(monkeypatch, capsys, "--catalog", CATALOG, "--command", COMMAND, *args)


def test_unscoped_the_missing_tool_is_an_error(monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(monkeypatch, capsys)
    assert code == 1
    assert "ERROR    broadcast_delete_schedule  [parity: missing-tool]" in out


@pytest.mark.parametrize("scope", [
    ("--include", "{methods: [GET]}"),
    ("--exclude", "broadcast_delete_*"),
    ("--exclude", "{operations: [deleteSchedule]}"),
])
def test_scoped_to_what_the_server_implements(scope: tuple[str, str],
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(monkeypatch, capsys, *scope)
    assert code == 0, out + err
    assert "[parity: missing-tool]" not in out, out
    assert "[parity: extra-tool]" not in out, out
    assert "OK with warnings: 0 critical, 0 errors, 1 warning (--fail-on error)" in out
    assert ("WARNING  broadcast_list_channels . pageSize  [parity: null-for-optional]\n"
            "         the server also accepts null for this optional argument\n"
            "         expected integer, got integer|null") in out
    assert "catalog tools left out by --include/--exclude: not checked" in out


def test_fail_on_warning_fails_the_run(monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(monkeypatch, capsys, "--exclude", "broadcast_delete_*",
                        "--fail-on", "warning")
    assert code == 1
    assert "FAILED: 0 critical, 0 errors, 1 warning\n" in out


@pytest.mark.parametrize(("scope", "message"), [
    (("--include", "broadcast_nothing_*"), "--include: 'broadcast_nothing_*' selects no tool"),
    (("--exclude", "{tags: [admin]}"), "a catalog does not record tags"),
    (("--include", "{verbs: [GET]}"), "--include: '{verbs: [GET]}' is not a selector"),
])
def test_a_scope_that_selects_nothing_is_a_usage_error(
        scope: tuple[str, str], message: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(monkeypatch, capsys, *scope)
    assert code == 2
    assert message in err
