"""A project generated once per test module, copied fresh for each test that edits it.

Generating costs a subprocess (about a second); copying the result costs nothing, so
a module generates once and each test gets its own copy to forge, plant or break.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from .fixtures import write_spec
from .generate import run_cli


def generate_project(root: Path, spec: dict[str, Any], config: str,
                     extra: dict[str, str | dict[str, Any]] | None = None) -> Path:
    """``root`` with ``api/spec.yaml``, the ``extra`` files (text, or data written as
    its name's format says) and ``toolcat.yaml`` (``config``), generated; returns
    ``root``."""
    write_spec(root / "api", spec)
    for rel, content in (extra or {}).items():
        write_spec(root, content, rel)
    (root / "toolcat.yaml").write_text(config)
    result = run_cli("generate", "--config", root / "toolcat.yaml")
    assert result.returncode == 0, result.stderr
    return root


def fresh_copy(generated: Path, tmp_path: Path, name: str = "project") -> Path:
    """A copy of ``generated`` as ``tmp_path/name``, for one test to edit."""
    copy = tmp_path / name
    shutil.copytree(generated, copy, symlinks=True)
    return copy


def project_fixtures(spec: dict[str, Any], config: str,
                     extra: dict[str, str | dict[str, Any]] | None = None) -> tuple[Any, Any]:
    """A module's two fixtures: ``generated`` (``generate_project`` once per module) and
    ``project`` (a fresh copy of it per test)::

        generated, project = project_fixtures(SPEC, CONFIG)
    """
    @pytest.fixture(scope="module", name="generated")
    def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
        return generate_project(tmp_path_factory.mktemp("generated"), spec, config, extra)

    @pytest.fixture(name="project")
    def project(generated: Path, tmp_path: Path) -> Path:
        return fresh_copy(generated, tmp_path)

    return generated, project


def generate_adhoc(tmp_path: Path, spec: dict[str, Any]) -> tuple[Path, Path]:
    """(spec, output folder) of an ad hoc generate into ``tmp_path/gen/out``."""
    path = write_spec(tmp_path / "api", spec, "openapi.yaml")
    out = tmp_path / "gen" / "out"
    result = run_cli("generate", "--spec", path, "--out", out)
    assert result.returncode == 0, result.stderr
    return path, out
