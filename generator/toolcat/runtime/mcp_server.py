"""An MCP server (the SDK's low-level `Server`) over a list of catalog `tool` objects.

The SDK's low-level server no longer checks arguments against inputSchema and turns any
exception but `MCPError` into a JSON-RPC error with code 0, so this module owns the MCP
contract: arguments are validated before the handler runs (an invalid call never reaches the
API), an unknown tool is a JSON-RPC error, everything the tool itself gets wrong is a result
with `isError: true`, and structured output is checked against outputSchema before it leaves.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, BinaryIO

import mcp_types as types
import orjson
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError

from ..vocab import ecma
from .containment import contain
from .content import Blob, binary_block
from .early import PAGE_BYTES
from .listing import CACHE_HINTS, ListMemo, Pages
from .longrun import REPORTER
from .stdio import serve_stdio
from .strict import UndecodableArguments

if TYPE_CHECKING:   # jsonschema loads with the first call's validator (vocab/ecma.py)
    from jsonschema import Draft202012Validator, ValidationError  # type: ignore[import-untyped]

    from .early import Handover
    from .transport_guard import TransportGuard


@dataclass(frozen=True)
class ToolOutcome:
    """What a handler returns for one call.

    `structured` is the JSON result (already wrapped as the binding's outputWrapper says);
    `text` is shown to the agent when there is no structured result or beside an error;
    `notes` are extra text blocks (an ETag to pass back as `ifMatch`, advice after a 412).
    `answer` is the sentence a 2xx result starts with ("The API answered PUT /x with HTTP
    200 OK: the call succeeded and was applied ..."), said first if the body then fails the
    outputSchema; `status` the HTTP status, if any; `empty` marks an answer that has no body
    by definition (204, 205, 304, HEAD): a success whatever the document declares.
    `blobs` are binary answers, served as image, audio or embedded resource content.
    """

    structured: Any = None
    text: str | None = None
    is_error: bool = False
    notes: tuple[str, ...] = field(default=())
    answer: str | None = None
    status: int | None = None
    empty: bool = False
    blobs: tuple[Blob, ...] = field(default=())


Handler = Callable[[str, dict[str, Any]], Awaitable[ToolOutcome]]

# JSON names for the Python types jsonschema reports, so the agent reads `null`, not `None`.
_JSON_TYPE = {
    type(None): "null",
    bool: "boolean",
    int: "integer",
    float: "number",
    str: "string",
    list: "array",
    dict: "object",
}


@dataclass(frozen=True)
class _Entry:
    """One served tool: its object and wire form, and its validators, each compiled on the
    tool's first call (a server of 1,533 tools would otherwise compile 3,000 validators
    before it can answer, for the few tools a session calls)."""

    tool: dict[str, Any]
    wire: types.Tool

    @cached_property
    def inputs(self) -> Draft202012Validator:
        # ECMA-262 patterns (vocab/ecma.py): Python's `re` refuses or misreads some.
        validator = ecma.ECMAValidator
        return validator(self.tool["inputSchema"], format_checker=validator.FORMAT_CHECKER)

    @cached_property
    def outputs(self) -> Draft202012Validator | None:
        output_schema = self.tool.get("outputSchema")
        return None if output_schema is None else ecma.ECMAValidator(output_schema)


Entry = _Entry   # one served tool: its object, wire form and validators


def _entry(tool: dict[str, Any]) -> _Entry:
    return _Entry(tool=tool, wire=types.Tool.model_validate(tool))


def _json_type(value: Any) -> str:
    return _JSON_TYPE.get(type(value), type(value).__name__)


def _why(error: ValidationError) -> str:
    """A reason an agent can act on, in JSON words rather than Python reprs."""
    message: str = error.message
    if error.validator == "type":
        return f"expected {error.validator_value}, got {_json_type(error.instance)}"
    if error.validator == "enum":
        allowed = ", ".join(json.dumps(v) for v in error.validator_value)
        return f"{json.dumps(error.instance)} is not one of: {allowed}"
    if error.validator == "const":
        return f"must be {json.dumps(error.validator_value)}"
    return message


def _argument_problems(error: ValidationError, arguments: dict[str, Any]) -> list[str]:
    """One `name: why` line per offending argument that this error reports."""
    if error.path:
        name = str(error.path[0])
        inner = "".join(f"[{json.dumps(p)}]" for p in list(error.path)[1:])
        return [f"{name}{inner}: {_why(error)}"]
    if error.validator == "required":
        missing = [n for n in error.validator_value if n not in arguments]
        return [f"{n}: required argument is missing" for n in missing]
    if error.validator == "additionalProperties":
        declared = set(error.schema.get("properties", {}))
        extra = sorted(n for n in arguments if n not in declared)
        return [f"{n}: not an argument of this tool (unknown property)" for n in extra]
    if error.validator == "type":
        return [f"(arguments): {_why(error)}"]
    return [f"(arguments): {error.message}"]


def argument_errors(validator: Draft202012Validator, arguments: dict[str, Any]) -> list[str]:
    """Every problem with `arguments`, one line per argument, in a fixed order."""
    lines: list[str] = []
    for error in validator.iter_errors(arguments):
        lines.extend(_argument_problems(error, arguments))
    return sorted(set(lines))


# In a Python str from JSON, any surrogate code point is a lone one (pairs are combined):
# it cannot be encoded as UTF-8, and the SDK's writer would fail on it.
_SURROGATE = re.compile("[\ud800-\udfff]")
UNICODE_NOTE = ("Some text in the API's answer was not valid Unicode (a lone surrogate such as "
                "\\udc00); it was replaced with U+FFFD.")
MAX_BODY_CHARS = 4000


def _escaped(text: str) -> str:
    """Text that UTF-8 can carry: a lone surrogate shown as its `\\uXXXX` escape."""
    if text.isascii():
        return text
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def unicode_clean(value: Any) -> tuple[Any, bool]:
    """A JSON value with every lone surrogate replaced by U+FFFD, and whether one was."""
    try:
        orjson.dumps(value)   # refuses any text UTF-8 cannot carry: the cheap common case
        return value, False
    except (TypeError, ValueError, RecursionError):
        return _replace_surrogates(value)


def _replace_surrogates(value: Any) -> tuple[Any, bool]:
    if isinstance(value, str):
        if value.isascii():
            return value, False
        cleaned = _SURROGATE.sub("\ufffd", value)
        return cleaned, cleaned != value
    if isinstance(value, dict):
        items = [(_replace_surrogates(k), _replace_surrogates(v)) for k, v in value.items()]
        return ({k: v for (k, _), (v, _) in items},
                any(a or b for (_, a), (_, b) in items))
    if isinstance(value, list):
        cleaned_items = [_replace_surrogates(v) for v in value]
        return [v for v, _ in cleaned_items], any(c for _, c in cleaned_items)
    return value, False


def _surrogate_paths(value: Any, path: str) -> list[str]:
    """Where a value holds a lone surrogate (argument name, then member names or indexes)."""
    if isinstance(value, str):
        return [path] if _SURROGATE.search(value) else []
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in
                (_surrogate_paths(k, path) + _surrogate_paths(v, f"{path}[{json.dumps(k)}]"))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _surrogate_paths(v, f"{path}[{i}]")]
    return []


def _text(value: str) -> types.TextContent:
    return types.TextContent(type="text", text=_escaped(value))


def _error_result(message: str, notes: Iterable[str] = ()) -> types.CallToolResult:
    content: list[types.ContentBlock] = [_text(message), *map(_text, notes)]
    return types.CallToolResult(content=content, is_error=True)


def _pointer(error: ValidationError) -> str:
    tokens = [str(p).replace("~", "~0").replace("/", "~1") for p in error.absolute_path]
    return "/" + "/".join(tokens) if tokens else "(root)"


def _output_problems(validator: Draft202012Validator, value: Any) -> list[str]:
    """One `pointer: reason` line per way `value` breaks the outputSchema (sorted)."""
    return sorted({f"{_pointer(e)}: {_why(e)[:300]}" for e in validator.iter_errors(value)})


def _mismatch(outcome: ToolOutcome, structured: Any, problems: list[str],
              notes: list[str]) -> types.CallToolResult:
    """A 2xx whose body the outputSchema does not describe: the success first, then why the
    data comes as JSON text (a client rejects non-conforming structuredContent)."""
    head = outcome.answer or "The tool answered."
    report = (f"{head}\nIts answer does not match this tool's outputSchema (the API's "
              "document does not describe it), so the data comes below as JSON text instead "
              "of structured content:\n" + "\n".join(f"- {p}" for p in problems))
    body = (outcome.text or "(empty)" if structured is None
            else json.dumps(structured, ensure_ascii=False, sort_keys=True))
    if len(body) > MAX_BODY_CHARS:
        body = body[:MAX_BODY_CHARS] + f" ... ({len(body) - MAX_BODY_CHARS} more characters)"
    return _error_result(report, [f"Response body: {body}", *notes])


def _result(entry: _Entry, outcome: ToolOutcome) -> types.CallToolResult:
    structured, replaced = unicode_clean(outcome.structured)
    notes = [*outcome.notes, *([UNICODE_NOTE] if replaced else [])]
    if outcome.is_error:
        return _error_result(outcome.text or "the tool call failed", notes)
    if entry.outputs is not None and not (structured is None and outcome.empty):
        problems = (["(root): the answer has no JSON body"] if structured is None
                    else _output_problems(entry.outputs, structured))
        if problems:
            return _mismatch(outcome, structured, problems, notes)
    content: list[types.ContentBlock] = []
    if structured is not None:
        content.append(_text(json.dumps(structured, ensure_ascii=False, sort_keys=True)))
    if outcome.text is not None:
        content.append(_text(outcome.text))
    content.extend(map(binary_block, outcome.blobs))
    content.extend(map(_text, notes))
    if not content:
        content.append(_text(outcome.answer or "OK (no content)"))
    if isinstance(structured, dict) or (entry.outputs is not None and structured is not None):
        return types.CallToolResult(content=content, structured_content=structured)
    if structured is None and entry.outputs is not None and entry.outputs.is_valid({}):
        # An empty 204 of a tool whose outputSchema admits {}: a client requires structure.
        return types.CallToolResult(content=content, structured_content={})
    return types.CallToolResult(content=content)


def make_server(name: str, tools: list[dict[str, Any]], handler: Handler,
                view: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                version: str = "", page_bytes: int = PAGE_BYTES,
                decode: Callable[[str, dict[str, Any]], dict[str, Any]] | None = None
                ) -> Server[Any]:
    """A low-level MCP server listing `tools` (catalog order, in pages) and calling `handler`.

    `tools` are the catalog's `tool` objects, served equal as JSON (or as `view` shows each
    to a client: a schema profile, whose `decode` maps a call's arguments back first; it
    raises UndecodableArguments for arguments it cannot read). The handler is called
    only with arguments valid against the tool's exact inputSchema.
    """
    entries = entries_of(tools)
    listed = [entries[tool["name"]].wire if view is None
              else types.Tool.model_validate(view(tool)) for tool in tools]
    pages = Pages(listed, page_bytes)

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return pages.page(params.cursor if params else None)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        entry = entries.get(params.name)
        if entry is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = dict(params.arguments or {})
        if decode is not None:
            try:
                arguments = decode(params.name, arguments)
            except UndecodableArguments as exc:
                return _invalid(exc.problems)
        reporting = REPORTER.set(ctx.session.report_progress)
        try:
            return await call_entry(entry, arguments, handler)
        finally:
            REPORTER.reset(reporting)

    # contain: one call can never end the server (containment.py).
    server = Server(name, version=version, cache_hints=CACHE_HINTS,
                    on_list_tools=list_tools, on_call_tool=contain(call_tool))
    server.middleware.append(ListMemo())   # innermost: the SDK's own middleware still runs
    return server


def entries_of(tools: list[dict[str, Any]]) -> dict[str, _Entry]:
    """Each tool's entry (its wire form and validators), by name."""
    return {tool["name"]: _entry(tool) for tool in tools}


def _invalid(problems: list[str]) -> types.CallToolResult:
    return _error_result("Invalid arguments; nothing was sent to the API:\n"
                         + "\n".join(f"- {p}" for p in problems))


async def call_entry(entry: _Entry, arguments: dict[str, Any],
                     handler: Handler) -> types.CallToolResult:
    """One call of one tool: validation, the handler, output checking. Every way of calling
    a tool (tools/call, discovery's call tool) goes through here."""
    problems = argument_errors(entry.inputs, arguments) or [
        f"{p}: holds text that is not valid Unicode (a lone surrogate); send valid text"
        for name, value in arguments.items()
        for p in _surrogate_paths(name, name) + _surrogate_paths(value, name)]
    if problems:
        return _invalid(problems)
    try:
        return _result(entry, await handler(entry.tool["name"], arguments))
    except MCPError:
        raise
    except Exception as exc:  # a tool failure is a result the agent sees, never code 0
        return _error_result(f"The tool failed: {type(exc).__name__}: {exc}")


async def run_stdio(server: Server[Any], handover: Handover | None = None,
                    wire: tuple[BinaryIO, BinaryIO] | None = None) -> None:
    """Serve one client over stdin/stdout (or `wire`) until it disconnects (every request
    answered: see stdio.py), after the `handover` of early.py if any."""
    stdin, stdout = wire or (None, None)
    await serve_stdio(server, stdin, stdout, handover)


async def run_http(server: Server[Any], host: str, port: int,
                   guard: TransportGuard | None = None) -> None:
    """Serve streamable HTTP at `http://host:port/mcp` until cancelled; every request passes
    `guard` first (default: loopback Host and Origin only, see transport_guard.py)."""
    # Imported here: stdio's start-up does without the HTTP server (about 0.1 s).
    import uvicorn  # noqa: PLC0415

    from .streams import stream_options  # noqa: PLC0415
    from .transport_guard import TransportGuard  # noqa: PLC0415

    guard = guard or TransportGuard()
    app = guard.wrap(server.streamable_http_app(host=host,
                                                transport_security=guard.sdk_settings(),
                                                **stream_options()))
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()
