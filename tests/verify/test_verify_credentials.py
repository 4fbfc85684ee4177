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

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers.paths import REPO
from helpers.stub_api import Arrived, Conn, StubApi
from helpers.verify_run import run_verify

SPEC = REPO / "tests" / "fixtures" / "verify_token" / "openapi.yaml"
TOOLCAT = Path(sys.executable).parent / "toolcat"
VARIABLE = "TOOLCAT_VAULT_TOKEN"        # default_env_var("vault", "token")
TOKEN = "s3cr3t-vault-token-0042"
THINGS = {42: {"id": 42, "name": "answer"}, 7: {"id": "seven", "name": "drifted"}}


def _answer(arrived: Arrived, conn: Conn) -> None:
    """401 without the token; the list, a thing by id, or 404 with it."""
    thing = arrived.target.removeprefix("/api/things/").split("?")[0]
    if arrived.headers.get("authorization", "") != f"Bearer {TOKEN}":
        conn.json(401, {"error": "unauthorized"})
    elif arrived.target.startswith("/api/things?") or arrived.target == "/api/things":
        conn.json(200, {"items": [THINGS[42]]})
    elif thing.isdigit() and int(thing) in THINGS:
        conn.json(200, THINGS[int(thing)])
    else:
        conn.json(404, {"error": "no such thing"})


@pytest.fixture
def api() -> Iterator[StubApi]:
    with StubApi(_answer) as stub:
        yield stub


def _seen(api: StubApi) -> list[tuple[str, str, str]]:
    """(method, raw target, Authorization) of each request that arrived."""
    return [(a.method, a.target, a.headers.get("authorization", "")) for a in api.seen]


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
        api: StubApi, catalog: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    code, out, err = _verify(monkeypatch, capsys, catalog, f"{api.url}/api")
    assert code == 0, out + err
    assert "OK: no drift, no contract failure" in out
    assert _seen(api), "no call reached the API"
    assert {auth for _, _, auth in _seen(api)} == {f"Bearer {TOKEN}"}
    # The document's example (thingId: 42), not a generated id (1, a 404).
    assert ("GET", "/api/things/42", f"Bearer {TOKEN}") in _seen(api)
    assert TOKEN not in out + err


def test_an_assigned_token_is_masked_in_the_command_echo(
        api: StubApi, catalog: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv(VARIABLE, raising=False)
    code, out, err = _verify(monkeypatch, capsys, catalog, f"{api.url}/api",
                             prefix=f"env {VARIABLE}={TOKEN} ")
    assert code == 0, out + err
    assert {auth for _, _, auth in _seen(api)} == {f"Bearer {TOKEN}"}
    assert f"env {VARIABLE}=*** " in out
    assert TOKEN not in out + err


def test_env_passes_only_the_named_variables_and_a_refusal_is_a_warning(
        api: StubApi, catalog: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    code, out, err = _verify(monkeypatch, capsys, catalog, f"{api.url}/api", "--env", "PATH")
    assert _seen(api), "no call reached the API"
    assert {auth for _, _, auth in _seen(api)} == {""}, _seen(api)
    assert code == 0, out + err      # a warning: below the default --fail-on error
    assert "OK with warnings: 0 critical, 0 errors, 2 warnings" in out
    assert "WARNING  get_thing  [output: api-refused]" in out
    assert TOKEN not in out + err
    code, out, _ = _verify(monkeypatch, capsys, catalog, f"{api.url}/api", "--env", "PATH",
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
        api: StubApi, catalog: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(VARIABLE, TOKEN)
    examples = tmp_path / "examples.yaml"
    examples.write_text("get_thing: {thingId: 7}\n")
    code, out, err = _verify(monkeypatch, capsys, catalog, f"{api.url}/api", "--examples",
                             str(examples))
    assert ("GET", "/api/things/7", f"Bearer {TOKEN}") in _seen(api)
    assert ("GET", "/api/things/42", f"Bearer {TOKEN}") not in _seen(api)
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
