"""verify in front of an API that needs a token: the team's first run, end to end.

``toolcat serve`` of a bearer-token catalog, started by ``verify --command``, in
front of a stub API on 127.0.0.1 that records what arrived and answers 401 without
the token. The token is exported in the caller's environment only: it must reach
the API (the server inherits the environment) and appear in no output, even when
the command line assigns it. ``--env`` passes only the variables named, so a run
without the token's variable shows the API's refusal as a warning, never as "OK".
The read-only calls take the user's examples, then the document's.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest
from helpers.http_stub import serving
from helpers.paths import REPO
from helpers.verify_run import run_verify

SPEC = REPO / "tests" / "fixtures" / "verify_token" / "openapi.yaml"
TOOLCAT = Path(sys.executable).parent / "toolcat"
VARIABLE = "TOOLCAT_VAULT_TOKEN"        # default_env_var("vault", "token")
TOKEN = "s3cr3t-vault-token-0042"
THINGS = {42: {"id": 42, "name": "answer"}, 7: {"id": "seven", "name": "drifted"}}


@dataclass
class Api:
    base: str
    seen: list[tuple[str, str, str]] = field(default_factory=list)  # method, target, auth


@pytest.fixture
def api() -> Iterator[Api]:
    record = Api("")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            auth = self.headers.get("Authorization", "")
            record.seen.append((self.command, self.path, auth))
            thing = self.path.removeprefix("/api/things/").split("?")[0]
            if auth != f"Bearer {TOKEN}":
                self._send(401, {"error": "unauthorized"})
            elif self.path.startswith("/api/things?") or self.path == "/api/things":
                self._send(200, {"items": [THINGS[42]]})
            elif thing.isdigit() and int(thing) in THINGS:
                self._send(200, THINGS[int(thing)])
            else:
                self._send(404, {"error": "no such thing"})

        def _send(self, status: int, body: object) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    with serving(Handler) as url:
        record.base = f"{url}/api"
        yield record


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vault") / "out"
    run = subprocess.run([TOOLCAT, "generate", "--spec", SPEC, "--out", out],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    return out


def _verify(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], out: Path,
            base: str, *extra: str, prefix: str = "") -> tuple[int, str, str]:
    command = f"{prefix}{TOOLCAT} serve --spec {SPEC} --out {out} --base-url {base} --quiet"
    return run_verify(monkeypatch, capsys, "--catalog", out / "catalog.json", "--command",
                   command, "--call-readonly", "--timeout", "60", *extra)


def test_the_token_reaches_the_api_through_the_environment_and_no_output(
        api: Api, catalog: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    code, out, err = _verify(monkeypatch, capsys, catalog, api.base)
    assert code == 0, out + err
    assert "OK: no drift, no contract failure" in out
    assert api.seen, "no call reached the API"
    assert {auth for _, _, auth in api.seen} == {f"Bearer {TOKEN}"}
    # The document's example (thingId: 42), not a generated id (1, a 404).
    assert ("GET", "/api/things/42", f"Bearer {TOKEN}") in api.seen
    assert TOKEN not in out + err


def test_an_assigned_token_is_masked_in_the_command_echo(
        api: Api, catalog: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    code, out, err = _verify(monkeypatch, capsys, catalog, api.base,
                             prefix=f"env {VARIABLE}={TOKEN} ")
    assert code == 0, out + err
    assert {auth for _, _, auth in api.seen} == {f"Bearer {TOKEN}"}
    assert f"env {VARIABLE}=*** " in out
    assert TOKEN not in out + err


def test_env_passes_only_the_named_variables_and_a_refusal_is_a_warning(
        api: Api, catalog: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    code, out, err = _verify(monkeypatch, capsys, catalog, api.base, "--env", "PATH")
    assert api.seen, "no call reached the API"
    assert {auth for _, _, auth in api.seen} == {""}, api.seen
    assert code == 0, out + err      # a warning: below the default --fail-on error
    assert "OK with warnings: 0 critical, 0 errors, 2 warnings" in out
    assert "WARNING  get_thing  [output: api-refused]" in out
    assert TOKEN not in out + err
    code, out, _ = _verify(monkeypatch, capsys, catalog, api.base, "--env", "PATH",
                           "--fail-on", "warning")
    assert code == 1
    assert out.splitlines()[2].startswith("FAILED: 0 critical, 0 errors, 2 warnings")


def test_an_unset_env_name_is_a_usage_error(
        catalog: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("TOOLCAT_NOT_SET_ANYWHERE", raising=False)
    code, _, err = _verify(monkeypatch, capsys, catalog, "http://127.0.0.1:9",
                           "--env", "TOOLCAT_NOT_SET_ANYWHERE")
    assert code == 2
    assert "--env: not set in this environment: TOOLCAT_NOT_SET_ANYWHERE" in err


def test_is_error_on_a_2xx_answer_is_an_error_and_user_examples_come_first(
        api: Api, catalog: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    examples = tmp_path / "examples.yaml"
    examples.write_text("get_thing: {thingId: 7}\n")
    code, out, err = _verify(monkeypatch, capsys, catalog, api.base, "--examples",
                             str(examples))
    assert ("GET", "/api/things/7", f"Bearer {TOKEN}") in api.seen
    assert ("GET", "/api/things/42", f"Bearer {TOKEN}") not in api.seen
    assert code == 1, out + err
    assert "ERROR    get_thing  [output: error-on-success]" in out
    assert "the API answered HTTP 200 but the server returned isError" in out


def test_an_example_that_does_not_fit_is_a_located_error(
        catalog: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    examples = tmp_path / "examples.yaml"
    examples.write_text("get_thing: {thingId: seven}\nget_thin: {}\n")
    code, _, err = _verify(monkeypatch, capsys, catalog, "http://127.0.0.1:9", "--examples",
                           str(examples))
    assert code == 2
    assert f"{examples}: /get_thin: the catalog has no tool 'get_thin' (did you mean " in err
    assert f"{examples}: /get_thing: does not fit the inputSchema: thingId: 'seven'" in err


def test_a_server_that_prints_the_token_does_not_leak_it_through_verify(
        catalog: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    leak = (f"{sys.executable} -c \"import os, sys; "
            f"sys.stderr.write('token is ' + os.environ['{VARIABLE}']); sys.exit(3)\"")
    code, out, err = run_verify(monkeypatch, capsys, "--catalog", catalog / "catalog.json",
                             "--command", leak, "--timeout", "30")
    assert code == 2, out
    assert "    token is ***" in err     # the server's stderr, shown, with the value masked
    assert TOKEN not in out + err
