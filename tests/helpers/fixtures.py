"""Small helpers for the hard-case tests: write a fixture spec, generate, read the result.

Fixtures are written to pytest's ``tmp_path``; real documents are read in place
from ``../shared`` and skipped, naming the path, when absent.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

import orjson
import yaml
from toolcat.config import Target
from toolcat.pipeline import build_catalog, render_files, spec_verdict
from toolcat.vocab.files import CATALOG_FILE

from .generate import run_cli
from .paths import ref_root_for, shared

__all__ = ["generate", "operation", "real", "real_catalog", "run_cli", "tool", "write_spec"]


def write_spec(folder: Path, spec: dict[str, Any] | str, name: str = "spec.yaml") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(spec, str):
        path.write_text(spec)
    elif name.endswith(".json"):
        path.write_bytes(orjson.dumps(spec))
    else:
        path.write_text(yaml.safe_dump(spec, sort_keys=False))
    return path


def generate(path: Path, *, validate: bool = True, **target: Any) -> dict[str, Any]:
    """catalog.json of ``path`` as data (in process, as the CLI would write it)."""
    options = {"name": "fixture", "spec": path, "spec_label": path.name,
               "output": path.parent / "out", **target}
    known = None if validate else spec_verdict(path, target.get("ref_root"))
    catalog = build_catalog(Target(**options), known)
    data: dict[str, Any] = orjson.loads(render_files(catalog)[CATALOG_FILE])
    return data


@lru_cache(maxsize=8)
def _real_catalog(path: Path, budget: int | None) -> dict[str, Any]:
    options: dict[str, Any] = {} if budget is None else {"name_budget": budget}
    ref_root = ref_root_for(path)
    if ref_root is not None:
        options["ref_root"] = ref_root
    return generate(path, validate=False, **options)


def real_catalog(*parts: str, name_budget: int | None = None) -> dict[str, Any]:
    """catalog.json of a real document (validation skipped), cached per process:
    several test files read stripe's; treat the result as read-only."""
    return _real_catalog(real(*parts), name_budget)


def tool(catalog: dict[str, Any], name: str) -> dict[str, Any]:
    """The entry (``tool`` + ``binding``) of the tool called ``name``."""
    for entry in catalog["tools"]:
        if entry["tool"]["name"] == name:
            return dict(entry)
    names = sorted(e["tool"]["name"] for e in catalog["tools"])
    raise AssertionError(f"no tool '{name}'; tools: {names[:20]}")


def real(*parts: str) -> Path:
    return shared(*parts)


def operation(path: str, method: str = "post", **op: Any) -> dict[str, Any]:
    """A minimal 3.1 document with one operation."""
    body = {"operationId": "op", "responses": {"200": {"description": "ok"}}, **op}
    return {"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {path: {method: body}}}
