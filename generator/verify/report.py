"""Render a verify Report: text for a terminal, Markdown for a PR comment, JSON for machines.

The shapes live in ``templates/verify.{text,md,json}.jinja``; this module only
chooses the template and supplies filters that quote values.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from generator.render.summary import code, markdown_cell
from generator.render.templates import environment
from generator.verify.findings import Report

FORMATS = {"text": "verify.text.jinja", "markdown": "verify.md.jinja",
           "json": "verify.json.jinja"}


def render(report: Report, fmt: str, templates: Path | None = None) -> str:
    env = environment(templates)
    env.filters["cell"] = markdown_cell
    env.filters["code"] = code
    env.filters["canonical_json"] = _canonical_json
    text = env.get_template(FORMATS[fmt]).render(report=report, data=report.as_json())
    return text.rstrip("\n") + "\n"


def _canonical_json(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False)
