"""Call the request oracle from the test suite (toolcat's venv) in its own venv.

``judge(spec, requests)`` runs ``.venv-oracle/bin/python tests/oracle/judge.py SPEC``
once per batch. A request::

    {"method": "PUT", "path": "/api/channels/4",     # raw, percent-encoded, with base path
     "query": "a=1&b=2",                              # raw query string ("" or None: none)
     "headers": {name: value}, "cookies": {name: value},
     "contentType": str | None,
     "body": str | None, "bodyBase64": str | None,    # text, or bytes as base64
     "operation": "METHOD /template"}                 # the path key exactly as in the spec

A verdict: ``{"ok": bool, "errors": [str], "class": str | None}``; class is None when
ok, else one of CLASSES.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
ORACLE_PYTHON = REPO / ".venv-oracle" / "bin" / "python"
JUDGE = Path(__file__).resolve().parent / "judge.py"
CLASSES = (
    "operation",       # the path or method does not reach the declared operation
    "openapi-core",    # openapi-core rejects a parameter or the body (or a required body is absent)
    "undeclared",      # a query/header/cookie/top-level body name the operation does not declare
    "unserialisable",  # a nested object under deepObject or in a form body: no OpenAPI rule
    "oracle-error",    # the judge itself failed on this request (a bug to fix, never a pass)
)


def judge(spec: Path, requests: list[dict[str, Any]]) -> list[dict[str, Any]]:
    if not ORACLE_PYTHON.exists():
        raise RuntimeError(f"{ORACLE_PYTHON} is missing: run `make .venv-oracle/.installed-stamp`")
    if not requests:
        return []
    proc = subprocess.run([str(ORACLE_PYTHON), str(JUDGE), str(spec)],
                          input=json.dumps(requests), capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"oracle failed on {spec} (exit {proc.returncode}):\n"
                           f"{proc.stderr[-3000:]}")
    verdicts: list[dict[str, Any]] = json.loads(proc.stdout)
    if len(verdicts) != len(requests):
        raise RuntimeError(f"oracle gave {len(verdicts)} verdicts for {len(requests)} requests")
    return verdicts
