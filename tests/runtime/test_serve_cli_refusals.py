"""`toolcat serve` refuses before any server starts (exit 2): a stale folder (naming the
command that fixes it), a missing folder, a base URL without a host."""

from __future__ import annotations

import json
from pathlib import Path

from helpers.fixtures import run_cli, write_spec


def test_stale_folder_is_refused_with_the_fix(tmp_path: Path) -> None:
    spec = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "servers": [{"url": "http://127.0.0.1:9/api"}],
            "paths": {"/ping": {"get": {"operationId": "ping",
                                        "responses": {"200": {"description": "ok"}}}}}}
    path = write_spec(tmp_path, spec, "api.json")
    out = tmp_path / "out"
    assert run_cli("generate", "--spec", path, "--out", out, "--name", "demo").returncode == 0
    spec["paths"]["/ping"]["get"]["summary"] = "Ping the service"
    path.write_text(json.dumps(spec))
    result = run_cli("serve", "--spec", path, "--out", out, "--name", "demo")
    assert result.returncode == 2
    assert "the catalog is stale" in result.stderr
    # The command the module names, where it runs (outside a repository: the folder
    # holding the catalog folder), the same in every message.
    assert f"`toolcat generate --spec api.json --out out --name demo` from {tmp_path}" \
        in result.stderr


def test_missing_folder_is_refused(tmp_path: Path) -> None:
    path = write_spec(tmp_path, {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
                                 "paths": {}}, "api.json")
    result = run_cli("serve", "--spec", path, "--out", tmp_path / "nowhere", "--name", "demo")
    assert result.returncode == 2
    assert "no catalog.json in this folder" in result.stderr


def test_base_url_without_a_host_is_a_usage_error() -> None:
    result = run_cli("serve", "broadcast", "--base-url", "127.0.0.1:9000")
    assert result.returncode == 2
    assert "is not an http(s) URL with a host" in result.stderr
