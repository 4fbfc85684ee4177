"""The wheel holds every room: pyproject lists the packages by hand (the folder generator/
installs under the import name toolcat), so a new room must be listed or it is missing from
every install but this editable one. Inside the package, imports are relative: an absolute
``generator.`` import would work here and fail in every installed copy."""

from __future__ import annotations

import ast
import tomllib

from helpers.paths import REPO

PACKAGE = REPO / "generator"


def test_every_package_folder_is_in_the_wheel() -> None:
    listed = set(tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
                 ["packages"])
    folders = {".".join(("toolcat", *p.parent.relative_to(PACKAGE).parts))
               for p in PACKAGE.rglob("__init__.py")}
    assert listed == folders, (f"missing from pyproject: {sorted(folders - listed)}; "
                               f"listed but absent: {sorted(listed - folders)}")


def test_no_absolute_import_of_the_source_folder() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [f"{path.relative_to(REPO)}:{node.lineno}: {n}" for n in names
                      if n.split(".")[0] in {"generator", "toolcat"}]
    assert not found, "use relative imports inside the package:\n" + "\n".join(found)
