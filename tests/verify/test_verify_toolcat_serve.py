"""verify against ``toolcat serve`` of the example catalog: clean, exit 0.

The catalog's own server over stdio, in front of a spec-judging HTTP API on 127.0.0.1
(tests/helpers/broadcast_api.py, which shares no code with toolcat): parity, probes
(rejected before any API call, so the API sees none of them) and read-only calls whose
structuredContent must pass outputSchema. A second run against a port nobody listens on
shows that an API that is down is reported as isError, never as a protocol error.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers.broadcast_api import SpecServer
from helpers.paths import CONFIG, EXAMPLE_SPEC
from helpers.stub_api import StubApi, free_port
from helpers.verify_run import run_verify

TOOLCAT = Path(sys.executable).parent / "toolcat"


def _verify(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
            base: str) -> tuple[int, str, str]:
    command = f"{TOOLCAT} serve broadcast --config {CONFIG} --base-url {base} --timeout 5"
    return run_verify(monkeypatch, capsys, "broadcast", "--config", CONFIG, "--command", command,
                   "--probe", "--call-readonly", "--timeout", "60")


def test_toolcat_serve_in_front_of_the_api_is_clean(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    api = SpecServer(EXAMPLE_SPEC)
    with StubApi(api.answer) as stub:
        base = stub.url
        code, out, err = _verify(monkeypatch, capsys, base)
    assert code == 0, out + err
    assert "OK: no drift, no contract failure" in out
    assert "returned isError" not in out, out
    gets = [r for r in api.seen if r.method == "GET"]
    assert gets, "no read-only call reached the API"
    assert all(r.ok for r in api.seen), [r.errors for r in api.seen if not r.ok]
    assert {r.method for r in api.seen} == {"GET"}, "a probe or call reached a write"


def test_toolcat_serve_with_the_api_down_is_clean_with_notes(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _verify(monkeypatch, capsys, f"http://127.0.0.1:{free_port()}")
    assert code == 0, out + err
    assert "OK: no drift, no contract failure" in out
    assert "read-only call returned isError" in out
