"""A download is MCP content of its kind, end to end: a generated catalog served by toolcat's
server (the SDK's client, both revisions) against a stub API on 127.0.0.1 that records each
request. Images and audio are `image`/`audio` blocks, a PDF or octet-stream an embedded
`resource` blob named by its URL without the query, and text stays text. (The size cap,
checked before any of this, is test_serve_redirects_and_size.py's.)
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers.fixtures import generate, write_spec
from helpers.stub_api import Arrived, Conn, StubApi
from mcp import Client
from toolcat.runtime.embed import build_server

PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256))
FILES = {"/poster.png": ("image/png", PNG), "/theme.mp3": ("audio/mpeg", b"ID3\x04" * 50),
         "/guide.pdf": ("application/pdf", b"%PDF-1.7\n\x00\xff"),
         "/dump.bin": ("application/octet-stream", bytes(300)),
         "/notes.txt": ("text/plain; charset=utf-8", "Grüße\n".encode())}


def _operation(name: str, media: str) -> dict[str, Any]:
    return {"get": {"operationId": name, "summary": f"Download {name}", "responses": {
        "200": {"description": "the file", "content": {
            media.split(";", 1)[0]: {"schema": {"type": "string", "format": "binary"}}}}}}}


SPEC = {"openapi": "3.1.0", "info": {"title": "files", "version": "1"},
        "servers": [{"url": "https://files.test/v1"}],
        "paths": {path: _operation(path[1:].split(".")[0], media)
                  for path, (media, _) in FILES.items()}}


def _download(arrived: Arrived, conn: Conn) -> None:
    media, body = FILES[arrived.target.removeprefix("/v1").split("?")[0]]
    conn.respond(200, body, media=media)


@pytest.fixture(scope="module")
def api() -> Iterator[StubApi]:
    with StubApi(_download) as stub:
        yield stub


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return generate(write_spec(tmp_path_factory.mktemp("files"), SPEC), name="files")


def _call(catalog: dict[str, Any], base: str, name: str, mode: str = "legacy") -> Any:
    server = build_server(catalog, base_url=base)

    async def run() -> Any:
        async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
            return await client.call_tool(name, {})

    return anyio.run(run)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_an_image_is_an_image_block_with_its_media_type(
        catalog: Any, api: StubApi, mode: str) -> None:
    base = api.url
    result = _call(catalog, base, "poster", mode)
    assert not result.is_error
    text, image = result.content
    assert (image.type, image.mime_type) == ("image", "image/png")
    assert base64.b64decode(image.data) == PNG
    assert text.text == f"HTTP 200: {len(PNG)} bytes of image/png from {base}/v1/poster.png"
    assert api.seen[-1].target == "/v1/poster.png"


def test_audio_is_an_audio_block(catalog: Any, api: StubApi) -> None:
    audio = _call(catalog, api.url, "theme").content[1]
    assert (audio.type, audio.mime_type) == ("audio", "audio/mpeg")
    assert base64.b64decode(audio.data) == FILES["/theme.mp3"][1]


@pytest.mark.parametrize(("name", "path"), [("guide", "/guide.pdf"), ("dump", "/dump.bin")])
def test_other_binaries_are_embedded_resource_blobs(
        catalog: Any, api: StubApi, name: str, path: str) -> None:
    base = api.url
    block = _call(catalog, base, name).content[1]
    assert block.type == "resource"
    media, body = FILES[path]
    assert block.resource.mime_type == media
    assert block.resource.uri == f"{base}/v1{path}"
    assert base64.b64decode(block.resource.blob) == body


def test_text_stays_text(catalog: Any, api: StubApi) -> None:
    result = _call(catalog, api.url, "notes")
    assert [(b.type, b.text) for b in result.content] == [("text", "Grüße\n")]


def test_the_resource_uri_drops_a_query_credential(tmp_path: Path, api: StubApi) -> None:
    spec = {**SPEC, "components": {"securitySchemes": {
        "key": {"type": "apiKey", "in": "query", "name": "key"}}}, "security": [{"key": []}]}
    catalog = generate(write_spec(tmp_path, spec), name="files")
    server = build_server(catalog, base_url=api.url, environ={"TOOLCAT_FILES_KEY": "s3cr3t-k"})

    async def run() -> Any:
        async with Client(server, mode="legacy") as client:
            return await client.call_tool("guide", {})

    block = anyio.run(run).content[1]
    assert api.seen[-1].target == "/v1/guide.pdf?key=s3cr3t-k"  # sent to the API
    assert block.resource.uri == f"{api.url}/v1/guide.pdf"  # not shown to the agent
