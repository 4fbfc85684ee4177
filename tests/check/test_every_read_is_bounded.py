"""Every file toolcat reads, in every command, is a bounded regular file (issue 28, item 4).

`toolcat diff A B` with B a symlink to /dev/zero read without bound (23 GB in 25 s)
and a FIFO blocked forever. Every read now goes through ``parse.limits.read_bounded``
(regular files of at most ``MAX_FILE_BYTES``, opened without blocking). This walks
every command with each input it reads replaced by a FIFO and by /dev/zero: each
ends promptly with a located refusal naming the file (or, for a file of the catalog
folder ``check`` compares, a stale report), never a hang or a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.generate import run_cli
from helpers.generated_copy import project_fixtures
from toolcat.errors import ToolcatError
from toolcat.identity import DEFAULT_TEMPLATES
from toolcat.parse import limits
from toolcat.runtime.embed import open_catalog
from toolcat.text.templates import environment

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")

SPEC = {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
        "paths": {"/x": {"get": {"operationId": "getX",
                                 "responses": {"200": {"description": "ok"}}}}}}
CONFIG = ("catalogs:\n  t:\n    spec: api/spec.yaml\n    output: out/t\n"
          "    overrides: api/overrides.yaml\n    templates: api/templates\n")
KINDS = ["fifo", "/dev/zero"]


generated, project = project_fixtures(SPEC, CONFIG, {
    "api/overrides.yaml": "operations: {}\n",
    "api/templates/summary.md.jinja": (DEFAULT_TEMPLATES / "summary.md.jinja").read_text()})


def _replace(path: Path, kind: str) -> None:
    path.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to(kind)


def _refused(project: Path, *args: str | Path, named: Path, code: int = 2) -> None:
    result = run_cli(*args, cwd=project, timeout=60)
    text = result.stdout + result.stderr
    assert result.returncode == code, text
    assert "Traceback" not in text
    assert "internal error" not in text
    if code == 2:   # named as given, or as the link's target
        assert any(f"{name}: not a regular file" in result.stderr
                   for name in (named, os.path.realpath(named))), result.stderr


INPUTS = ["api/spec.yaml", "api/overrides.yaml", "toolcat.yaml",
          "api/templates/python_module.py.jinja"]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("command", ["generate", "check"])
@pytest.mark.parametrize("rel", INPUTS)
def test_generate_and_check_refuse_every_input(project: Path, command: str, rel: str,
                                               kind: str) -> None:
    _replace(project / rel, kind)
    config = project / "toolcat.yaml"
    _refused(project, command, "--config", config, named=Path(rel) if rel ==
             "toolcat.yaml" else project / rel)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("rel", ["catalog.json", "CATALOG.md", "__init__.py",
                                 ".toolcat-inputs.json"])
def test_check_reports_a_catalog_file_it_does_not_read(project: Path, rel: str,
                                                       kind: str) -> None:
    _replace(project / "out" / "t" / rel, kind)
    _refused(project, "check", "--config", project / "toolcat.yaml", named=Path(rel), code=1)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("side", [0, 1])
def test_diff_refuses_either_side(project: Path, side: int, kind: str) -> None:
    bad = project / "bad.json"
    _replace(bad, kind)
    good = project / "out" / "t" / "catalog.json"
    sides = [good, good]
    sides[side] = bad
    _refused(project, "diff", *sides, named=bad)


@pytest.mark.parametrize("kind", KINDS)
def test_verify_refuses_the_catalog(project: Path, kind: str) -> None:
    bad = project / "bad.json"
    _replace(bad, kind)
    _refused(project, "verify", "--catalog", bad, "--url", "http://127.0.0.1:9/mcp",
             named=bad)


@pytest.mark.parametrize("kind", KINDS)
def test_serve_reads_the_catalog_within_the_limits(project: Path, kind: str) -> None:
    catalog = project / "out" / "t" / "catalog.json"
    _replace(catalog, kind)
    with pytest.raises(ToolcatError, match="not a regular file"):
        open_catalog(catalog.parent)


@pytest.mark.parametrize("kind", KINDS)
def test_init_skips_a_candidate_it_cannot_read(tmp_path: Path, kind: str) -> None:
    _replace(tmp_path / "openapi.yaml", kind)
    result = run_cli("init", cwd=tmp_path, timeout=60)
    assert "Traceback" not in result.stderr, result.stderr
    assert "internal error" not in result.stderr, result.stderr


def test_the_size_limit_holds_for_a_catalog_too(project: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    catalog = project / "out" / "t" / "catalog.json"
    monkeypatch.setattr(limits, "MAX_FILE_BYTES", catalog.stat().st_size - 1)
    with pytest.raises(ToolcatError, match="larger than toolcat's limit"):
        open_catalog(catalog.parent)



@pytest.mark.parametrize("kind", KINDS)
def test_the_template_loader_reads_within_the_limits(tmp_path: Path, kind: str) -> None:
    """The digest of the folder refuses first in a run; the loader holds on its own."""
    _replace(tmp_path / "summary.md.jinja", kind)
    with pytest.raises(ToolcatError, match="not a regular file"):
        environment(tmp_path).get_template("summary.md.jinja")
    assert environment(tmp_path).get_template("python_module.py.jinja").filename == str(
        DEFAULT_TEMPLATES / "python_module.py.jinja")   # the built-in one, found after
