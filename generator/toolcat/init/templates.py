"""The files ``toolcat init`` writes, rendered from ``templates/init_*.jinja``.

Values go through ``tojson`` (a JSON string is a valid YAML scalar), never pasted.
"""

from __future__ import annotations

import re

from ..text.templates import environment


def config_text(name: str, spec: str, output: str) -> str:
    return environment().get_template("init_config.yaml.jinja").render(
        name=name, spec=spec, output=output)


def workflow_text(version: str) -> str:
    requirement = f"toolcat=={version}" if version else "toolcat"
    return environment().get_template("init_workflow.yml.jinja").render(
        requirement=requirement)


def precommit_text(watched: list[str], *, entry_only: bool = False) -> str:
    """The hook runs when a spec, the config or a generated catalog changes
    (``watched``: folders end in ``/``, anything else is one file)."""
    files = "^(" + "|".join(re.escape(w) + ("" if w.endswith("/") else "$")
                            for w in watched) + ")"
    return environment().get_template("init_precommit.yaml.jinja").render(
        files=files, entry_only=entry_only)
