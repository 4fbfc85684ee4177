"""`make bench` keeps reporting what tools/list costs: scripts/large_apis.py on the petstore
(sizes, discovery mode's size, the search figure), and its summary query drops name words."""

from __future__ import annotations

import subprocess
import sys

from helpers.paths import REPO, shared

PETSTORE = "oai-examples/v3.0/petstore.yaml"


def test_large_apis_measures_the_petstore() -> None:
    shared("corpus", PETSTORE)
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "large_apis.py"),
                             "--only", PETSTORE], capture_output=True, text=True,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith(f"| {PETSTORE} ")]
    assert len(rows) == 1, result.stdout
    cells = [cell.strip() for cell in rows[0].strip("|").split("|")]
    tools, size, tokens = (int(c.replace(",", "")) for c in cells[1:4])
    assert tools == 3
    assert tokens == -(-size // 4)
    texts, inputs, outputs = (int(c.replace(",", "")) for c in cells[4:7])
    assert texts + inputs + outputs < size
    shallow = int(cells[8].split()[0].replace(",", ""))
    assert outputs
    assert shallow < size
    assert 0 < int(cells[9].replace(",", "")) <= 4096, "discovery tools/list"
    # "Create a pet" (create_pets) leaves "a", a stop word: an empty query, which lists
    # every tool (3, so within the first 5).
    assert cells[10:13] == ["3/3 (100.0%)", "100.0% (1 empty)", "100.0%"], cells


def test_summary_query_drops_the_name_words() -> None:
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        from large_apis import summary_query
    finally:
        sys.path.pop(0)
    assert summary_query("List the DNS records of a zone", "dns_records_list") == "the of a zone"
    assert summary_query("Delete zones", "zone_delete") == ""
