"""``generate`` forks its validator before importing what only drafting needs (issue 25).

Whatever the parent imports before the fork is paid before either process can start
its work; what it imports after runs beside the validator on the other core. jinja2
(rendering) is imported after the fork, and jsonschema (``serve``'s validator, through
``vocab/ecma.py``) not at all in the generating process: the validator's process
imports it for itself. A subprocess records ``sys.modules`` as the fork starts and as
it exits.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

SPEC = """openapi: 3.0.3
info: {title: Pets, version: '1'}
paths:
  /pets:
    get:
      operationId: listPets
      parameters:
        - {name: q, in: query, schema: {type: string, pattern: '^[a-z]+$'}}
      responses:
        '200': {description: ok}
"""

PROBE = """
import atexit, json, sys
written = sys.argv.pop(1)
import toolcat.pipeline as pipeline
seen = {}
fork = pipeline.validate_in_background
def recorded(*args, **kwargs):
    seen["fork"] = sorted(sys.modules)
    return fork(*args, **kwargs)
pipeline.validate_in_background = recorded
def write():
    seen["exit"] = sorted(sys.modules)
    open(written, "w").write(json.dumps(seen))
atexit.register(write)
from toolcat.cli import main
sys.argv[0] = "toolcat"
main()
"""


def _loaded(names: list[str], package: str) -> bool:
    return any(n == package or n.startswith(package + ".") for n in names)


def test_rendering_and_jsonschema_wait_for_the_fork(tmp_path: Path) -> None:
    (tmp_path / "openapi.yaml").write_text(SPEC)
    written = tmp_path / "modules.json"
    env = {**os.environ, "TOOLCAT_CACHE": "off"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(written), "generate", "-q", "--spec",
         "openapi.yaml", "--out", "out"], cwd=tmp_path, env=env, capture_output=True,
        text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    seen = json.loads(written.read_text())
    assert "fork" in seen, "generate did not start the validator's process"
    early = [p for p in ("jinja2", "jsonschema", "toolcat.render.python_module")
             if _loaded(seen["fork"], p)]
    assert early == [], f"imported before the validator forked: {early}"
    assert _loaded(seen["exit"], "jinja2"), "the probe saw no rendering"
    assert not _loaded(seen["exit"], "jsonschema"), "the generating process imported jsonschema"
    assert (tmp_path / "out" / "__init__.py").is_file()
