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
from toolcat.catalog import reader
from toolcat.runtime import mcp_server as transports
from toolcat.runtime.embed import open_catalog
from toolcat.verify import command


def test_serve_runs_with_the_collector_on(toolcat: RunCli,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """On while serving, with start-up's objects (the catalog) frozen out of its sight; off
    while the catalog is read (a collection there walks every object read so far)."""
    seen: list[tuple[str, bool, bool]] = []

    async def fake_stdio(server: Any, *wire: Any) -> None:
        seen.append(("serving", gc.isenabled(), gc.get_freeze_count() > 0))

    def reading(folder: Any) -> dict[str, Any]:
        seen.append(("reading", gc.isenabled(), gc.get_freeze_count() > 0))
        return open_catalog(folder)

    monkeypatch.setattr(transports, "run_stdio", fake_stdio)
    monkeypatch.setattr(reader, "open_catalog", reading)
    gc.unfreeze()
    try:
        run = toolcat("serve", "broadcast", "-q")
    finally:
        gc.unfreeze()   # the test process's objects go back to the collector
    assert run.returncode == 0, run.stderr
    assert seen == [("reading", False, False), ("serving", True, True)]


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
