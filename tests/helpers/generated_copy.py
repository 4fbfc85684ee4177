"""A project generated once per test module, copied fresh for each test that edits it.

Generating costs a subprocess (about a second); copying the result costs nothing, so
a module generates once and each test gets its own copy to forge, plant or break.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from .fixtures import write_spec
from .generate import run_cli


def generate_project(root: Path, spec: dict[str, Any], config: str,
                     extra: dict[str, str] | None = None) -> Path:
    """``root`` with ``api/spec.yaml``, the ``extra`` files and ``toolcat.yaml``
    (``config``), generated; returns ``root``."""
    write_spec(root / "api", spec)
    for rel, text in (extra or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (root / "toolcat.yaml").write_text(config)
    result = run_cli("generate", "--config", root / "toolcat.yaml")
    assert result.returncode == 0, result.stderr
    return root


def fresh_copy(generated: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "project"
    shutil.copytree(generated, copy, symlinks=True)
    return copy


def generate_adhoc(tmp_path: Path, spec: dict[str, Any]) -> tuple[Path, Path]:
    """(spec, output folder) of an ad hoc generate into ``tmp_path/gen/out``."""
    path = write_spec(tmp_path / "api", spec, "openapi.yaml")
    out = tmp_path / "gen" / "out"
    result = run_cli("generate", "--spec", path, "--out", out)
    assert result.returncode == 0, result.stderr
    return path, out
