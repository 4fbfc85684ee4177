"""The files ``toolcat init`` writes, rendered from ``templates/init_*.jinja``.

Values go through ``tojson`` (a JSON string is a valid YAML scalar), never pasted.
"""

from __future__ import annotations

from typing import Any

from ..text.templates import environment


def config_text(name: str, spec: str, output: str) -> str:
    return environment().get_template("init_config.yaml.jinja").render(
        name=name, spec=spec, output=output)


def workflow_text(version: str, direct_url: dict[str, Any] | None = None) -> str:
    """``direct_url``: how this toolcat was installed (PEP 610's direct_url.json)."""
    requirement, source = install_requirement(version, direct_url)
    return environment().get_template("init_workflow.yml.jinja").render(
        requirement=requirement, source=source)


def install_requirement(version: str, direct_url: dict[str, Any] | None) -> tuple[str, str]:
    """What CI installs to run the same toolcat, and where that came from: ``git`` (the
    URL at the requested tag, else the exact commit), ``archive`` (a URL), ``local``
    (a file or folder CI cannot reach: the version, to be set by the user), ``index``."""
    pinned = f"toolcat=={version}" if version else "toolcat"
    if not direct_url:
        return pinned, "index"
    url = str(direct_url.get("url", ""))
    vcs = direct_url.get("vcs_info") or {}
    remote = url.startswith(("http://", "https://", "ssh://", "git@"))
    if vcs.get("vcs") == "git" and remote:
        revision = vcs.get("requested_revision") or vcs.get("commit_id")
        return f"git+{url}@{revision}", "git"
    if remote and "archive_info" in direct_url:
        return url, "archive"
    return pinned, "local"


def precommit_text(*, entry_only: bool = False) -> str:
    """The hook runs on every commit: a ``files:`` pattern written now would miss the
    specs and catalogs added later (an unchanged project is answered from the cache)."""
    return environment().get_template("init_precommit.yaml.jinja").render(
        entry_only=entry_only)
