"""A long-running operation, end to end: the API answers `202 Accepted` with a `Location`,
and the status there takes three polls to finish. toolcat's server (the SDK's client, both
revisions, a stub API on 127.0.0.1 that records each request) polls with GET, reports
progress per poll, and serves the finished answer; past the deadline it serves the last 202
with a handle naming the catalog tool that reads the status.
"""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from helpers.fixtures import generate, write_spec
from helpers.stub_api import Arrived, Conn, StubApi
from mcp import Client
from toolcat.runtime.api import ApiHandler, ApiOptions
from toolcat.runtime.mcp_server import make_server

JOB = {"type": "object", "properties": {"id": {"type": "integer"}, "state": {"type": "string"}},
       "required": ["id", "state"]}
RESPONSE = {"description": "the job", "content": {"application/json": {"schema": JOB}}}
SPEC = {"openapi": "3.1.0", "info": {"title": "jobs", "version": "1"},
        "servers": [{"url": "https://jobs.test/v1"}],
        "paths": {"/jobs": {"post": {"operationId": "start_job", "summary": "Start a job",
                                     "responses": {"202": {**RESPONSE, "headers": {
                                         "Location": {"schema": {"type": "string"}}}}}}},
                  "/jobs/{jobId}": {"get": {
                      "operationId": "get_job", "summary": "Read a job",
                      "parameters": [{"name": "jobId", "in": "path", "required": True,
                                      "schema": {"type": "integer"}}],
                      "responses": {"200": RESPONSE, "202": RESPONSE}}}}}


class JobApi:
    """POST /v1/jobs -> 202 + Location; GET /v1/jobs/7 -> 202 until `finish_after` polls."""

    def __init__(self, finish_after: int, retry_after: str) -> None:
        self.seen: list[tuple[str, str, str | None]] = []
        self.finish_after, self.retry_after, self.polls = finish_after, retry_after, 0

    def answer(self, method: str, path: str) -> tuple[int, dict[str, Any]]:
        if method == "POST":
            return 202, {"id": 7, "state": "queued"}
        self.polls += 1
        done = self.polls >= self.finish_after
        return (200, {"id": 7, "state": "done"}) if done else (202, {"id": 7, "state": "running"})

    def respond(self, arrived: Arrived, conn: Conn) -> None:
        """The stub API's answer: 202 with Location and Retry-After until done."""
        self.seen.append((arrived.method, arrived.target, arrived.headers.get("x-key")))
        status, body = self.answer(arrived.method, arrived.target)
        headers = {"Location": "/v1/jobs/7", "Retry-After": self.retry_after}
        conn.json(status, body, headers=headers if status == 202 else {})


@pytest.fixture(scope="module")
def catalog(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    spec = {**SPEC, "components": {"securitySchemes": {
        "key": {"type": "apiKey", "in": "header", "name": "X-Key"}}}, "security": [{"key": []}]}
    return generate(write_spec(tmp_path_factory.mktemp("jobs"), spec), name="jobs")


def _start(catalog: dict[str, Any], api: JobApi, mode: str,
           poll_seconds: float) -> tuple[Any, list[tuple[float, str | None]]]:
    progress: list[tuple[float, str | None]] = []

    async def record(value: float, total: float | None, message: str | None) -> None:
        progress.append((value, message))

    async def run(base: str) -> Any:
        options = ApiOptions(base_url=base, poll_seconds=poll_seconds)
        handler = ApiHandler(catalog, options, environ={"TOOLCAT_JOBS_KEY": "k-123456"})
        server = make_server("jobs", [e["tool"] for e in catalog["tools"]], handler)
        async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
            return await client.call_tool("start_job", {}, progress_callback=record)

    with StubApi(api.respond) as stub:
        return anyio.run(run, stub.url), progress


@pytest.mark.parametrize("mode", ["legacy", "auto"])
def test_a_202_is_polled_to_its_answer_with_progress(catalog: Any, mode: str) -> None:
    api = JobApi(finish_after=3, retry_after="0")
    result, progress = _start(catalog, api, mode, poll_seconds=30)
    assert not result.is_error, result.content
    assert result.structured_content == {"id": 7, "state": "done"}
    polls = [("GET", "/v1/jobs/7", "k-123456")] * 3
    assert api.seen == [("POST", "/v1/jobs", "k-123456"), *polls]
    assert [p[0] for p in progress] == [1, 2, 3]
    assert progress[0][1] == "POST /v1/jobs: still running (status check 1)"


def test_past_the_deadline_the_agent_gets_a_handle_naming_the_status_tool(catalog: Any) -> None:
    api = JobApi(finish_after=100, retry_after="1")
    result, progress = _start(catalog, api, "legacy", poll_seconds=2.5)
    assert not result.is_error, result.content
    assert result.structured_content == {"id": 7, "state": "running"}
    assert len(api.seen) == 3  # the POST and two polls a second apart
    assert len(progress) == 2
    note = result.content[-1].text
    assert ("POST /v1/jobs was accepted (HTTP 202) and is still running after 2 status "
            "checks") in note
    assert "its status is at /v1/jobs/7" in note
    assert 'Read it later with the tool get_job and the arguments {"jobId": 7}.' in note
