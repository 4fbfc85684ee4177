"""Render a verify Report: text for a terminal, Markdown for a PR comment, JSON for machines.

The shapes live in ``templates/verify.{text,md,json}.jinja``; every value passes an
escaping filter of ``generator/toolcat/text/escape.py`` (``term`` for the terminal: tool
names and messages come from the server under test and may carry escape codes).
"""

from __future__ import annotations

from pathlib import Path

from ..text.templates import environment
from .findings import Report

FORMATS = {"text": "verify.text.jinja", "markdown": "verify.md.jinja",
           "json": "verify.json.jinja"}


def render(report: Report, fmt: str, templates: Path | None = None) -> str:
    env = environment(templates)
    text = env.get_template(FORMATS[fmt]).render(report=report, data=report.as_json())
    return text.rstrip("\n") + "\n"
