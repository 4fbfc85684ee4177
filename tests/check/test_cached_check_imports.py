"""A ``check`` that this machine's cache vouches for imports only what it needs (issue 25).

The everyday CI case, an unchanged folder, compares digests: it must not pay for
importing the code that builds a catalog, nor pydantic and PyYAML (a config validated
here before is remembered: cache/configs.py). Each run is a subprocess that writes the
names in ``sys.modules`` when it exits; ``generate`` shows the probe sees imports.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SPEC = """openapi: 3.0.3
info: {title: Pets, version: '1'}
paths:
  /pets/{id}:
    get:
      operationId: getPet
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: {type: object, properties: {name: {type: string}}}
"""

PROBE = """
import atexit, json, sys
written = sys.argv.pop(1)
atexit.register(lambda: open(written, "w").write(json.dumps(sorted(sys.modules))))
from toolcat.cli import main
sys.argv[0] = "toolcat"
main()
"""

CONFIG = """catalogs:
  pets:
    spec: openapi.yaml
    output: out
    prefix: pets_
    include: {methods: [GET]}
"""

# Building a catalog needs these; comparing digests does not.
HEAVY = ("black", "jinja2", "openapi_spec_validator", "openapi_schema_validator",
         "jsonschema_path", "mcp", "toolcat.pipeline", "toolcat.render")
# Writing a folder or a cache entry, and diffing a stale file, need these; a cached
# check writes nothing and finds nothing stale (output/files.py, cache/store.py).
WRITING = ("shutil", "tempfile", "bz2", "lzma", "random")
# Validating a config (or reading YAML) needs these; a config validated here before
# does not (cache/configs.py), nor does the ad hoc name of a spec read before.
VALIDATING = ("pydantic", "pydantic_core", "yaml", "toolcat.config.checked",
              "toolcat.parse.checked_yaml", "importlib.metadata")
AD_HOC = ("--spec", "openapi.yaml", "--out", "out")


def _run(tmp_path: Path, command: str, *args: str
         ) -> tuple[subprocess.CompletedProcess[str], set[str]]:
    written = tmp_path / f"{command}.modules.json"
    env = {**os.environ, "TOOLCAT_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("TOOLCAT_CACHE", None)
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(written), command, *(args or AD_HOC)],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False)
    return done, set(json.loads(written.read_text()))


def _heavy(modules: set[str], heavy: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in heavy))


def test_a_cached_check_imports_no_builder(tmp_path: Path) -> None:
    (tmp_path / "openapi.yaml").write_text(SPEC)
    generated, built_with = _run(tmp_path, "generate")
    assert generated.returncode == 0, generated.stderr
    assert {"jinja2", "toolcat.pipeline"} <= built_with, "the probe saw no imports"
    checked, modules = _run(tmp_path, "check")
    assert checked.returncode == 0, checked.stderr
    assert "up to date" in checked.stdout + checked.stderr
    assert _heavy(modules) == [], f"a cached check imported {_heavy(modules)}"
    assert _heavy(modules, WRITING) == [], f"a cached check imported {_heavy(modules, WRITING)}"


@pytest.mark.parametrize("args", [AD_HOC, ("--config", "toolcat.yaml")],
                         ids=["ad-hoc", "config"])
def test_a_repeat_cached_check_imports_no_pydantic_nor_yaml(tmp_path: Path,
                                                             args: tuple[str, ...]) -> None:
    (tmp_path / "openapi.yaml").write_text(SPEC)
    (tmp_path / "toolcat.yaml").write_text(CONFIG)
    generated, built_with = _run(tmp_path, "generate", *args)
    assert generated.returncode == 0, generated.stderr
    # pydantic checks the config; an ad hoc generate has nothing for it to check
    # (tests/check/test_generate_imports.py).
    validated = {"yaml"} if args == AD_HOC else {"pydantic", "yaml"}
    assert validated <= built_with, "the probe saw no imports"
    checked, modules = _run(tmp_path, "check", *args)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "up to date" in checked.stdout
    assert _heavy(modules, HEAVY + VALIDATING) == [], (
        f"a repeat cached check imported {_heavy(modules, HEAVY + VALIDATING)}")
