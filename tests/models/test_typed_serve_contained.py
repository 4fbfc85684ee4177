"""Typed `serve(impl)`: a handler that raises CancelledError, awaits forever or blocks costs
its own call only; the server answers it (isError) and keeps serving the others.

In process through the SDK's client, with the example catalog's generated models.
"""

from __future__ import annotations

import asyncio
import sys
import time
from types import ModuleType
from typing import Any

import anyio
import pytest
from helpers.models import import_models
from mcp import Client
from toolcat.output.files import Files
from toolcat.runtime.typed import serve_typed

DEADLINE = 1.0


@pytest.fixture(scope="module")
def models(tmp_path_factory: pytest.TempPathFactory, example_files: Files) -> ModuleType:
    return import_models(example_files, tmp_path_factory.mktemp("typed-contained"))


class Hostile:
    async def broadcast_get_channel(self, arguments: Any) -> Any:
        await anyio.sleep_forever()

    async def broadcast_delete_channel(self, arguments: Any) -> Any:
        raise asyncio.CancelledError

    def broadcast_reset_playout(self, arguments: Any) -> Any:
        time.sleep(2 * DEADLINE + 0.5)   # a blocking driver call: runs off the loop
        return {"reset": arguments.playoutId}

    def broadcast_remove_collection_item(self, arguments: Any) -> Any:
        return {"removed": arguments.mediaItemId}


def _server(models: ModuleType) -> Any:
    package = sys.modules[str(models.__package__)]
    return serve_typed(package.CATALOG_NAME, package.list_tools(), models.TYPED_TOOLS,
                       Hostile(), deadline=DEADLINE)


def test_await_forever_meets_the_deadline(models: ModuleType) -> None:
    async def run() -> tuple[Any, float]:
        async with Client(_server(models)) as client:
            start = time.monotonic()
            with anyio.fail_after(DEADLINE + 10):   # the test's own bound: red, not hung
                result = await client.call_tool("broadcast_get_channel", {"channelId": 1})
            return result, time.monotonic() - start

    result, took = anyio.run(run)
    assert result.is_error
    assert "did not finish within its deadline of 1 s" in result.content[0].text
    assert took < DEADLINE + 5


def test_cancelled_error_from_a_handler_is_one_result(models: ModuleType) -> None:
    async def run() -> list[Any]:
        async with Client(_server(models)) as client:
            return [await client.call_tool("broadcast_delete_channel", {"channelId": 1}),
                    await client.call_tool("broadcast_remove_collection_item",
                                           {"collectionId": 1, "mediaItemId": 2})]

    cancelled, after = anyio.run(run)
    assert cancelled.is_error
    assert "CancelledError" in cancelled.content[0].text
    assert not after.is_error
    assert '"removed": 2' in after.content[0].text


def test_a_blocking_handler_stalls_only_its_own_call(models: ModuleType) -> None:
    finished: dict[str, float] = {}

    async def run() -> None:
        async with Client(_server(models)) as client:
            start = time.monotonic()

            async def call(name: str, arguments: dict[str, Any]) -> None:
                await client.call_tool(name, arguments)
                finished[name] = time.monotonic() - start

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(call, "broadcast_reset_playout", {"playoutId": 3})
                await anyio.sleep(0.2)
                tasks.start_soon(call, "broadcast_remove_collection_item",
                                 {"collectionId": 1, "mediaItemId": 2})

    anyio.run(run)
    assert finished["broadcast_remove_collection_item"] < DEADLINE
    assert finished["broadcast_reset_playout"] >= DEADLINE
