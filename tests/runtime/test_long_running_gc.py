"""`main()` turns the garbage collector off for generate's speed; the long-running commands
(serve, verify) run with it on, or every call's cyclic garbage stays (issue 21: 75 -> 94 MiB
over 20,000 calls). `make soak` measures the memory; this proves the switch."""

from __future__ import annotations

import gc
from typing import Any

import pytest
from helpers.inprocess import RunCli
from helpers.paths import EXAMPLE_OUTPUT
from toolcat import cli
from toolcat.runtime import mcp_server as transports
from toolcat.verify import command


def test_serve_runs_with_the_collector_on(toolcat: RunCli,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    async def fake_stdio(server: Any) -> None:
        seen.append(gc.isenabled())

    monkeypatch.setattr(transports, "run_stdio", fake_stdio)
    run = toolcat("serve", "broadcast", "-q")
    assert run.returncode == 0, run.stderr
    assert seen == [True]


def test_verify_runs_with_the_collector_on(toolcat: RunCli,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def fake_check(*args: Any) -> Any:
        seen.append(gc.isenabled())
        raise SystemExit(0)

    monkeypatch.setattr(command, "check", fake_check)
    toolcat("verify", "--catalog", str(EXAMPLE_OUTPUT), "--command", "true")
    assert seen == [True]


def test_generate_still_runs_without_it(toolcat: RunCli,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []

    def fake_generate(*args: Any) -> Any:
        seen.append(gc.isenabled())
        raise SystemExit(0)

    monkeypatch.setattr(cli.flows, "generate", fake_generate)
    toolcat("generate", "broadcast", "-q")
    assert seen == [False]
