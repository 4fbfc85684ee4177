"""Reaching the server: a command over stdio, or a URL over streamable HTTP.

Each connector is an async context manager yielding the SDK's stream pair, so
the checks never know the transport (tests pass an in-memory one). Everything
that can go wrong on the way - a command that does not exist, a server that
exits, a port nobody listens on, no answer in time - becomes one ToolcatError
naming the server and a fix (exit 2), with the server's last stderr lines when
it wrote any. No traceback reaches the user.
"""

from __future__ import annotations

import shlex
import tempfile
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import IO, Any

from ..errors import ToolcatError, fail
from ..text.escape import visible

Connector = Callable[[], AbstractAsyncContextManager[Any]]


class Server:
    """A way to reach the server, and what to call it in messages."""

    def __init__(self, label: str, connect: Connector, stderr: IO[str] | None = None) -> None:
        self.label = label
        self.connect = connect
        self.stderr = stderr

    def failure(self, exc: BaseException | str, fix: str) -> ToolcatError:
        reason = visible(exc if isinstance(exc, str) else describe(exc))
        return fail(self.label, "", f"cannot talk to the MCP server: {reason}{self._tail()}",
                    fix)

    def _tail(self) -> str:
        if self.stderr is None:
            return ""
        self.stderr.seek(0)
        lines = [line.rstrip() for line in self.stderr.read().splitlines() if line.strip()]
        if not lines:
            return ""
        # The server's own text: escape codes are shown, never run by the terminal.
        return "\n  server stderr (last lines):\n" + "\n".join(f"    {visible(ln)}"
                                                              for ln in lines[-6:])


def stdio_server(command: str, env: dict[str, str] | None = None, label: str | None = None
                 ) -> Server:
    """``env``: the server's whole environment (None: the SDK's minimal set); ``label``:
    the command as messages show it (verify masks assignments in it)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise fail("--command", "", f"cannot split {command!r}: {exc}",
                   'quote the whole command once: --command "python server.py --flag"') from None
    if not argv:
        raise fail("--command", "", "the command is empty", 'give --command "CMD ARGS..."')
    errlog = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115 - lives as long as the run

    @asynccontextmanager
    async def connect() -> AsyncIterator[Any]:
        from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: PLC0415

        params = StdioServerParameters(command=argv[0], args=argv[1:], env=env)
        async with stdio_client(params, errlog=errlog) as streams:
            yield streams

    return Server(label or command, connect, errlog)


def http_server(url: str) -> Server:
    if not url.startswith(("http://", "https://")):
        raise fail("--url", "", f"'{url}' is not an http(s) URL",
                   "give the server's streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp")

    @asynccontextmanager
    async def connect() -> AsyncIterator[Any]:
        from mcp.client.streamable_http import streamable_http_client  # noqa: PLC0415

        async with streamable_http_client(url) as streams:
            yield streams

    return Server(url, connect)


def memory_server(label: str, connect: Connector) -> Server:
    """Any other stream pair (tests: the SDK's in-memory transport)."""
    return Server(label, connect)


def leaves(exc: BaseException) -> list[BaseException]:
    """The exceptions inside (nested) exception groups, in order."""
    if isinstance(exc, BaseExceptionGroup):
        return [leaf for inner in exc.exceptions for leaf in leaves(inner)]
    return [exc]


def describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "no answer within the time limit"
    if isinstance(exc, FileNotFoundError):
        return f"command not found ({exc.filename or exc})"
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:300]
