"""Serve an implementation of a catalog's typed surface (``models.py``) over MCP.

``serve(models, implementation)``: ``models`` is the generated module, which needs
pydantic only (a project installs toolcat isolated and still imports its models);
its ``TYPED_TOOLS`` and its package's ``CATALOG_NAME`` and ``list_tools`` say what
to serve.

The server validates arguments against the tool's inputSchema first (the
catalog is the contract; pydantic cannot express all of it, see the README's
divergence table), then the input model parses them, the implementation's
method runs, and its output model is dumped to JSON for the structured result.

One call never ends or stalls the server: each call has a deadline (`deadline` seconds,
default 60; a handler that awaits forever gets an isError result when it passes); a handler
that raises (``CancelledError`` included) is an isError result (``containment.py``); a plain
``def`` method runs in a worker thread, so a handler that blocks (a database driver, a
``time.sleep``) stalls only its own call. An ``async def`` method runs on the event loop and
must not block it: while it blocks, no other call is served.
"""

from __future__ import annotations

import importlib
import inspect
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import anyio
import pydantic
from mcp.server.lowlevel import Server

from .mcp_server import Handler, ToolOutcome, make_server

TypedServer = Server[Any]
DEFAULT_DEADLINE = 60.0


@dataclass(frozen=True)
class TypedTool:
    input: type[pydantic.BaseModel]
    output: type[pydantic.BaseModel] | None
    method: str


async def _invoke(method: Callable[..., Any], parsed: pydantic.BaseModel) -> Any:
    """An async method on the loop; a plain one in a worker thread (it may block)."""
    if inspect.iscoroutinefunction(method):
        return await method(parsed)
    result = await anyio.to_thread.run_sync(method, parsed, abandon_on_cancel=True)
    return await result if inspect.isawaitable(result) else result


def typed_handler(tools: Mapping[str, TypedTool], implementation: object,
                  deadline: float = DEFAULT_DEADLINE) -> Handler:
    async def handle(name: str, arguments: dict[str, Any]) -> ToolOutcome:
        entry = tools[name]
        try:
            parsed = entry.input.model_validate(arguments)
        except pydantic.ValidationError as exc:
            return ToolOutcome(text=f"invalid arguments for {name}: {exc}", is_error=True)
        try:
            with anyio.move_on_after(deadline) as limit:
                result = await _invoke(getattr(implementation, entry.method), parsed)
        except Exception as exc:  # a failing tool is an isError result, not a protocol error
            return ToolOutcome(text=f"{name} failed: {exc}", is_error=True)
        if limit.cancelled_caught:
            return ToolOutcome(text=f"{name} did not finish within its deadline of "
                               f"{deadline:g} s; it was cancelled", is_error=True)
        if entry.output is None:
            return ToolOutcome(text=json.dumps(result, sort_keys=True, default=str))
        if not isinstance(result, entry.output):
            return ToolOutcome(text=f"{name} returned {type(result).__name__}, "
                               f"not {entry.output.__name__}", is_error=True)
        # exclude_unset: an optional field the handler never set is absent, not null.
        return ToolOutcome(structured=result.model_dump(mode="json", by_alias=True,
                                                        exclude_unset=True))
    return handle


def serve_typed(name: str, tools: list[dict[str, Any]], typed: Mapping[str, TypedTool],
                implementation: object, *, deadline: float = DEFAULT_DEADLINE) -> TypedServer:
    """An MCP server whose ``tools/list`` is ``tools``, calls dispatched to ``implementation``,
    each call cancelled (an isError result) after ``deadline`` seconds."""
    missing = sorted(t["name"] for t in tools if t["name"] not in typed)
    if missing:
        raise ValueError(f"no typed entry for tools {missing}")
    return make_server(name, tools, typed_handler(typed, implementation, deadline))


def serve(models: ModuleType, implementation: object) -> TypedServer:
    """An MCP server (the SDK's low-level ``Server``) for ``implementation`` of the
    generated ``models`` module's typed surface."""
    package = importlib.import_module(models.__package__ or "")
    typed: Mapping[str, TypedTool] = models.TYPED_TOOLS
    return serve_typed(package.CATALOG_NAME, package.list_tools(), typed, implementation)
