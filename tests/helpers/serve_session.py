"""Start `toolcat serve` as a user would (a subprocess) and connect the SDK's ClientSession.

stdio: the client launches the command itself. HTTP: the test launches it with
`--transport http` on a free port and connects over streamable HTTP (`http_server` alone
gives the URL, for a test that brings its own client).
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from .paths import REPO
from .stub_api import free_port

SERVE = ["-c", "from toolcat.cli import main; main()", "serve"]


@asynccontextmanager
async def stdio_session(*args: str, env: dict[str, str] | None = None,
                        cwd: Path = REPO) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=sys.executable, args=[*SERVE, *args], cwd=cwd,
                                   env=env)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@contextmanager
def listening(command: list[str], port: int, seconds: float = 30, **popen: Any
              ) -> Iterator[subprocess.Popen[bytes]]:
    """`command` started (its stderr kept unless `popen` says otherwise), yielded once
    something listens on 127.0.0.1:`port`, terminated when the block ends."""
    process = subprocess.Popen(command, **{"stderr": subprocess.PIPE, **popen})
    try:
        deadline = time.monotonic() + seconds
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    process.kill()
                    errors = process.stderr.read() if process.stderr else b""
                    raise RuntimeError(f"{command[:3]} did not start: {errors!r}") from None
                time.sleep(0.1)
        yield process
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextmanager
def http_process(*args: str, cwd: Path = REPO, env: dict[str, str] | None = None,
                 host: str = "127.0.0.1") -> Iterator[int]:
    """`toolcat serve --transport http` on a free port (yielded) until the block ends."""
    port = free_port()
    with listening([sys.executable, *SERVE, *args, "--transport", "http", "--host", host,
                    "--port", str(port)], port, cwd=cwd, env=env):
        yield port


@contextmanager
def http_server(*args: str, cwd: Path = REPO) -> Iterator[str]:
    """`toolcat serve ARGS --transport http` on a free port; yields its MCP URL."""
    with http_process(*args, cwd=cwd) as port:
        yield f"http://127.0.0.1:{port}/mcp"


@asynccontextmanager
async def http_session(*args: str, cwd: Path = REPO) -> AsyncIterator[ClientSession]:
    with http_server(*args, cwd=cwd) as url:
        async with streamable_http_client(url) as (read, write), ClientSession(
                read, write) as session:
            await session.initialize()
            yield session
