"""An MCP server (the SDK's low-level `Server`) over a list of catalog `tool` objects.

The SDK's low-level server no longer checks arguments against inputSchema and turns any
exception but `MCPError` into a JSON-RPC error with code 0, so this module owns the MCP
contract: arguments are validated before the handler runs (an invalid call never reaches the
API), an unknown tool is a JSON-RPC error, everything the tool itself gets wrong is a result
with `isError: true`, and structured output is checked against outputSchema before it leaves.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import mcp_types as types
import uvicorn
from jsonschema import Draft202012Validator, ValidationError  # type: ignore[import-untyped]
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError


@dataclass(frozen=True)
class ToolOutcome:
    """What a handler returns for one call.

    `structured` is the JSON result (already wrapped as the binding's outputWrapper says);
    `text` is shown to the agent when there is no structured result or beside an error;
    `notes` are extra text blocks (an ETag to pass back as `ifMatch`, advice after a 412).
    """

    structured: Any = None
    text: str | None = None
    is_error: bool = False
    notes: tuple[str, ...] = field(default=())
    status: int | None = None   # the API's HTTP status, when it answered one


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
    tool: dict[str, Any]
    wire: types.Tool
    inputs: Draft202012Validator
    outputs: Draft202012Validator | None


def _entry(tool: dict[str, Any]) -> _Entry:
    output_schema = tool.get("outputSchema")
    return _Entry(
        tool=tool,
        wire=types.Tool.model_validate(tool),
        inputs=Draft202012Validator(
            tool["inputSchema"], format_checker=Draft202012Validator.FORMAT_CHECKER
        ),
        outputs=None if output_schema is None else Draft202012Validator(output_schema),
    )


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


def _text(value: str) -> types.TextContent:
    return types.TextContent(type="text", text=value)


def _error_result(message: str, notes: Iterable[str] = ()) -> types.CallToolResult:
    content: list[types.ContentBlock] = [_text(message), *map(_text, notes)]
    return types.CallToolResult(content=content, is_error=True)


def _result(entry: _Entry, outcome: ToolOutcome) -> types.CallToolResult:
    notes = list(outcome.notes)
    if outcome.is_error:
        return _error_result(outcome.text or "the tool call failed", notes)
    if entry.outputs is not None and outcome.structured is None:
        # A client rejects a success without structuredContent from a tool with an
        # outputSchema: say what came instead, as a result the agent can read.
        return _error_result("The API's answer has no JSON body, but this tool declares an "
                             "outputSchema: " + _with_status(outcome.text or "(empty)",
                                                             outcome.status), notes)
    if entry.outputs is not None:
        problems = sorted(
            f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}"
            for e in entry.outputs.iter_errors(outcome.structured)
        )
        if problems:
            # The API answered with something its own document does not describe: tell the
            # agent (with the data) instead of passing on a result the client would reject.
            body = json.dumps(outcome.structured, ensure_ascii=False, sort_keys=True)
            # The status is said, so a client (toolcat verify) tells this 2xx from an API
            # failure.
            said = f" (HTTP {outcome.status})" if outcome.status is not None else ""
            report = (f"The API's response{said} does not match this tool's outputSchema:\n"
                      + "\n".join(f"- {p}" for p in problems))
            return _error_result(report, [f"Response body: {body[:4000]}", *notes])
    content: list[types.ContentBlock] = []
    structured: Any = None
    if isinstance(outcome.structured, dict) or (
        entry.outputs is not None and outcome.structured is not None
    ):
        structured = outcome.structured
        content.append(_text(json.dumps(structured, ensure_ascii=False, sort_keys=True)))
    elif outcome.structured is not None:
        content.append(_text(json.dumps(outcome.structured, ensure_ascii=False, sort_keys=True)))
    if outcome.text is not None:
        content.append(_text(outcome.text))
    content.extend(map(_text, notes))
    if not content:
        content.append(_text("OK (no content)"))
    return types.CallToolResult(content=content, structured_content=structured)


def _with_status(text: str, status: int | None) -> str:
    return text if status is None or f"HTTP {status}" in text else f"{text} (HTTP {status})"


def make_server(name: str, tools: list[dict[str, Any]], handler: Handler) -> Server[Any]:
    """A low-level MCP server listing `tools` (catalog order) and calling `handler`.

    `tools` are the catalog's `tool` objects, served equal as JSON. The handler is called only
    with arguments valid against the tool's inputSchema.
    """
    entries = {tool["name"]: _entry(tool) for tool in tools}
    listed = [entries[tool["name"]].wire for tool in tools]

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=listed)

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        entry = entries.get(params.name)
        if entry is None:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {params.name}")
        arguments = dict(params.arguments or {})
        problems = argument_errors(entry.inputs, arguments)
        if problems:
            return _error_result(
                "Invalid arguments; nothing was sent to the API:\n"
                + "\n".join(f"- {p}" for p in problems)
            )
        try:
            outcome = await handler(params.name, arguments)
        except MCPError:
            raise
        except Exception as exc:  # a tool failure is a result the agent sees, never code 0
            return _error_result(f"The tool failed: {type(exc).__name__}: {exc}")
        return _result(entry, outcome)

    return Server(name, on_list_tools=list_tools, on_call_tool=call_tool)


async def run_stdio(server: Server[Any]) -> None:
    """Serve one client over stdin/stdout until it disconnects."""
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


async def run_http(server: Server[Any], host: str, port: int) -> None:
    """Serve streamable HTTP at `http://host:port/mcp` until cancelled."""
    app = server.streamable_http_app(host=host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")
    await uvicorn.Server(config).serve()
