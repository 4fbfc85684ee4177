"""`make bench`'s serve figures keep coming: scripts/bench_serve.py on the expanded petstore.

The benchmark serves Cloudflare's 1,533 tools and makes 500 calls; this runs it on a
4-tool document with a handful of calls, so a change to serve, to the stub API or to the
CLI cannot break it unnoticed. The stub records every request: the calls through serve and
the direct ones must arrive alike.
"""

from __future__ import annotations

import re
import subprocess
import sys
from types import ModuleType

from helpers.paths import REPO, shared
from helpers.scripts import script

EXPANDED = "oai-examples/v3.0/petstore-expanded.json"


def _rows(stdout: str) -> dict[str, list[str]]:
    return {cells[0]: cells[1:] for cells in
            ([c.strip() for c in line.strip("|").split("|")] for line in stdout.splitlines()
             if line.startswith("| ") and not line.startswith("| serve"))}


def test_serve_is_measured_beside_its_targets() -> None:
    spec = shared("corpus", EXPANDED)
    result = subprocess.run([sys.executable, str(REPO / "scripts" / "bench_serve.py"),
                             "--spec", str(spec), "--starts", "1", "--lists", "2",
                             "--calls", "20"], capture_output=True, text=True, timeout=300,
                            check=False)
    assert result.returncode == 0, result.stderr
    rows = _rows(result.stdout)
    assert re.fullmatch(r"[\d.]+ s \(cpu [\d.]+ s; to its last page [\d.]+ s\)",
                        rows["start-up to the first tools/list"][1]), rows
    assert rows["start-up to the first tools/list"][0] == "≤ 1 s", rows
    listed = re.fullmatch(r"([\d.]+) ms \(4 tools in 1 page\(s\), [\d,]+ bytes; per list, "
                          r"means: server cpu [\d.]+ ms, client parse [\d.]+ ms; with the "
                          r"client's parse ([\d.]+) ms\)", rows["tools/list"][1])
    assert listed, rows
    # the figure judged leaves the client's own parse out: never more than the whole
    assert float(listed[1]) <= float(listed[2]), rows
    assert rows["tools/call overhead, median"][0] == "≤ 2 ms", rows
    for name in ("tools/call overhead, median", "tools/call overhead, p99"):
        assert re.fullmatch(r"-?[\d.]+ ms", rows[name][1]), rows
    assert "(4 tools)" in result.stdout, result.stdout
    assert "20 calls of `" in result.stdout, result.stdout
    assert "0 of the results flagged isError" in result.stdout, result.stdout


def test_a_tool_is_called_only_with_plain_values() -> None:
    serve: ModuleType
    with script("bench_serve") as serve:
        plain = {"inputSchema": {"properties": {"a": {"type": "string"},
                                                "b": {"type": ["integer", "null"]},
                                                "c": {"enum": ["x", "y"]},
                                                "d": {"type": "object"}},
                                 "required": ["a", "b", "c"]}}
        assert serve.arguments(plain) == {"a": "abc", "b": 1, "c": "x"}
        plain["inputSchema"]["required"].append("d")
        assert serve.arguments(plain) is None
        # Cloudflare's identifiers: a $ref with siblings, and a 32-hex pattern.
        referred = {"inputSchema": {
            "$defs": {"id": {"type": "string", "maxLength": 32}},
            "properties": {"account_id": {"$ref": "#/$defs/id", "minLength": 1},
                           "zone": {"type": "string", "pattern": "^[0-9a-f]{32}$"}},
            "required": ["account_id", "zone"]}}
        assert serve.arguments(referred) == {"account_id": "abc",
                                             "zone": "023e105f4ecef8ad9ca31a8372d0c353"}
        assert serve.p99([float(n) for n in range(1, 101)]) == 99.0


def test_the_call_measured_is_one_the_stub_answer_fits() -> None:
    serve: ModuleType
    with script("bench_serve") as serve:
        assert serve.answer_fits({"name": "t"})   # no outputSchema: any answer is a success
        assert serve.answer_fits({"outputSchema": {
            "type": "object", "properties": {"id": {"type": "integer"}}}})
        # Cloudflare's envelope: the stub's {"id": 1, "name": "x"} would be a mismatch.
        assert not serve.answer_fits({"outputSchema": {
            "type": "object", "required": ["success", "result"]}})
        assert not serve.answer_fits({"outputSchema": {
            "type": "object", "properties": {"id": {"type": "string"}}}})
