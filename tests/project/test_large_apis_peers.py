"""`make bench`'s sizes beside the peers (issue 23): scripts/large_apis.py --peers.

The peers are installed by `make bench` only; here their listers are replaced by made-up
tool lists, so what is tested is toolcat's side, the measuring (the same compact JSON for
every server) and the rows. openapi-mcp-generator's tool list is read from its generated
`src/index.ts` with node: that reader runs on a file shaped like the generator's output.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from helpers.paths import shared
from helpers.scripts import script

PETSTORE = "oai-examples/v3.0/petstore.yaml"
INDEX_TS = """import { Server } from "@modelcontextprotocol/sdk/server/index.js";
const toolDefinitionMap: Map<string, McpToolDefinition> = new Map([

  ["listPets", {
    name: "listPets",
    description: `List all pets
(Tags: pets)`,
    inputSchema: {"type":"object","properties":{"limit":{"type":"number"}}},
    method: "get",
    requestBodyContentType: undefined,
    securityRequirements: [],
  }],
  ["showPetById", {
    name: "showPetById",
    description: `Info for a specific pet`,
    inputSchema: {"type":"object","properties":{"petId":{"type":"string"}},"required":["petId"]},
    method: "get",
  }],
]);

server.setRequestHandler(ListToolsRequestSchema, async () => {
  const toolsForClient: Tool[] = Array.from(toolDefinitionMap.values()).map(def => ({
    name: def.name,
    description: def.description,
    inputSchema: def.inputSchema
  }));
  return { tools: toolsForClient };
});
"""


@pytest.fixture(scope="module")
def large() -> Iterator[ModuleType]:
    with script("large_apis") as module:
        yield module


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_omg_tools_are_what_its_list_handler_returns(large: ModuleType,
                                                    tmp_path: Path) -> None:
    source, listed = tmp_path / "index.ts", tmp_path / "tools.json"
    source.write_text(INDEX_TS)
    subprocess.run(["node", "-e", large.OMG_LIST, str(source), str(listed)], check=True,
                   timeout=60)
    assert json.loads(listed.read_text()) == [
        {"name": "listPets", "description": "List all pets\n(Tags: pets)",
         "inputSchema": {"type": "object", "properties": {"limit": {"type": "number"}}}},
        {"name": "showPetById", "description": "Info for a specific pet",
         "inputSchema": {"type": "object", "properties": {"petId": {"type": "string"}},
                         "required": ["petId"]}}]
    source.write_text(INDEX_TS.replace("inputSchema: def.inputSchema\n", "x: 1\n"))
    refused = subprocess.run(["node", "-e", large.OMG_LIST, str(source), str(listed)],
                             capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 3, "a server that lists other fields is not measured"
    assert "ListTools handler not as expected" in refused.stderr


def test_a_row_measures_every_server_the_same_way(large: ModuleType, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    spec = shared("corpus", PETSTORE)
    peer_tools = [{"name": "a", "description": "d", "inputSchema": {"type": "object"}}]
    monkeypatch.setattr(large, "omg_list", lambda _spec, _work: peer_tools)

    def broken(_spec: Path, _work: Path) -> list[dict[str, object]]:
        raise subprocess.CalledProcessError(1, "x", stderr=b"noise\nFAILED in build: X | Y\n")

    monkeypatch.setattr(large, "fastmcp_list", broken)
    full, short = large.peer_row(PETSTORE, spec, tmp_path)
    cells = [cell.strip() for cell in full.strip("|").split(" | ")]
    size = len(json.dumps({"tools": peer_tools}, separators=(",", ":")))
    assert cells[0] == PETSTORE
    assert cells[1] == "3", cells
    for cell in cells[2:5]:   # toolcat exact, shallow, discover: bytes (bytes / 4)
        size_of, tokens = (int(part.strip("()").replace(",", "")) for part in cell.split())
        assert tokens == -(-size_of // 4), cells
    exact, shallow, discover = (int(c.split()[0].replace(",", "")) for c in cells[2:5])
    assert shallow < exact, cells
    assert cells[5:7] == [f"{size:,} ({-(-size // 4):,})", "1"], cells
    assert cells[7].startswith("failed: FAILED in build: X \\| Y"), cells
    assert short.startswith("| oai-examples (3 tools) | "), short
    assert short.endswith(f"| {-(-size // 4)} | - |"), short
    assert discover > 0
