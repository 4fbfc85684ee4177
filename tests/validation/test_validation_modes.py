"""``validation: strict | warn``: refuse a document the OpenAPI validator rejects, or
generate it with every problem shown as a located warning.

Issue 9 item 11: vendor documents that break OpenAPI upstream (OpenAI, Cloudflare,
DigitalOcean, Plex, Sonarr) were refused with no way forward, and the problem list
stopped at 20 silently and repeated lines. Both modes now print distinct problems
with their counts and say how many were cut; strict names the setting; warn
records the verdict in ``catalog.json``'s ``source`` and still stops at toolcat's
own guards (a dangling ``$ref`` a tool needs).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from helpers.inprocess import RunCli
from toolcat.errors import Problem
from toolcat.load.validation.findings import Findings

OPERATIONS = 25     # each with a "2xx" response key, which 3.0 forbids: 25 problems


def _doc(operations: int = OPERATIONS, **extra: Any) -> dict[str, Any]:
    paths = {f"/a{i:02d}": {"get": {"operationId": f"op{i:02d}", "responses": {
        "2xx": {"description": "ok"}}}} for i in range(operations)}
    return {"openapi": "3.0.3", "info": {"title": "t", "version": "1"}, "paths": paths,
            **extra}


def _spec(folder: Path, doc: dict[str, Any]) -> Path:
    spec = folder / "spec.json"
    spec.write_text(json.dumps(doc))
    return spec


def _lines(stderr: str, prefix: str = "") -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(prefix)
            and not line.startswith("  fix:")]


def test_strict_refuses_counts_and_names_the_setting(tmp_path: Path, toolcat: RunCli) -> None:
    spec = _spec(tmp_path, _doc())
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--name", "api")
    assert result.returncode == 2, result.stderr
    shown = [line for line in _lines(result.stderr) if "'2xx' was unexpected" in line]
    assert len(shown) == 20, result.stderr
    assert shown[0].endswith("/paths/~1a00/get/responses: invalid OpenAPI: Additional "
                             "properties are not allowed ('2xx' was unexpected)")
    # The summary lines are located too: the first problem cut, the first problem found.
    assert ("/paths/~1a20/get/responses: and 5 more validator problems (5 distinct) not "
            "shown, the first here") in result.stderr
    assert ("/paths/~1a00/get/responses: refused: the OpenAPI validator found 25 problems "
            "(25 distinct), the first here (validation: strict)") in result.stderr
    assert "set `validation: warn` on the catalog in the config, or pass " \
           "`--validation warn`" in result.stderr
    assert not out.exists()


def test_warn_generates_with_located_warnings(tmp_path: Path, toolcat: RunCli) -> None:
    spec = _spec(tmp_path, _doc())
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", spec, "--out", out, "--name", "api",
                     "--validation", "warn")
    assert result.returncode == 0, result.stderr
    warnings = _lines(result.stderr, "warning: ")
    assert len(warnings) == 22, result.stderr   # 20 shown, the cut, the total
    assert all("/paths/~1a" in w for w in warnings[:20])
    assert warnings[20].endswith("/paths/~1a20/get/responses: and 5 more validator problems "
                                 "(5 distinct) not shown, the first here")
    assert warnings[21].endswith("/paths/~1a00/get/responses: the OpenAPI validator found 25 "
                                 "problems (25 distinct), the first here; generated anyway "
                                 "(validation: warn)")
    assert "Traceback" not in result.stderr
    catalog = json.loads((out / "catalog.json").read_text())
    assert catalog["source"]["verdict"] == "invalid"
    assert catalog["source"]["problems"] == OPERATIONS
    assert len(catalog["tools"]) == OPERATIONS

    again = toolcat("check", "--spec", spec, "--out", out, "--name", "api",
                    "--validation", "warn")
    assert again.returncode == 0, again.stdout + again.stderr
    assert "api: up to date" in again.stdout


def test_valid_spec_records_valid(tmp_path: Path, toolcat: RunCli) -> None:
    doc = _doc(1)
    doc["paths"]["/a00"]["get"]["responses"] = {"200": {"description": "ok"}}
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", _spec(tmp_path, doc), "--out", out, "--name", "api",
                     "--validation", "warn")
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    source = json.loads((out / "catalog.json").read_text())["source"]
    assert (source["verdict"], source["problems"]) == ("valid", 0)


def test_warn_still_stops_at_a_dangling_ref_a_tool_needs(tmp_path: Path, toolcat: RunCli) -> None:
    doc = _doc(1)
    doc["paths"]["/a00"]["get"]["parameters"] = [
        {"name": "q", "in": "query", "schema": {"$ref": "#/components/schemas/Missing"}}]
    out = tmp_path / "out"
    result = toolcat("generate", "--spec", _spec(tmp_path, doc), "--out", out, "--name", "api",
                     "--validation", "warn")
    assert result.returncode == 2, result.stderr
    assert ("/paths/~1a00/get/parameters/0/schema/$ref: $ref '#/components/schemas/Missing' "
            "does not resolve") in result.stderr
    assert not out.exists()


def test_config_setting(tmp_path: Path, toolcat: RunCli) -> None:
    _spec(tmp_path, _doc(3))
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalogs:\n  api:\n    spec: spec.json\n    output: out\n"
                      "    validation: warn\n")
    result = toolcat("generate", "--config", config)
    assert result.returncode == 0, result.stderr
    assert "found 3 problems (3 distinct), the first here; generated anyway" in result.stderr

    config.write_text("catalogs:\n  api:\n    spec: spec.json\n    output: out\n"
                      "    validation: lenient\n")
    result = toolcat("generate", "--config", config)
    assert result.returncode == 2
    assert "toolcat.yaml" in result.stderr
    assert "validation" in result.stderr, result.stderr

    result = toolcat("generate", "--config", config, "--validation", "warn")
    assert result.returncode == 2
    assert "--validation is for ad hoc runs" in result.stderr


@pytest.mark.parametrize("shown", [1, 2, 20])
def test_repeats_are_counted_once(shown: int) -> None:
    a = Problem("s.json", "/a", "bad", "fix it")
    b = Problem("s.json", "/b", "worse")
    findings = Findings.of("s.json", [a, b, a, a, b, Problem("s.json", "/c", "odd")])
    assert findings.total == 6
    report = [p.render() for p in findings.report(shown)]
    assert report[0] == "s.json: /a: bad (3 times)\n  fix: fix it"
    assert len(report) == min(shown, 3) + (1 if shown < 3 else 0)
    if shown == 1:
        assert report[-1] == ("s.json: /b: and 3 more validator problems (2 distinct) not "
                              "shown, the first here")
