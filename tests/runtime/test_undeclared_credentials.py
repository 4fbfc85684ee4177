"""Credentials the document does not declare (issue 22 item 2).

A catalog's ``undeclared_credentials:`` sends a header, query or cookie credential from
an environment variable on every tool (or the tools its ``include:`` selects) whose
operation declares no security. The binding records where it goes and which variable
holds it, never the value; ``toolcat serve`` sends it (checked on a stub API that records
what arrived) and keeps it out of every answer, as it does for declared credentials.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers.generate import run_cli
from helpers.paths import REPO
from helpers.serve_session import stdio_session
from helpers.stub_api import Arrived, Conn, StubApi
from jsonschema import Draft202012Validator
from toolcat.config import load_config
from toolcat.errors import ToolcatError
from toolcat.pipeline import build_catalog

SECRET = "tok-8c1f2a9e77"
SCHEMA = REPO / "generator" / "toolcat" / "schemas" / "catalog.schema.json"


def _spec() -> dict[str, Any]:
    def op(oid: str, tags: list[str], **extra: Any) -> dict[str, Any]:
        return {"operationId": oid, "tags": tags, **extra, "responses": {"200": {
            "description": "ok", "content": {"application/json": {"schema": {
                "type": "object", "properties": {"user": {"type": "string"}}}}}}}}
    return {"openapi": "3.1.0", "info": {"title": "T", "version": "1"},
            "paths": {"/whoami": {"get": op("whoami", ["users"])},
                      "/admin/stats": {"get": op("adminStats", ["admin"])},
                      "/keyed": {"get": op("keyed", ["users"], security=[{"key": []}])}},
            "components": {"securitySchemes": {"key": {
                "type": "apiKey", "in": "header", "name": "X-Key"}}}}


CREDENTIALS = """\
    undeclared_credentials:
      - scheme: token
        in: header
        name: Authorization
        env: DEMO_TOKEN
      - scheme: tenant
        in: cookie
        name: tenant
        env: DEMO_TENANT
        include: {tags: [admin]}
"""


def _project(tmp_path: Path, entries: str = CREDENTIALS) -> Path:
    (tmp_path / "api.json").write_text(json.dumps(_spec()))
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalogs:\n  demo:\n    spec: api.json\n    output: out\n" + entries)
    return config


def test_the_binding_records_where_each_goes_never_a_value(tmp_path: Path) -> None:
    catalog = build_catalog(load_config(_project(tmp_path))[0])
    security = {t.name: t.binding.security for t in catalog.tools}
    token = {"id": "token", "type": "apiKey", "in": "header", "name": "Authorization",
             "env": "DEMO_TOKEN", "declared": False}
    tenant = {"id": "tenant", "type": "apiKey", "in": "cookie", "name": "tenant",
              "env": "DEMO_TENANT", "declared": False}
    assert security["whoami"] == ((token,),)
    assert security["admin_stats"] == ((token, tenant),)
    # The operation that declares its own security keeps exactly that.
    assert security["keyed"] == (({"id": "key", "type": "apiKey", "in": "header",
                                   "name": "X-Key"},),)


def test_the_catalog_stays_valid_against_its_schema(tmp_path: Path) -> None:
    config = _project(tmp_path)
    run = run_cli("generate", "--config", config)
    assert run.returncode == 0, run.stderr
    catalog = json.loads((tmp_path / "out" / "catalog.json").read_text())
    Draft202012Validator(json.loads(SCHEMA.read_text())).validate(catalog)
    record = json.loads((tmp_path / "out" / ".toolcat-inputs.json").read_text())
    assert [c["env"] for c in record["settings"]["undeclaredCredentials"]] == [
        "DEMO_TOKEN", "DEMO_TENANT"]


def test_an_entry_that_reaches_no_tool_is_an_error_with_its_line(tmp_path: Path) -> None:
    config = _project(tmp_path, CREDENTIALS + """\
      - scheme: stale
        in: query
        name: key
        env: DEMO_KEY
        include: {operations: [keyed]}
""")
    with pytest.raises(ToolcatError) as raised:
        build_catalog(load_config(config)[0])
    problem = raised.value.problems[0]
    assert problem.file == str(config)
    assert problem.location == "line 15"
    assert "'stale' reaches no tool" in problem.message


# -- served: the stub API records what arrived ----------------------------------------

def _answer(arrived: Arrived, conn: Conn) -> None:
    token = arrived.headers.get("authorization")
    # A wrong token is answered with an error page that echoes it, as some APIs do.
    if token == SECRET:
        conn.json(200, {"user": "ann"})
    else:
        conn.json(401, {"error": f"bad token {token}"})


@pytest.fixture
def stub() -> Iterator[StubApi]:
    with StubApi(_answer) as api:
        yield api


def _serve_calls(config: Path, base: str, env: dict[str, str],
                 calls: list[str]) -> list[Any]:
    async def run() -> list[Any]:
        async with stdio_session("demo", "--config", str(config), "--base-url", base,
                                 env=env, cwd=config.parent) as session:
            return [await session.call_tool(name, {}) for name in calls]
    return anyio.run(run)


def test_serve_sends_it_and_never_shows_it(tmp_path: Path, stub: StubApi) -> None:
    base, seen = stub.url, stub.seen
    config = _project(tmp_path)
    assert run_cli("generate", "--config", config).returncode == 0
    env = {**os.environ, "DEMO_TOKEN": SECRET, "DEMO_TENANT": "acme-42"}
    whoami, stats = _serve_calls(config, base, env, ["whoami", "admin_stats"])
    assert not whoami.is_error, whoami
    assert whoami.structured_content == {"user": "ann"}
    assert seen[0].headers["authorization"] == SECRET
    assert "cookie" not in seen[0].headers          # tenant is for admin tools only
    assert seen[1].target == "/admin/stats"
    assert seen[1].headers["cookie"] == "tenant=acme-42"
    assert not stats.is_error
    # A wrong token, echoed back by the API's error page, is redacted in the answer.
    wrong = "tok-wrong-5f3e11"
    (denied,) = _serve_calls(config, base, {**env, "DEMO_TOKEN": wrong}, ["whoami"])
    text = " ".join(c.text for c in denied.content if hasattr(c, "text"))
    assert denied.is_error
    assert "HTTP 401" in text
    assert wrong not in text, text
    assert seen[2].headers["authorization"] == wrong
