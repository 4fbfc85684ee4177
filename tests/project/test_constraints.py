"""The project's environment is pinned whole, so CI runs what developers ran.

make installs with .ci/constraints.txt. toolcat's identity (generator/identity.py)
covers every package of its requirement closure, and a catalog folder's record
is trusted only where that identity matches: a package of the closure without
an exact constraint would drift on a fresh runner with each upstream release.
"""

from __future__ import annotations

import re
import tomllib
from typing import Any

from helpers.paths import REPO
from packaging.requirements import Requirement
from toolcat.identity import requirement_versions

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


# Runtime requirements whose version changes emitted bytes or validation verdicts
# (see pyproject.toml): exact. Every other runtime requirement is a range, so toolcat
# installs beside a project's own pins; development tools stay exact.
EXACT = {"black", "datamodel-code-generator", "jsonpath-rfc9535", "jsonschema",
         "jsonschema-path", "jsonschema-rs",
         "regress",   # the ECMA-262 engine of every pattern verdict (vocab/ecma.py)
         "regex",     # jsonschema's `regex` format check uses it when installed
         "snowballstemmer",   # its stems rank discovery search: the same page everywhere
         "openapi-schema-validator", "openapi-spec-validator", "orjson", "pathable", "pyyaml",
         "referencing",
         "ruff",      # formats models.py before black, which keeps what it accepts
         "yaml-rs"}   # the tree of a plain YAML spec (parse/yaml_fast.py)


def _project() -> dict[str, Any]:
    return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]  # type: ignore[no-any-return]


def test_pyproject_pins_agree_with_the_constraints() -> None:
    project = _project()
    pins = _constraints()
    runtime = {_normal(Requirement(r).name) for r in project["dependencies"]}
    assert runtime >= EXACT, f"exact requirements missing: {sorted(EXACT - runtime)}"
    for text in [*project["dependencies"], *project["optional-dependencies"]["dev"]]:
        requirement = Requirement(text)
        name = _normal(requirement.name)
        pinned = pins.get(name)
        assert pinned is not None, f"{name} is not in {CONSTRAINTS.name}"
        if name in EXACT or name not in runtime:
            assert str(requirement.specifier) == f"=={pinned}", (
                f"{name}: pyproject.toml says {requirement.specifier}, must be =={pinned} "
                f"(as {CONSTRAINTS.name})")
        else:
            assert "==" not in str(requirement.specifier), (
                f"{name}: an exact pin, but its version does not change output: use a range")
            assert requirement.specifier.contains(pinned), (
                f"{name}: {CONSTRAINTS.name} locks {pinned}, outside {requirement.specifier}")


def test_ranges_admit_older_common_releases() -> None:
    # The reported failure: `pip install toolcat 'click<8.5'` was ResolutionImpossible.
    ranges = {_normal(Requirement(r).name): Requirement(r).specifier
              for r in _project()["dependencies"]}
    assert ranges["click"].contains("8.1.8")
    assert ranges["jinja2"].contains("3.1.2")


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
