"""verify over streamable HTTP on 127.0.0.1: the faithful SDK server is clean (exit 0),
and a URL nobody listens on is a connection error (exit 2), named, without a traceback."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest
from helpers.serve_session import listening
from helpers.stub_api import free_port
from helpers.verify_run import CATALOG, SERVER, run_verify


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    port = free_port()
    with listening([sys.executable, str(SERVER), str(CATALOG), "--http", str(port)], port, 60,
                   stderr=None):
        yield f"http://127.0.0.1:{port}/mcp"


def test_faithful_server_over_http_is_clean(url: str, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_verify(monkeypatch, capsys, "broadcast", "--url", url, "--probe",
                             "--call-readonly")
    assert code == 0, out + err
    assert out.splitlines()[2] == "OK: no drift, no contract failure"


def test_nobody_listening_is_exit_2(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{free_port()}/mcp"
    code, out, err = run_verify(monkeypatch, capsys, "broadcast", "--url", url, "--timeout", "5")
    assert code == 2
    assert out == ""
    assert err.startswith(f"{url}: cannot talk to the MCP server: ")
    assert "fix: check that the server is running" in err
