"""ErsatzTV's real API: one tool per operation, and 3.0 and 3.1 give the same tools.

``v1.json`` (3.1.1, nullable as ``["null", T]``) and ``v1-453737a5.json`` (3.0.1,
``nullable: true``) describe the same 18 operations. The generated tools must not
reveal which OpenAPI version the API was written in.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers.generate import build, read_folder, run_cli
from helpers.paths import ERSATZTV_V1, ERSATZTV_V1_30, ersatztv
from toolcat.jsonio import dumps
from toolcat.model.types import Catalog

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def _operation_count(spec: Path) -> int:
    """Counted from the document itself, not from anything the generator says."""
    document = json.loads(spec.read_bytes())
    return sum(1 for item in document["paths"].values() for method in item
               if method in METHODS)


def test_v1_generates_a_tool_per_operation(tmp_path: Path) -> None:
    spec = ersatztv(ERSATZTV_V1)
    operations = _operation_count(spec)
    assert operations == 18
    out = tmp_path / "ersatztv"
    result = run_cli("generate", "--spec", spec, "--out", out)
    assert result.returncode == 0, result.stderr
    assert f"{operations} tools" in result.stdout
    catalog = json.loads(read_folder(out)["catalog.json"])
    assert len(catalog["tools"]) == operations
    assert catalog["exclusions"] == []
    routes = {(t["binding"]["method"], t["binding"]["path"]) for t in catalog["tools"]}
    assert len(routes) == operations, "two tools bind one operation"


@pytest.fixture(scope="module")
def both() -> tuple[Catalog, Catalog]:
    return build(ersatztv(ERSATZTV_V1), "ersatztv"), build(ersatztv(ERSATZTV_V1_30), "ersatztv")


def test_same_tool_names(both: tuple[Catalog, Catalog]) -> None:
    v31, v30 = both
    assert _operation_count(ersatztv(ERSATZTV_V1_30)) == 18
    assert [t.name for t in v30.tools] == [t.name for t in v31.tools]
    assert len(v31.tools) == 18


@pytest.mark.parametrize("which", ["input_schema", "output_schema"])
def test_same_schemas_bytes(both: tuple[Catalog, Catalog], which: str) -> None:
    v31, v30 = both
    differing = []
    for a, b in zip(v31.tools, v30.tools, strict=True):
        if dumps(getattr(a, which)) != dumps(getattr(b, which)):
            differing.append(a.name)
    assert not differing, f"{which} differs between 3.1.1 and 3.0.1 for {differing}"


def test_nullable_fields_exist(both: tuple[Catalog, Catalog]) -> None:
    """The equality above means something only if the API has nullable fields."""
    v31, _ = both
    text = b"".join(dumps(t.input_schema) for t in v31.tools)
    assert b'"null"' in text
