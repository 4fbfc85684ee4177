"""One call can never end the server: what a `tools/call` handler does stays inside that call.

`contain(call_tool)` wraps the low-level server's `tools/call` handler (for `toolcat serve`
and typed `serve(impl)` alike, on every transport):

- (an argument holding a lone surrogate is refused by the call path, mcp_server.call_entry,
  naming where it sits);
- any exception of the handler, `RecursionError` and a `CancelledError` the handler raised
  itself included, becomes an `isError` result (a real cancellation of the call still
  propagates: the SDK answers it);
- a result holding text UTF-8 cannot carry (an API answered `"\\udc00"`) has those characters
  replaced by U+FFFD, with a note saying so, instead of failing to serialise (which ended the
  stdio server and left an HTTP call unanswered).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

import mcp_types as types
from mcp.shared.exceptions import MCPError
from pydantic_core import PydanticSerializationError

CallTool = Callable[[Any, types.CallToolRequestParams], Awaitable[types.CallToolResult]]

_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def has_surrogate(value: Any) -> bool:
    """Whether any string (or member name) inside a JSON value is not encodable as UTF-8."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)
    return False


def scrub(value: Any) -> Any:
    """`value` with every lone surrogate replaced by U+FFFD (strings and member names)."""
    if isinstance(value, str):
        return _SURROGATE.sub(REPLACEMENT, value)
    if isinstance(value, dict):
        return {scrub(k): scrub(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [scrub(v) for v in value]
    return value


def really_cancelled() -> bool:
    """Whether the running task was asked to stop (not a handler raising CancelledError)."""
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return True
    return task is None or task.cancelling() > 0


def error_result(message: str) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=message)],
                                is_error=True)


def encodable(result: types.CallToolResult) -> types.CallToolResult:
    """`result`, or a copy whose unencodable characters are replaced, with a note."""
    try:
        result.model_dump_json(by_alias=True, exclude_none=True)
    except PydanticSerializationError:
        data = scrub(result.model_dump(by_alias=True, exclude_none=True))
        data["content"].append({"type": "text", "text": (
            "Note: the answer held text UTF-8 cannot carry (lone surrogates); each such "
            f"character is shown as {REPLACEMENT}.")})
        return types.CallToolResult.model_validate(data)
    return result


def contain(call_tool: CallTool) -> CallTool:
    """`call_tool`, answering every call with a result or a JSON-RPC error, never a crash."""
    async def guarded(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        # An argument holding a lone surrogate is refused by the call path itself, naming
        # where it sits (mcp_server.call_entry: direct, discovery and typed calls alike).
        try:
            result = await call_tool(ctx, params)
        except MCPError as exc:
            raise MCPError(exc.code, scrub(exc.message), scrub(exc.data)) from None
        except asyncio.CancelledError:
            if really_cancelled():
                raise
            result = error_result("The tool failed: its handler raised CancelledError "
                                  "(the call was not cancelled by the client)")
        except Exception as exc:  # one call never ends the server
            result = error_result(f"The tool failed: {type(exc).__name__}: {scrub(str(exc))}"
                                  [:2000])
        return encodable(result)

    return guarded
