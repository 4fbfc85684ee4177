"""The API answers 200 with a body its own document does not allow: the agent gets an
`isError` result saying which field breaks the tool's outputSchema, with the body; the server
does not crash and the client does not choke on invalid structuredContent."""

from __future__ import annotations

import json

import anyio
from helpers.broadcast_api import SpecServer
from helpers.paths import EXAMPLE_OUTPUT, EXAMPLE_SPEC
from helpers.stub_api import StubApi
from mcp import Client
from toolcat.runtime.api import ApiHandler, ApiOptions
from toolcat.runtime.mcp_server import make_server


def test_response_violating_output_schema_is_reported() -> None:
    api = SpecServer(EXAMPLE_SPEC)
    api.answer_override["getSchedule"] = {"id": "seven", "name": "Late night"}
    catalog = json.loads((EXAMPLE_OUTPUT / "catalog.json").read_text())

    async def run(base: str) -> object:
        server = make_server("broadcast", [e["tool"] for e in catalog["tools"]],
                             ApiHandler(catalog, ApiOptions(base_url=base)))
        async with Client(server, mode="legacy") as client:
            return await client.call_tool("broadcast_get_schedule", {"scheduleId": 3})

    with StubApi(api.answer) as stub:
        result = anyio.run(run, stub.url)
    assert result.is_error  # type: ignore[attr-defined]
    texts = [b.text for b in result.content]  # type: ignore[attr-defined]
    assert texts[0].startswith("The API answered GET /api/v1/schedules/3 with HTTP 200 OK: "
                               "the call succeeded.\n")
    assert "does not match this tool's outputSchema" in texts[0]
    assert "- /id: expected integer, got string" in texts[0]
    assert texts[1].startswith('Response body: {"id": "seven"')
    assert any(t.startswith('ETag: "v1"') for t in texts)
