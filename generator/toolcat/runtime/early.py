"""`toolcat serve` on stdio answers the handshake and `tools/list` while the MCP SDK loads.

Importing the SDK costs about 0.7 s of CPU (its pydantic models of every protocol
revision), more than everything else start-up does. So on a pipe (what a client that
spawns the server gives it) the SDK is imported by a worker thread while this module,
which imports none of it, answers what a client sends first:

- a plain `initialize` (the handshake era, 2024-11-05 to 2025-11-25; params of the shapes
  `plain_initialize` reads, which the SDK accepts): the SDK's answer for the negotiated
  version (the requested one if the SDK speaks it, else the latest);
- `notifications/initialized`, recorded;
- a plain `tools/list` (`plain_list`) for a page of the catalog: the page as the
  SDK's path writes it (keys in the order of the SDK's sieve, pydantic's JSON writer).

Anything else (another method, other params, a tool or a line this module does not read
as plain) waits for the SDK. When it has loaded, or a line needs it, the SDK takes over
(`Handover`): it is given the lines it has not seen, the initialize first, and its own
answer to that initialize is compared with the one written early and not sent again (a
difference is said on stderr). The Front still answers the plain lists after that
(listing.Shortcut), until the client sends another initialize. Every answer written here
is byte for byte the SDK's: tests/runtime/test_serve_early_answers.py compares them for
every protocol version.
"""

from __future__ import annotations

import importlib
import json
import os
import select
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, BinaryIO

from pydantic_core import to_json

from ..identity import installed_version

# The SDK's mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS (a test holds them equal).
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
READ_BYTES = 1 << 16
PAGE_BYTES = 256 * 1024   # listing.py's pages (its docstring says why)
SWITCH_SECONDS = 0.0005

# The keys of a plain request: its whole answer depends on its method and params alone.
_REQUEST_KEYS = frozenset({"jsonrpc", "id", "method", "params"})
_TOOL_KEYS = frozenset({"name", "title", "description", "inputSchema", "outputSchema",
                        "annotations"})
_HINTS = frozenset({"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"})
# The field order of the SDK's wire models (mcp_types._v2025_11_25: Tool, ToolAnnotations,
# InputSchema and OutputSchema), which its sieve writes.
_TOOL_ORDER = ("annotations", "description", "inputSchema", "name", "outputSchema", "title")
_ANNOTATION_ORDER = ("destructiveHint", "idempotentHint", "openWorldHint", "readOnlyHint",
                     "title")
_SCHEMA_ORDER = ("$schema", "properties", "required", "type")
_INITIALIZE_KEYS = frozenset({"protocolVersion", "capabilities", "clientInfo"})
_INFO_KEYS = frozenset({"name", "version", "title", "description", "websiteUrl"})


def response_line(request_id: Any, text: bytes) -> bytes | None:
    """The line of a response to `request_id` whose result is the JSON `text` (as pydantic
    writes it: tested), or None when the id cannot be written (a lone surrogate)."""
    try:
        return b'{"jsonrpc":"2.0","id":%b,"result":%b}\n' % (to_json(request_id), text)
    except ValueError:
        return None


def _request(value: Any, method: str) -> bool:
    """Whether `value` is a plain request for `method`: JSON-RPC 2.0, an int or string id,
    no member but the four."""
    return (isinstance(value, dict) and value.get("method") == method
            and value.keys() <= _REQUEST_KEYS and value.get("jsonrpc") == "2.0"
            and type(value.get("id")) in (int, str))


def plain_list(value: Any) -> tuple[str | None] | None:
    """(its cursor,) for a plain tools/list request (cursor None: the first page), else None."""
    if not _request(value, "tools/list"):
        return None
    params = value.get("params", {})
    if not isinstance(params, dict) or not params.keys() <= {"cursor"}:
        return None
    cursor = params.get("cursor")
    return (cursor,) if cursor is None or type(cursor) is str else None


def _empty_members(value: Any, names: frozenset[str]) -> bool:
    return isinstance(value, dict) and value.keys() <= names and all(
        type(member) is dict and not member for member in value.values())


_CAPABILITIES: dict[str, Callable[[Any], bool]] = {
    "roots": lambda v: isinstance(v, dict) and v.keys() <= {"listChanged"} and all(
        type(flag) is bool for flag in v.values()),
    "sampling": lambda v: _empty_members(v, frozenset({"context", "tools"})),
    "elicitation": lambda v: _empty_members(v, frozenset({"form", "url"})),
    "experimental": lambda v: isinstance(v, dict) and all(
        type(setting) is dict for setting in v.values()),
}


def plain_initialize(value: Any) -> str | None:
    """The protocol version a plain `initialize` asks for, else None. Plain: clientInfo of
    text members (name and version required), capabilities among roots (listChanged),
    sampling and elicitation (empty members) and experimental: shapes the SDK accepts."""
    if not _request(value, "initialize"):
        return None
    params = value.get("params")
    if not isinstance(params, dict) or params.keys() != _INITIALIZE_KEYS:
        return None
    info, capabilities = params["clientInfo"], params["capabilities"]
    if not (isinstance(info, dict) and info.keys() <= _INFO_KEYS and {"name", "version"}
            <= info.keys() and all(type(text) is str for text in info.values())):
        return None
    if not isinstance(capabilities, dict) or not all(
            _CAPABILITIES.get(name, _never)(setting) for name, setting in capabilities.items()):
        return None
    version = params["protocolVersion"]
    return version if type(version) is str else None


def _never(value: Any) -> bool:
    return False


def _initialized(value: Any) -> bool:
    """Whether `value` is a plain notifications/initialized."""
    return (isinstance(value, dict) and value.get("method") == "notifications/initialized"
            and value.keys() <= {"jsonrpc", "method", "params"}
            and value.get("jsonrpc") == "2.0" and value.get("params", {}) == {}
            and type(value.get("params", {})) is dict)


def cuts(items: Sequence[Any], page_bytes: int, size: Callable[[Any], int]) -> Iterator[int]:
    """The index of the first item of each page (always 0 first), one page at a time: a
    page holds whole items up to `page_bytes` of JSON (`size`), an item larger than that a
    page of its own."""
    yield 0
    used = 0
    for index, item in enumerate(items):
        width = size(item)
        if used and used + width > page_bytes:
            yield index
            used = 0
        used += width


class Paging:
    """Named items (tools) cut into pages as far as a request needs, once: the first page
    is found without sizing the 1,500 tools after it (the cut is `cuts`'s, in its order).
    A page's cursor is the name of its first item."""

    def __init__(self, items: Sequence[Any], names: Sequence[str], page_bytes: int,
                 size: Callable[[Any], int]) -> None:
        self.names = list(names)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.cuts = cuts(items, page_bytes, size)
        self.starts = [next(self.cuts)]
        self.done = False

    def _cut_past(self, index: int) -> None:
        """Cut pages until one starts after `index` (or the items run out)."""
        while not self.done and self.starts[-1] <= index:
            found = next(self.cuts, None)
            if found is None:
                self.done = True
            else:
                self.starts.append(found)

    def bounds(self, cursor: str | None) -> tuple[int, int, str | None] | None:
        """(first, end, the next page's cursor or None) of the page `cursor` starts (None:
        the first page), or None when it starts none."""
        at = 0 if cursor is None else self.index.get(cursor, -1)
        self._cut_past(at)
        if at < 0 or at not in self.starts:
            return None
        number = self.starts.index(at)
        last = number + 1 == len(self.starts)
        end = len(self.names) if last else self.starts[number + 1]
        return at, end, None if last else self.names[end]


def _plain_schema(schema: Any) -> bool:
    """Whether an input or output schema is one the SDK's model (an object root; $schema,
    properties and required declared, other keywords kept) serves unchanged but for order."""
    if not isinstance(schema, dict) or schema.get("type") != "object" or None in schema.values():
        return False
    properties, required = schema.get("properties", {}), schema.get("required", [])
    return (type(schema.get("$schema", "")) is str and isinstance(properties, dict)
            and all(type(p) in (dict, bool) for p in properties.values())
            and type(required) is list and all(type(name) is str for name in required))


def _plain_tool(tool: Any) -> bool:
    """Whether a catalog tool is of the shape toolcat writes (the members Tool declares, of
    their types, none null; object roots), which the SDK serves unchanged but for order."""
    if not (isinstance(tool, dict) and tool.keys() <= _TOOL_KEYS
            and type(tool.get("name")) is str
            and all(type(tool[k]) is str for k in ("title", "description") if k in tool)):
        return False
    annotations = tool.get("annotations", {})
    return (_plain_schema(tool.get("inputSchema"))
            and _plain_schema(tool.get("outputSchema", {"type": "object"}))
            and isinstance(annotations, dict) and all(
                type(v) is bool if k in _HINTS else (k == "title" and type(v) is str)
                for k, v in annotations.items()))


def _size(tool: dict[str, Any]) -> int:
    """A tool's size as listing's pages measure it (its wire form as compact JSON)."""
    return len(json.dumps(tool, ensure_ascii=False, separators=(",", ":")).encode())


def _ordered(value: dict[str, Any], order: Sequence[str]) -> dict[str, Any]:
    """`value` with the members `order` names first, in that order, then the others."""
    first = {key: value[key] for key in order if key in value}
    return first | {key: item for key, item in value.items() if key not in first}


def _wire(tool: dict[str, Any]) -> dict[str, Any]:
    """A tool as the SDK's sieve (mcp_types' wire models) writes it: the members of each
    model in its field order, a schema's other keywords after them as they come."""
    wire = _ordered(tool, _TOOL_ORDER)
    if "annotations" in wire:
        wire["annotations"] = _ordered(wire["annotations"], _ANNOTATION_ORDER)
    for key in ("inputSchema", "outputSchema"):
        if key in wire:
            wire[key] = _ordered(wire[key], _SCHEMA_ORDER)
    return wire


class Front:
    """One connection's answers before the SDK: the handshake and the catalog's pages."""

    def __init__(self, name: str, version: str, tools: Sequence[dict[str, Any]],
                 page_bytes: int) -> None:
        self.name, self.server_version = name, version
        self.tools = list(tools)
        self.paging = Paging(self.tools, [tool["name"] for tool in self.tools], page_bytes,
                             _size)
        self.texts: dict[str | None, bytes] = {}
        self.version: str | None = None   # negotiated by the initialize answered here
        self.initialize: tuple[Any, bytes] | None = None   # (its id, the line written)

    @classmethod
    def of(cls, name: str, version: str, tools: Sequence[dict[str, Any]],
           page_bytes: int) -> Front | None:
        """A Front for these tools, or None when one of them is not plain."""
        if not all(map(_plain_tool, tools)):
            return None
        return cls(name, version, tools, page_bytes)

    def answer(self, value: Any) -> bytes | None:
        """The line answering the parsed request `value` (b"": a notification taken), or
        None when the SDK must answer it."""
        if self.version is None:
            return self._handshake(value)
        return b"" if _initialized(value) else self.list_answer(value)

    def list_answer(self, value: Any) -> bytes | None:
        """The line answering a plain tools/list `value` (after the initialize answered
        here), or None when the SDK must answer it."""
        plain = None if self.version is None else plain_list(value)
        text = None if plain is None else self._page(plain[0])
        return None if text is None else response_line(value["id"], text)

    def _handshake(self, value: Any) -> bytes | None:
        asked = plain_initialize(value)
        if asked is None:
            return None
        version = asked if asked in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
        result = {"capabilities": {"tools": {"listChanged": False}}, "protocolVersion": version,
                  "serverInfo": {"name": self.name, "version": self.server_version}}
        try:
            line = response_line(value["id"], to_json(result))
        except ValueError:   # text UTF-8 cannot carry
            return None
        if line is not None:
            self.version, self.initialize = version, (value["id"], line)
        return line

    def _page(self, cursor: str | None) -> bytes | None:
        """The JSON text of the page `cursor` starts (None: the first), or None when it
        starts none (the SDK's error to give)."""
        if cursor not in self.texts:
            bounds = self.paging.bounds(cursor)
            if bounds is None:
                return None
            start, end, next_cursor = bounds
            result: dict[str, Any] = {} if next_cursor is None else {"nextCursor": next_cursor}
            result["tools"] = [_wire(tool) for tool in self.tools[start:end]]
            try:
                self.texts[cursor] = to_json(result)
            except ValueError:   # text UTF-8 cannot carry: the SDK's path replaces it
                return None
        return self.texts[cursor]


@dataclass
class Handover:
    """What the SDK's transport starts from: the lines it has not seen (in order; the
    early initialize first), the bytes of a line not read whole, and the answers written
    early that it will make again (request id -> the line written)."""

    lines: list[bytes] = field(default_factory=list)
    rest: bytes = b""
    written: dict[Any, bytes] = field(default_factory=dict)
    front: Front | None = None   # answers the plain lists after, too (listing.Shortcut)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def answer_early(front: Front, fd_in: int, fd_out: int, ready: int) -> Handover:
    """Answer what `front` can from the pipe `fd_in` until `ready` (a pipe written once the
    SDK has loaded) is readable, a line needs the SDK, or the client has sent everything."""
    handover, pending = Handover(front=front), b""
    while True:
        waiting, _, _ = select.select([fd_in, ready], [], [])
        if ready in waiting:
            break
        chunk = os.read(fd_in, READ_BYTES)
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        for number, line in enumerate(lines):
            value = _parsed(line)
            answer = None if value is None else front.answer(value)
            if value is None or answer is None:
                handover.lines.extend(line + b"\n" for line in lines[number:])
                break
            if answer:
                _write_all(fd_out, answer)
            if value.get("method") != "tools/list":   # the handshake: the SDK's state
                handover.lines.append(line + b"\n")
        else:
            if chunk:
                continue
        break
    handover.rest = pending
    if front.initialize is not None:
        handover.written[front.initialize[0]] = front.initialize[1]
    return handover


def _parsed(line: bytes) -> dict[str, Any] | None:
    """The JSON object of a line, else None (what the SDK's transport reads and answers)."""
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _load(imports: Callable[[], None], ready: int) -> None:
    try:
        imports()
    except Exception:   # the main thread imports again, and reports it
        pass
    finally:
        os.write(ready, b".")


def serve_early(front: Front, wire_in: BinaryIO, wire_out: BinaryIO,
                imports: Callable[[], None]) -> Handover:
    """Run `imports` (the SDK's) in a worker thread while `front` answers the pipe
    `wire_in` on `wire_out`; the Handover once the SDK is needed and loaded."""
    ready, done = os.pipe()
    worker = threading.Thread(target=_load, args=(imports, done), name="toolcat-sdk-import",
                              daemon=True)
    # A line that arrives while the worker runs waits for the interpreter's lock until the
    # worker is told to let go: after SWITCH_SECONDS, not Python's default 5 ms.
    switch = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_SECONDS)
    worker.start()
    try:
        handover = answer_early(front, wire_in.fileno(), wire_out.fileno(), ready)
        worker.join()
    finally:
        sys.setswitchinterval(switch)
        os.close(ready)
        os.close(done)
    return handover


@contextmanager
def claimed_stdio(stdin: BinaryIO | None = None, stdout: BinaryIO | None = None
                  ) -> Iterator[tuple[BinaryIO, BinaryIO]]:
    """The wire's streams; fd 0/1 diverted (null device, stderr) while they are the wire,
    so stray output of a handler or a child process never corrupts the protocol stream."""
    if stdin is not None and stdout is not None:
        yield stdin, stdout
        return
    sys.stdout.flush()
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)
    os.close(null)
    try:
        with os.fdopen(wire_in, "rb", closefd=False) as read_end, \
                os.fdopen(wire_out, "wb", closefd=False) as write_end:
            yield stdin or read_end, stdout or write_end
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        os.close(wire_in)
        os.close(wire_out)


def toolset_entries(catalog: dict[str, Any], toolset: str | None) -> list[dict[str, Any]]:
    """The catalog's entries, or those of the toolset named (catalog.json's `toolsets`)."""
    if toolset is None:
        return list(catalog["tools"])
    members = set((catalog.get("toolsets") or {})[toolset])
    return [e for e in catalog["tools"] if e["tool"]["name"] in members]


def server_version(catalog: Mapping[str, Any]) -> str:
    """serverInfo.version: toolcat's version and the catalog's digest (`0.1.0+6e5753b6`)."""
    own = installed_version("toolcat")
    if own == "absent":   # run from a source tree that was never installed
        own = "0"
    digest = str(catalog.get("digest", "")).removeprefix("sha256:")[:8]
    return f"{own}+{digest}" if digest else own


def front_for(catalog: dict[str, Any], mode: str, toolset: str | None,
              schema_profile: str | None, page_bytes: int = PAGE_BYTES) -> Front | None:
    """The Front for what `build_server` serves, when it serves the catalog's own tools
    (no discovery mode, no schema profile), each of them plain; else None."""
    if mode != "tools" or schema_profile is not None:
        return None
    tools = [entry["tool"] for entry in toolset_entries(catalog, toolset)]
    return Front.of(str(catalog["name"]), server_version(catalog), tools, page_bytes)


def load_sdk() -> None:
    """Import what serving over the SDK needs (run by the worker thread)."""
    for module in ("anyio", f"{__package__}.embed", f"{__package__}.mcp_server"):
        importlib.import_module(module)


Start = Callable[[Handover | None, tuple[BinaryIO, BinaryIO]], None]


def serve_soon(front: Front, start: Start, imports: Callable[[], None] = load_sdk) -> None:
    """Serve stdio: `front` answers while `imports` run, then `start(handover, wire)`
    builds the server and serves the rest. Only a pipe is read early (select and a
    non-blocking hand-over need one); any other stdin starts the SDK first."""
    with claimed_stdio() as wire:
        try:
            piped = stat.S_ISFIFO(os.fstat(wire[0].fileno()).st_mode)
        except OSError:
            piped = False
        start(serve_early(front, *wire, imports) if piped else None, wire)
