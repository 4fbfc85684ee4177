"""``toolcat init``: set up a project that is not this repository.

Writes a starting config (``specs/toolcat.yaml``, where ``toolcat generate``
looks without options), a GitHub Actions workflow and a pre-commit hook that
run ``toolcat check`` with no Makefile, and says what to run next. Never
overwrites a file: one that exists is left alone and named, with what to add.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, distribution, version
from pathlib import Path
from typing import Any

from ..config import DEFAULT_CONFIG
from ..errors import ToolcatError, fail
from ..model.naming import catalog_name
from ..parse.duplicates import Repeats
from ..parse.limits import read_bounded
from ..parse.reader import read_document
from .templates import config_text, precommit_text, workflow_text

WORKFLOW = Path(".github/workflows/toolcat.yml")
PRECOMMIT = Path(".pre-commit-config.yaml")
_SKIP = {".git", ".hg", ".venv", "venv", "node_modules", "__pycache__", ".tox", "build",
         "dist", ".mypy_cache", ".ruff_cache", ".pytest_cache"}
_SUFFIXES = {".json", ".yaml", ".yml"}
_MAX_DEPTH = 4
# The version key of an OpenAPI or Swagger document, in JSON or YAML, near its top.
_MARK = re.compile(rb"""(?:^|[{,\s])["']?(?:openapi|swagger)["']?\s*:\s*["']?[23]\.""")


@dataclass(frozen=True)
class Written:
    path: Path
    created: bool          # False: it existed and was left alone
    advice: str = ""


def find_specs(root: Path) -> list[Path]:
    """OpenAPI/Swagger documents under ``root`` (4 levels), skipping tool folders and
    toolcat's own output (folders holding a ``.toolcat-inputs.json``)."""
    found: list[Path] = []
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        depth = len(here.relative_to(root).parts)
        dirs[:] = sorted(d for d in dirs if d not in _SKIP and depth < _MAX_DEPTH)
        if ".toolcat-inputs.json" in files:
            dirs[:] = []
            continue
        for name in sorted(files):
            path = here / name
            if path.suffix.lower() in _SUFFIXES and _is_spec(path):
                found.append(path.relative_to(root))
    return found


def _is_spec(path: Path) -> bool:
    try:
        head = read_bounded(path)[:65536]
    except ToolcatError:   # a FIFO, a device, too large: not a spec toolcat can read
        return False
    return _MARK.search(head) is not None


def choose_spec(root: Path, given: Path | None) -> Path:
    if given is not None:
        if not (root / given).is_file():
            raise fail(str(given), "", "spec file not found", "pass the path of your OpenAPI "
                       "document, relative to the project root")
        return Path(os.path.relpath(root / given, root))
    found = find_specs(root)
    if len(found) == 1:
        return found[0]
    if not found:
        raise fail(str(root), "", "no OpenAPI document found (looked for .json/.yaml/.yml "
                   f"files with an openapi or swagger key, {_MAX_DEPTH} folders deep)",
                   "pass it: toolcat init --spec path/to/openapi.yaml")
    raise fail(str(root), "", "several OpenAPI documents found: "
               + ", ".join(p.as_posix() for p in found),
               "choose one: toolcat init --spec " + found[0].as_posix())


def toolcat_origin() -> dict[str, Any] | None:
    """How this toolcat was installed (PEP 610), None from an index or a source tree."""
    try:
        text = distribution("toolcat").read_text("direct_url.json")
    except PackageNotFoundError:
        return None
    try:
        data = json.loads(text) if text else None
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def toolcat_version() -> str:
    try:
        return version("toolcat")
    except PackageNotFoundError:   # running from a source tree that is not installed
        return ""


def init_project(root: Path, spec: Path | None) -> tuple[list[Written], str]:
    """Write what is missing; return what was written and the next command."""
    spec = choose_spec(root, spec)
    # A key written twice is reported when the catalog is generated.
    document, _ = read_document(root / spec, Repeats(str(root / spec), keep=True))
    info = document.get("info") if isinstance(document, dict) else None
    title = info.get("title") if isinstance(info, dict) else None
    name = catalog_name(title, (root / spec).resolve().parent.name)
    config_dir = DEFAULT_CONFIG.parent
    spec_from_config = Path(os.path.relpath(spec, config_dir)).as_posix()
    output = Path("generated") / name
    pin = toolcat_version()
    written = [
        _write(root, DEFAULT_CONFIG, config_text(name, spec_from_config,
                                                 Path(os.path.relpath(output, config_dir))
                                                 .as_posix()),
               "add a catalog entry for this spec under catalogs:"),
        _write(root, WORKFLOW, workflow_text(pin, toolcat_origin()), "run `toolcat check` in CI"),
        _write(root, PRECOMMIT, precommit_text(),
               "add the toolcat-check hook:\n" + precommit_text(entry_only=True)),
        _write(root, output.parent / ".gitignore", "__pycache__/\n",
               "add __pycache__/ to it (importing a catalog module writes one)"),
    ]
    return written, "toolcat generate"


def _write(root: Path, rel: Path, text: str, advice: str) -> Written:
    path = root / rel
    if path.exists():
        return Written(rel, created=False, advice=advice)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return Written(rel, created=True)
