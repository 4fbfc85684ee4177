"""The stdio transport of `toolcat serve`: one JSON-RPC message per line, every request answered.

The SDK's stdio transport drops a line it cannot parse (the client waits forever for its
answer) and ends the whole server when an answer cannot be encoded. Here every line gets
what JSON-RPC 2.0 (section 5) says:

- not JSON, or not UTF-8: `-32700` parse error (with the request's id when one can be read);
- a batch (an array; MCP removed batches in 2025-06-18): `-32600` for every request in it;
- JSON nested deeper than `MAX_DEPTH`, or not a JSON-RPC message: `-32600` with its id;
- an answer that cannot be encoded (a lone surrogate): its text is replaced (U+FFFD), and if
  it still cannot be written, a `-32603` error for its id.

While serving, fd 0 reads the null device and fd 1 writes to stderr (as the SDK does), so
stray output of a handler or a child process never corrupts the protocol stream.

When the wire is a pipe (what a client that spawns the server gives it), the event loop waits
on it and reads what is waiting, and writes an answer of at most `PIPE_BUF` bytes once the
pipe has room for it (a call's answer, usually): no hop to a worker thread for either (about
0.1 ms each per call). The answer pipe is widened to `PIPE_BYTES` (1 MiB, Linux's default
limit for an unprivileged process) where the system allows, so a larger answer (a 256 KB
tools/list page) that fits the pipe is written at once, by the event loop, when the client
has read everything before it (the pipe is empty: a write of what fits cannot block).
Anything else (a file, a terminal, an in-memory stream, an answer the pipe cannot take
whole) is read and written by a worker thread, as the SDK's transport does.

A `tools/list` page the server already answered once on this connection (listing.Shortcut)
is answered here, from its remembered JSON text, before the SDK sees the line.
"""

from __future__ import annotations

import array
import io
import json
import os
import re
import select
import stat
import sys
from collections.abc import AsyncIterator
from contextlib import suppress
from typing import Any, BinaryIO

import anyio
import mcp_types as types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.server.lowlevel import Server
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from .containment import scrub
from .early import Handover, claimed_stdio, response_line
from .listing import SHORTCUT, ListMemo, Shortcut

MAX_DEPTH = 128
READ_BYTES = 1 << 16
PIPE_BYTES = 1 << 20
PARSE_ERROR, INVALID_REQUEST, INTERNAL_ERROR = -32700, -32600, -32603
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]|[^\s\[\]{}:,"]+')


def top_level_id(text: str) -> Any:
    """The `id` member of a top-level JSON object, read without parsing the rest (which may
    be too deep or broken); None when there is none to read."""
    tokens = [m.group() for m in _TOKEN.finditer(text)]
    depth = 0
    for i, token in enumerate(tokens):
        if token in "[{":
            depth += 1
        elif token in "]}":
            depth -= 1
        elif depth == 1 and token == '"id"' and tokens[i + 1:i + 2] == [":"] and i + 2 < len(
                tokens):
            try:
                found = json.loads(tokens[i + 2])
            except ValueError:
                return None
            return found if isinstance(found, str | int) and not isinstance(found, bool) else None
    return None


def _depth(value: Any) -> int:
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in (item.values() if isinstance(item, dict)
                                                  else item))
    return deepest


def _error(request_id: Any, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id,
                              error=types.ErrorData(code=code, message=message))


def _id_of(value: Any) -> Any:
    found = value.get("id") if isinstance(value, dict) else None
    return found if isinstance(found, str | int) and not isinstance(found, bool) else None


def read_line(line: bytes, shortcut: Shortcut | None = None
              ) -> types.JSONRPCMessage | list[types.JSONRPCError] | bytes | None:
    """A message for the server, or the error answers the line gets instead (None: none),
    or the line answering it when `shortcut` has it (bytes)."""
    if not line.strip():
        return None
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        guess = top_level_id(line.decode("utf-8", errors="replace"))
        return [_error(guess, PARSE_ERROR, f"Parse error: the line is not UTF-8 ({exc.reason} "
                                           f"at byte {exc.start})")]
    try:
        value = json.loads(text)
    except RecursionError:
        return [_error(top_level_id(text), INVALID_REQUEST,
                       f"Invalid Request: the message nests deeper than {MAX_DEPTH} levels")]
    except ValueError as exc:
        return [_error(top_level_id(text), PARSE_ERROR, f"Parse error: {exc}")]
    if shortcut is not None and (answer := shortcut.answer(value, response_line)) is not None:
        return answer
    return _message(value)


def _message(value: Any) -> types.JSONRPCMessage | list[types.JSONRPCError]:
    if isinstance(value, list):
        ids = [_id_of(item) for item in value if isinstance(item, dict) and "method" in item
               and _id_of(item) is not None]
        why = ("Invalid Request: JSON-RPC batches are not supported (MCP removed them in "
               "2025-06-18); send one message per line")
        return [_error(i, INVALID_REQUEST, why) for i in ids] or [_error(None, INVALID_REQUEST,
                                                                         why)]
    if _depth(value) > MAX_DEPTH:
        return [_error(_id_of(value), INVALID_REQUEST,
                       f"Invalid Request: the message nests deeper than {MAX_DEPTH} levels")]
    try:
        message: types.JSONRPCMessage = types.jsonrpc_message_adapter.validate_python(
            value, by_name=False)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = "/".join(map(str, first["loc"][1:])) or "(message)"
        return [_error(_id_of(value), INVALID_REQUEST,
                       f"Invalid Request: not a JSON-RPC 2.0 message ({where}: {first['msg']})")]
    return message


def encode(message: types.JSONRPCMessage, memo: ListMemo | None = None) -> bytes:
    """One line of JSON for `message`; never raises. A tools/list page `memo` remembers is
    written from its JSON text (the same bytes pydantic writes: tested)."""
    if memo is not None and isinstance(message, types.JSONRPCResponse):
        text = memo.text(message.result)
        line = None if text is None else response_line(message.id, text)
        if line is not None:
            return line
    try:
        return message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
    except Exception:  # a lone surrogate, or nesting pydantic cannot write
        pass
    try:
        data = scrub(message.model_dump(by_alias=True, exclude_unset=True))
        return json.dumps(data, ensure_ascii=False, default=str).encode() + b"\n"
    except Exception:  # even the replaced form: answer its id
        request_id = getattr(message, "id", None)
        fallback = _error(request_id, INTERNAL_ERROR, "Internal error: the answer could not "
                          "be written as JSON")
        return fallback.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"


def pipe_fd(stream: BinaryIO) -> int | None:
    """The file descriptor of `stream` when it is a pipe (FIFO), else None."""
    try:
        fd = stream.fileno()
        return fd if stat.S_ISFIFO(os.fstat(fd).st_mode) else None
    except (OSError, ValueError, io.UnsupportedOperation):
        return None


async def pipe_lines(fd: int, read: bytes = b"") -> AsyncIterator[bytes]:
    """The lines of a pipe (each with its newline; the last may lack one), read by the event
    loop when data is waiting: a read of a pipe that has data returns at once, and the server
    is the pipe's only reader. `read`: the start of the first line, read before."""
    parts: list[bytes] = [read] if read else []
    while True:
        await anyio.wait_readable(fd)
        chunk = os.read(fd, READ_BYTES)
        if not chunk:
            break
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            parts.append(chunk[start:end + 1])
            yield b"".join(parts)
            parts, start = [], end + 1
        if start < len(chunk):
            parts.append(chunk[start:])
    if parts:
        yield b"".join(parts)


class _Answers:
    """The answer side of the wire: its pipe (if it is one), and the writer task's queue,
    which the reader looks at to write a shortcut's answer itself."""

    def __init__(self, wire: BinaryIO,
                 queue: MemoryObjectReceiveStream[SessionMessage | bytes]) -> None:
        self.wire = wire
        self.fd = pipe_fd(wire)
        self.room = 0 if self.fd is None else widen_pipe(self.fd)
        self.queue = queue

    def put_now(self, line: bytes) -> bool:
        """Write `line` now, when that can neither block nor pass or cut into another
        answer: the writer task waits for an answer with none handed to it yet, and the
        pipe is empty and can take the line whole."""
        if self.fd is None or len(line) > self.room or unread(self.fd) != 0:
            return False
        if self.queue.statistics().tasks_waiting_receive == 0:
            return False
        _put(self.wire, line)
        return True


async def _lines(wire: BinaryIO, handover: Handover) -> AsyncIterator[bytes]:
    """The wire's lines: those the handover holds first, then what the wire has."""
    for line in handover.lines:
        yield line
    fd = pipe_fd(wire)
    if fd is None:
        async for line in anyio.wrap_file(wire):
            yield line
    else:
        async for line in pipe_lines(fd, handover.rest):
            yield line


async def _read(wire: BinaryIO, inbox: MemoryObjectSendStream[SessionMessage | Exception],
                outbox: MemoryObjectSendStream[SessionMessage | bytes],
                shortcut: Shortcut | None, answers: _Answers, handover: Handover) -> None:
    async with inbox, outbox:
        async for line in _lines(wire, handover):
            got = read_line(line, shortcut)
            if isinstance(got, bytes):
                if not answers.put_now(got):
                    await outbox.send(got)
            elif isinstance(got, list):
                for answer in got:
                    await outbox.send(SessionMessage(answer))
            elif got is not None:
                if shortcut is not None and isinstance(got, types.JSONRPCRequest):
                    shortcut.forwarded(got.method)
                await inbox.send(SessionMessage(got))


async def _write(answers: _Answers, outbox: MemoryObjectReceiveStream[SessionMessage | bytes],
                 memo: ListMemo | None, written: dict[Any, bytes]) -> None:
    async with outbox:
        async for item in outbox:
            line = item if isinstance(item, bytes) else encode(item.message, memo)
            if written and not isinstance(item, bytes) and _written(written, item, line):
                continue
            await _write_line(answers, line)


def _written(written: dict[Any, bytes], item: SessionMessage, line: bytes) -> bool:
    """Whether `item` answers a request answered before the SDK (early.py): it is not sent
    again, and a difference from the line written then is said on stderr."""
    message = item.message
    if not isinstance(message, types.JSONRPCResponse | types.JSONRPCError):
        return False
    sent = written.pop(message.id, None)
    if sent is None:
        return False
    if sent != line:
        sys.stderr.write(f"toolcat serve: the answer written before the SDK loaded differs "
                         f"from the SDK's: {sent[:300]!r} != {line[:300]!r}\n")
    return True


async def _write_line(answers: _Answers, line: bytes) -> None:
    fd, wire = answers.fd, answers.wire
    if fd is not None and len(line) <= max(answers.room, select.PIPE_BUF):
        # A pipe the event loop sees writable has room for PIPE_BUF bytes, and an empty
        # one for `room`: the write returns at once.
        await anyio.wait_writable(fd)
        if len(line) <= select.PIPE_BUF or unread(fd) == 0:
            _put(wire, line)
            return
    # One hop to a worker thread per answer (write and flush together), not two.
    await anyio.to_thread.run_sync(_put, wire, line)


def widen_pipe(fd: int) -> int:
    """The capacity of the pipe `fd` (bytes), widened to PIPE_BYTES where the system allows
    (Linux; up to /proc/sys/fs/pipe-max-size), or 0 where it cannot be read."""
    try:
        import fcntl  # noqa: PLC0415 - POSIX only
    except ImportError:
        return 0
    setting, getting = getattr(fcntl, "F_SETPIPE_SZ", None), getattr(fcntl, "F_GETPIPE_SZ", None)
    if setting is None or getting is None:
        return 0
    with suppress(OSError):   # above the system's limit: the pipe keeps its size
        fcntl.fcntl(fd, setting, PIPE_BYTES)
    try:
        return int(fcntl.fcntl(fd, getting))
    except OSError:
        return 0


def unread(fd: int) -> int:
    """Bytes written to the pipe `fd` that its reader has not read yet (-1: unknown)."""
    count = array.array("i", [0])
    try:
        import fcntl  # noqa: PLC0415 - POSIX only
        import termios  # noqa: PLC0415
    except ImportError:
        return -1
    try:
        fcntl.ioctl(fd, termios.FIONREAD, count)
    except OSError:
        return -1
    return count[0]


def _put(wire: BinaryIO, line: bytes) -> None:
    wire.write(line)
    wire.flush()


def _shortcut(server: Server[Any], memo: ListMemo | None,
              handover: Handover) -> Shortcut | None:
    """A Shortcut for a server whose middleware is the SDK's own (which never changes a
    result) and ListMemo; None (every line to the SDK) for any other middleware."""
    if memo is None or not all(m is memo or type(m).__module__.startswith("mcp.")
                               for m in server.middleware):
        return None
    return Shortcut(memo, handover.front)


async def serve_stdio(server: Server[Any], stdin: BinaryIO | None = None,
                      stdout: BinaryIO | None = None, handover: Handover | None = None) -> None:
    """Serve one client over stdin/stdout (or the given binary streams) until it disconnects;
    after `handover`, the lines answered before the SDK loaded (early.py)."""
    handover = handover or Handover()
    with claimed_stdio(stdin, stdout) as (wire_in, wire_out):
        inbox_send, inbox = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        outbox, outbox_receive = anyio.create_memory_object_stream[SessionMessage | bytes](0)
        memo = next((m for m in server.middleware if isinstance(m, ListMemo)), None)
        shortcut = _shortcut(server, memo, handover)
        told = SHORTCUT.set(shortcut)   # ListMemo, in the server's tasks, tells it the session
        try:
            async with anyio.create_task_group() as tasks:
                answers = _Answers(wire_out, outbox_receive)
                tasks.start_soon(_read, wire_in, inbox_send, outbox.clone(), shortcut, answers,
                                 handover)
                tasks.start_soon(_write, answers, outbox_receive, memo, dict(handover.written))
                async with outbox:
                    await server.run(inbox, outbox, server.create_initialization_options())
        finally:
            SHORTCUT.reset(told)
