"""The project's environment is pinned whole, so CI runs what developers ran.

make installs with .ci/constraints.txt. toolcat's identity (generator/identity.py)
covers every package of its requirement closure, and a catalog folder's record
is trusted only where that identity matches: a package of the closure without
an exact constraint would drift on a fresh runner with each upstream release.
"""

from __future__ import annotations

import re
import tomllib

from helpers.paths import REPO

from generator.identity import requirement_versions

CONSTRAINTS = REPO / ".ci" / "constraints.txt"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _constraints() -> dict[str, str]:
    pins = {}
    for raw in CONSTRAINTS.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"{CONSTRAINTS.name}: not an exact pin: {line!r}"
            pins[_normal(name)] = version
    return pins


def test_pyproject_pins_agree_with_the_constraints() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    pins = _constraints()
    for requirement in [*project["dependencies"], *project["optional-dependencies"]["dev"]]:
        name, _, version = requirement.partition("==")
        assert version, f"pyproject.toml: not an exact pin: {requirement!r}"
        assert pins.get(_normal(name)) == version, (
            f"{name}: pyproject.toml pins {version}, {CONSTRAINTS.name} "
            f"{pins.get(_normal(name))}")


def test_toolcat_identity_is_fully_constrained() -> None:
    pins = _constraints()
    for entry in requirement_versions():
        name, _, version = entry.partition("==")
        if name == "toolcat":
            continue
        assert _normal(name) in pins, (
            f"{name} is in toolcat's identity but not pinned in {CONSTRAINTS.name}")
        assert pins[_normal(name)] == version, (
            f"{name}: installed {version}, {CONSTRAINTS.name} pins {pins[_normal(name)]}")
