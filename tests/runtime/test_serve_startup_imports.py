"""`toolcat serve` answers initialize and tools/list before it loads what only a call needs.

jsonschema (the validators, compiled on a tool's first call) and the discovery mode's
stemmer stay unloaded until they are used, so a server's start-up pays for the MCP SDK and
the catalog only (issue 25: start-up to the first tools/list; on stdio the SDK loads beside
the first answers: test_serve_early_answers.py). Run in a fresh interpreter: the test
process has loaded everything long ago.
"""

from __future__ import annotations

import json
import subprocess
import sys

from helpers.paths import EXAMPLE_OUTPUT, REPO

DEFERRED = ("jsonschema", "snowballstemmer", "uvicorn")

PROGRAM = f"""
import json, sys
import anyio
from mcp import Client
from toolcat.runtime.embed import build_server, open_catalog
from toolcat.runtime.mcp_server import ToolOutcome

DEFERRED = {DEFERRED!r}
async def nothing(name, arguments):
    return ToolOutcome(structured={{"id": 1, "name": "x"}})

loaded = {{}}
async def main():
    server = build_server(open_catalog({str(EXAMPLE_OUTPUT)!r}), base_url="http://127.0.0.1:9")
    async with Client(server, mode="legacy") as client:
        listed = await client.list_tools()
        loaded["listed"] = [len(listed.tools), sorted(m for m in DEFERRED if m in sys.modules)]
        answer = await client.call_tool("broadcast_get_channel", {{"channelId": "seven"}})
        loaded["called"] = [answer.is_error, sorted(m for m in DEFERRED if m in sys.modules)]
anyio.run(main)
print(json.dumps(loaded))
"""


def test_jsonschema_and_the_stemmer_load_on_first_use() -> None:
    before = subprocess.run([sys.executable, "-c", "import sys, mcp; print(sorted(m for m in "
                             f"{DEFERRED!r} if m in sys.modules))"], capture_output=True,
                            text=True, cwd=REPO, check=True)
    sdk_own = json.loads(before.stdout.replace("'", '"'))
    run = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                         cwd=REPO, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout.splitlines()[-1])
    count, at_list = found["listed"]
    assert count > 0
    # What the SDK itself loads (uvicorn, for its HTTP transport) is not serve's to defer.
    assert sorted(set(at_list) - set(sdk_own)) == [], f"loaded before the first call: {at_list}"
    refused, at_call = found["called"]
    # The invalid call is refused by the validator: jsonschema loaded, and it works.
    assert refused is True
    assert "jsonschema" in at_call
