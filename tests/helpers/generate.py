"""Run the generator the ways a user does: through the config, ad hoc, or the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from toolcat.config import Target, load_config, select
from toolcat.model.types import Catalog
from toolcat.output.files import Files
from toolcat.pipeline import build_catalog, render_files, spec_verdict

from .paths import CONFIG

# The CLI has no __main__; this is what the `toolcat` console script runs.
CLI = [sys.executable, "-c", "from toolcat.cli import main; main()"]


def example_target() -> Target:
    """The example catalog exactly as `make regen` configures it."""
    return select(load_config(CONFIG), "broadcast", str(CONFIG))[0]


def adhoc_target(spec: Path, name: str = "api", prefix: str = "") -> Target:
    return Target(name=name, spec=spec, spec_label=spec.name, output=spec.parent / "unused",
                  prefix=prefix)


def trusted_verdict(spec: Path) -> str:
    """The verdict `check` records for a valid spec, so validation is skipped.

    Only for documents whose structure we want to test although the validator
    rejects them for a reason unrelated to tools (ErsatzTV's PR spec has
    component names with backticks, which 3.1's schema forbids).
    """
    return spec_verdict(spec)


def build(spec: Path, name: str = "api", prefix: str = "", *,
          skip_validation: bool = False) -> Catalog:
    verdict = trusted_verdict(spec) if skip_validation else None
    return build_catalog(adhoc_target(spec, name, prefix), verdict)


def generate_files(target: Target) -> Files:
    return render_files(build_catalog(target), models=target.models,
                        templates=target.templates)


def run_cli(*args: str | Path, cwd: Path | None = None, seed: str | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if seed is not None:
        env["PYTHONHASHSEED"] = seed
    return subprocess.run([*CLI, *map(str, args)], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def read_folder(folder: Path) -> Files:
    """Every file of a generated folder (bytecode caches are not output)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts}
