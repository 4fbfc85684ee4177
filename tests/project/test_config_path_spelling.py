"""The module names the command that regenerates it, so that command must not depend on
how the config's path was typed: `--config specs/toolcat.yaml`, `./specs/...` and the
absolute path all name the same file, and `check` must find the example up to date under
each (an absolute path once made the committed module look stale to `toolcat serve`)."""

from __future__ import annotations

import pytest
from helpers.inprocess import RunCli
from helpers.paths import REPO


@pytest.mark.parametrize("spelling", ["specs/toolcat.yaml", "./specs/toolcat.yaml",
                                      str(REPO / "specs" / "toolcat.yaml"),
                                      "specs/../specs/toolcat.yaml"])
def test_check_is_fresh_however_the_config_is_spelled(
        toolcat: RunCli, monkeypatch: pytest.MonkeyPatch, spelling: str) -> None:
    monkeypatch.chdir(REPO)
    run = toolcat("check", "--config", spelling)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "broadcast: up to date" in run.stdout
