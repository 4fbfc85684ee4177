"""The installed package is the folder generator/toolcat/, found by setuptools, not listed.

setuptools finds the packages under ``generator/`` (src layout), so a room is in every
install exactly when its folder is a package: a folder of modules without ``__init__.py``
would be missing from the wheel while this checkout still imported it as a namespace.
Inside the package, imports are relative: an absolute ``toolcat.`` import would resolve
to whichever toolcat is installed first, not necessarily this one.
"""

from __future__ import annotations

import ast
import tomllib

from helpers.paths import REPO

PACKAGE = REPO / "generator" / "toolcat"


def test_setuptools_finds_the_package_under_its_own_name() -> None:
    setuptools = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["packages"]["find"] == {"where": ["generator"], "include": ["toolcat*"]}
    assert "templates/*.jinja" in setuptools["package-data"]["toolcat"]
    assert (PACKAGE / "templates").resolve() == (REPO / "templates").resolve(), (
        "generator/toolcat/templates must lead to the design's templates/ folder")


def test_every_folder_of_modules_is_a_package() -> None:
    folders = {p.parent for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts}
    missing = sorted(str(f.relative_to(REPO)) for f in folders
                     if not (f / "__init__.py").is_file())
    assert not missing, f"folders of modules without __init__.py (left out of the wheel): {missing}"


def test_no_absolute_import_of_the_package() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [a.name for a in node.names] if isinstance(node, ast.Import) else [])
            found += [f"{path.relative_to(REPO)}:{node.lineno}: {n}" for n in names
                      if n.split(".")[0] in {"generator", "toolcat"}]
    assert not found, "use relative imports inside the package:\n" + "\n".join(found)
