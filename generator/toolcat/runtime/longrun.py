"""Long-running operations: an API that answers `202 Accepted` with a `Location` to poll.

Detected from the answer itself (whatever the document says, the API knows): the runtime
polls the `Location` (same scheme and host only: credentials go with the poll) with GET,
waiting as `Retry-After` says (0 to 5 s; 1 s when absent), and sends the client a progress
notification per poll (when the client asked for progress). A poll that is no longer 202 is
the operation's answer, served like any other. If the deadline (`ApiOptions.poll_seconds`)
comes first, the result is the last 202 with a handle: where the status is, and which tool
of the catalog reads it (a GET tool whose path template matches the `Location`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable, Mapping
from contextvars import ContextVar
from typing import Any
from urllib.parse import unquote, urlsplit

from .request import RequestError, resolve_server

Reporter = Callable[[float, float | None, str | None], Awaitable[None]]
# The progress reporter of the tools/call being served (set by the MCP server around a call).
REPORTER: ContextVar[Reporter | None] = ContextVar("toolcat_progress", default=None)
DEFAULT_WAIT = 1.0
MAX_WAIT = 5.0


async def report(progress: float, message: str) -> None:
    reporter = REPORTER.get()
    if reporter is not None:
        await reporter(progress, None, message)


def wait_for(headers: Mapping[str, str]) -> float:
    """Seconds to wait before the next poll: `Retry-After` in seconds, clamped, else 1 s."""
    raw = headers.get("retry-after", "").strip()
    if not raw.isdigit():
        return DEFAULT_WAIT
    return min(float(raw), MAX_WAIT)


def _template(path: str) -> re.Pattern[str]:
    parts = re.split(r"\{([^}]+)\}", path)
    pattern = "".join(re.escape(p) if i % 2 == 0 else f"(?P<p{i // 2}>[^/]+)"
                      for i, p in enumerate(parts))
    return re.compile(pattern)


def _argument(entry: dict[str, Any], wire: str, value: str) -> tuple[str, Any] | None:
    properties = entry["tool"]["inputSchema"].get("properties", {})
    for name, where in entry["binding"]["arguments"].items():
        if where.get("in") == "path" and where.get("name") == wire:
            typed = properties.get(name, {}).get("type")
            return name, int(value) if typed == "integer" and value.isdigit() else value
    return None


def status_tool(entries: Mapping[str, dict[str, Any]], base_url: str | None,
                location: str) -> tuple[str, dict[str, Any]] | None:
    """The GET tool (first by name) whose path template matches `location`, and its path
    arguments."""
    path = urlsplit(location).path
    for name, entry in sorted(entries.items()):
        binding = entry["binding"]
        if binding["method"] != "GET":
            continue
        try:
            prefix = urlsplit(resolve_server(binding["servers"], base_url)).path.rstrip("/")
        except RequestError:
            continue
        if not path.startswith(prefix):
            continue
        match = _template(binding["path"]).fullmatch(path[len(prefix):])
        if match is None:
            continue
        wires = re.findall(r"\{([^}]+)\}", binding["path"])
        found = [_argument(entry, w, unquote(v)) for w, v in zip(wires, match.groups(),
                                                                 strict=True)]
        if all(found):
            return name, dict(a for a in found if a is not None)
    return None


def handle(label: str, polls: int, seconds: float, location: str,
           tool: tuple[str, dict[str, Any]] | None) -> str:
    """What the agent reads when the operation outlives the deadline."""
    where = urlsplit(location).path
    text = (f"{label} was accepted (HTTP 202) and is still running after {polls} status "
            f"checks over {seconds:g} s; its status is at {where}. ")
    if tool is None:
        return text + "No tool of this catalog reads that path."
    name, arguments = tool
    return text + (f"Read it later with the tool {name} and the arguments "
                   f"{json.dumps(arguments, sort_keys=True)}.")
