"""verify's usage and connection errors: exit 2, a message naming what and how to fix, no
traceback. The servers here are one-line Python commands written by the test."""

from __future__ import annotations

import sys

import pytest
from helpers.verify_run import CATALOG, memory_report, run_verify
from toolcat.verify.names import parse_names
from toolcat.verify.session import Options

PY = sys.executable


@pytest.mark.parametrize(("args", "message"), [
    ((), "give exactly one of --command and --url"),
    (("--command", "x", "--url", "http://127.0.0.1:1/mcp"),
     "give exactly one of --command and --url"),
    (("--command", "x", "--allow-writes"), "--allow-writes only widens --probe"),
    (("--url", "ftp://example.com"), "is not an http(s) URL"),
    (("--command", "'unclosed"), "cannot split"),
    (("--command", "x", "--map", "broadcast_get_chanel=get"),
     "has no tool 'broadcast_get_chanel' (did you mean 'broadcast_get_channel'?)"),
    (("--command", "x", "--map", "nonsense"), "is not CATALOG_TOOL=SERVER_TOOL"),
])
def test_usage(args: tuple[str, ...], message: str, monkeypatch: pytest.MonkeyPatch,
               capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_verify(monkeypatch, capsys, "--catalog", CATALOG, *args)
    assert code == 2
    assert message in err
    assert out == ""


def test_unknown_catalog_name(monkeypatch: pytest.MonkeyPatch,
                              capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_verify(monkeypatch, capsys, "broadcst", "--command", "x")
    assert code == 2
    assert "no catalog named 'broadcst' (did you mean 'broadcast'?)" in err


@pytest.mark.parametrize(("command", "message"), [
    ("toolcat-no-such-server-binary", "cannot talk to the MCP server: "),
    (f"{PY} -c \"import sys; sys.stderr.write('listening failed: port busy'); sys.exit(3)\"",
     "    listening failed: port busy"),
    (f"{PY} -c \"import time; time.sleep(30)\"", "no answer within the time limit"),
])
def test_server_that_does_not_speak_mcp(command: str, message: str,
                                        monkeypatch: pytest.MonkeyPatch,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_verify(monkeypatch, capsys, "--catalog", CATALOG, "--command", command,
                             "--timeout", "1")
    assert code == 2, out
    assert err.startswith(f"{command}: cannot talk to the MCP server: ")
    assert message in err
    assert "fix: check that the command starts an MCP server speaking stdio" in err


def test_prefix_maps_names_for_a_server_that_names_tools_differently() -> None:
    """Every tool looked up under another prefix: all missing, the name looked for shown."""
    names = parse_names("broadcast_=ersatztv_", ["broadcast_get_channel=get_channel"],
                        ["broadcast_get_channel", "broadcast_list_channels"], "catalog")
    assert names.server_name("broadcast_list_channels") == "ersatztv_list_channels"
    assert names.server_name("broadcast_get_channel") == "get_channel"   # --map wins
    assert parse_names("x_", [], [], "c").server_name("a") == "x_a"     # TO alone prepends
    report = memory_report(names=names, options=Options())
    missing = [f for f in report.findings if f.kind == "missing-tool"]
    assert len(missing) == len([f for f in report.findings if f.kind == "extra-tool"]) == 21
    assert any("(looked for 'ersatztv_list_channels')" in f.message for f in missing)
