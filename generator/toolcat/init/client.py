"""``toolcat mcp-config NAME``: the ``mcpServers`` entry a desktop MCP client needs.

A desktop client starts servers without the user's shell, so ``toolcat`` is not on
its PATH (pipx's bin folder) and its working folder is not the project: the entry
names the running toolcat by absolute path and the config by absolute path, so it
works from any folder. The catalog's credential variables (the config's
``credentials:`` map, else the binding's, else ``TOOLCAT_<CATALOG>_<SCHEME>``) are
listed under ``env`` with empty values for the user to fill in: names, never values.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

from ..catalog.reader import read_catalog
from ..config import Target
from ..vocab.credentials import credential_variables
from ..vocab.files import CATALOG_FILE


def running_toolcat() -> list[str]:
    """The command that started this toolcat, absolute (``python -m toolcat`` too)."""
    argv0 = sys.argv[0]
    found = argv0 if os.sep in argv0 else shutil.which(argv0)
    if Path(argv0).name == "__main__.py" or not found or not Path(found).is_file():
        return [sys.executable, "-m", "toolcat"]   # the interpreter that runs this toolcat
    return [str(Path(found).absolute())]


def mcp_entry(target: Target, config: Path, base_url: str | None) -> tuple[str, list[str]]:
    """The entry as JSON text, and the credential variables it leaves to the user."""
    view = read_catalog(target.output / CATALOG_FILE)
    variables = credential_variables(view.name, [r.binding for r in view.tools.values()],
                                     target.credentials)
    command = running_toolcat()
    args = [*command[1:], "serve", target.name, "--config", str(config.resolve()), "--quiet"]
    if base_url is not None:
        args += ["--base-url", base_url]
    server: dict[str, Any] = {"command": command[0], "args": args}
    if variables:
        server["env"] = dict.fromkeys(variables, "")
    text = json.dumps({"mcpServers": {target.name: server}}, indent=2, ensure_ascii=False)
    return text + "\n", variables
