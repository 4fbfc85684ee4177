"""One run reads each of its input files once (issue 24, item 2).

A run builds one context at the config boundary (``toolcat/run.py``) and every stage
reads the spec's files, the override file, the overlays and the config through it. Before,
``generate`` read an overlay four times (applying it, the spec's digest, the folder's
record, this machine's outputs memo) and the override file three; a ``check`` that had
to regenerate read every file a ``$ref`` reached twice (the memo's and the bundle
cache's verification). Counted here as the interpreter sees it: every ``open`` of a
path (``sys.addaudithook``; ``os.open`` and ``io.open`` both raise the event), by the
file's real path, during one command run in this process.
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import anyio
import pytest
from helpers.inprocess import RunCli
from helpers.project import SPEC

_OPENS: list[Counter[str]] = []   # the counter of the command being watched, if any


def _audit(event: str, args: tuple[Any, ...]) -> None:
    if _OPENS and event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        _OPENS[-1][os.path.realpath(os.fsdecode(args[0]))] += 1


sys.addaudithook(_audit)   # hooks cannot be removed: this one counts only while watched


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A config naming a spec of two files, an override file, two overlays and a
    templates folder; returns the config."""
    api = tmp_path / "api"
    (api / "templates").mkdir(parents=True)
    spec = json.loads(json.dumps(SPEC))
    spec["components"]["schemas"]["Size"] = {"$ref": "size.json"}
    (api / "spec.json").write_text(json.dumps(spec, indent=2))
    (api / "size.json").write_text(json.dumps({"type": "string", "enum": ["S", "M"]}))
    (api / "overrides.yaml").write_text(
        "operations:\n  deleteWidget:\n    description: Delete one widget.\n")
    for number in (1, 2):
        (api / f"fix{number}.yaml").write_text(
            f"overlay: 1.0.0\ninfo: {{title: fix {number}, version: '1'}}\nactions:\n"
            f"  - target: $.info\n    update: {{description: fixed {number}}}\n")
    (api / "templates" / "summary.md.jinja").write_text("# {{ name | code }}\n")
    config = tmp_path / "toolcat.yaml"
    config.write_text("catalogs:\n  widgets:\n    spec: api/spec.json\n"
                      "    output: out/widgets\n    overrides: api/overrides.yaml\n"
                      "    overlays: [api/fix1.yaml, api/fix2.yaml]\n"
                      "    templates: api/templates\n")
    return config


def _inputs(config: Path) -> list[Path]:
    api = config.parent / "api"
    return [config, *(api / n for n in ("spec.json", "size.json", "overrides.yaml",
                                        "fix1.yaml", "fix2.yaml"))]


def _reads(toolcat: RunCli, *args: str | Path, code: int = 0) -> Counter[str]:
    """How often each file was opened while ``toolcat ARGS`` ran."""
    _OPENS.append(Counter())
    try:
        ran = toolcat(*args)
    finally:
        opened = _OPENS.pop()
    assert ran.returncode == code, ran.stdout + ran.stderr
    return opened


def _read_once(opened: Counter[str], inputs: list[Path]) -> None:
    counts = {path.name: opened[os.path.realpath(path)] for path in inputs}
    assert counts == dict.fromkeys(counts, 1), f"reads per input file: {counts}"


@pytest.fixture(params=["cache", "no-cache"])
def cache(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch,
          tmp_path: Path) -> None:
    """This machine's caches (bundles, outputs memo) on, empty; or off."""
    if request.param == "no-cache":
        monkeypatch.setenv("TOOLCAT_CACHE", "off")
    else:
        monkeypatch.setenv("TOOLCAT_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.usefixtures("cache")
def test_generate_then_check(project: Path, toolcat: RunCli,
                             monkeypatch: pytest.MonkeyPatch) -> None:
    """generate (nothing cached), check (the memo vouches), serve (up to the server's
    start), check of a changed folder (the bundle cache has the spec, the memo no longer
    vouches): once each, the templates folder's file too (the record, the memo's key and
    the jinja2 loader read it through the run's Inputs)."""
    inputs = [*_inputs(project), project.parent / "api" / "templates" / "summary.md.jinja"]
    _read_once(_reads(toolcat, "generate", "--config", project), inputs)
    _read_once(_reads(toolcat, "check", "--config", project), inputs)
    served: list[object] = []
    monkeypatch.setattr(anyio, "run", lambda *args: served.append(args))
    _read_once(_reads(toolcat, "serve", "--config", project, "widgets"), inputs)
    assert len(served) == 1, "serve did not start its server"
    summary = project.parent / "out" / "widgets" / "CATALOG.md"
    summary.write_text(summary.read_text() + "edited\n")
    _read_once(_reads(toolcat, "check", "--config", project, code=1), inputs)


@pytest.mark.usefixtures("cache")
def test_ad_hoc(project: Path, toolcat: RunCli) -> None:
    """Ad hoc, named from the spec's title: the title is read from the same bytes."""
    api = project.parent / "api"
    args = ["--spec", api / "spec.json", "--out", project.parent / "adhoc",
            "--overrides", api / "overrides.yaml", "--overlay", api / "fix1.yaml",
            "--overlay", api / "fix2.yaml"]
    inputs = _inputs(project)[1:]
    _read_once(_reads(toolcat, "generate", *args), inputs)
    _read_once(_reads(toolcat, "check", *args), inputs)


@pytest.mark.usefixtures("cache")
def test_ad_hoc_spec_through_a_symlink(project: Path, toolcat: RunCli) -> None:
    """A spec named through a symlink is read once: the catalog's name is read from the
    bytes the bundle and the caches read by the file's real path (GitHub's 13 MB was read
    twice, and the bundle walked the tree to learn what its parse had already found)."""
    api = project.parent / "api"
    link = project.parent / "link.json"
    link.symlink_to(api / "spec.json")
    args = ["--spec", link, "--out", project.parent / "adhoc"]
    inputs = [api / "spec.json", api / "size.json"]
    _read_once(_reads(toolcat, "generate", *args), inputs)
    _read_once(_reads(toolcat, "check", *args), inputs)
