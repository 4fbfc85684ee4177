"""What `toolcat serve` checks about credentials before it serves (names only, never values).

- A `credentials:` entry naming a security scheme no tool of the catalog uses is a typo that
  would make every call go without it: an error (exit 2) naming the nearest scheme.
- A credential variable that is not set: a warning naming the variable and the tools that will
  call without any credential because of it.
- A secret too short to be redacted safely (see `secrets.MIN_FORM`): a warning.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import Problem, nearest
from ..vocab.credentials import scheme_variables as catalog_scheme_variables
from .secrets import MIN_FORM

SHOWN_TOOLS = 5


def scheme_variables(catalog: dict[str, Any], credentials: Mapping[str, str]
                     ) -> dict[str, str]:
    """Every security scheme some tool of the catalog uses -> the variable holding it
    (vocab/credentials.py: the one rule serve, verify and mcp-config share)."""
    return catalog_scheme_variables(str(catalog.get("name", "catalog")),
                                    [entry["binding"] for entry in catalog["tools"]],
                                    credentials)


def unknown_schemes(catalog: dict[str, Any], credentials: Mapping[str, str], file: str,
                    catalog_name: str) -> list[Problem]:
    """One located problem per `credentials:` key that names no scheme of the catalog."""
    used = scheme_variables(catalog, {})
    problems = []
    for key in sorted(credentials):
        if key not in used:
            known = ", ".join(f"'{s}'" for s in used) or "none"
            problems.append(Problem(
                file, f"catalogs.{catalog_name}.credentials.{key}",
                f"no tool of this catalog uses a security scheme named '{key}'"
                f"{nearest(key, used)}; the schemes its tools use: {known}",
                "name a security scheme of the document (components.securitySchemes)"))
    return problems


def _lacking(catalog: dict[str, Any], is_set: Mapping[str, bool]
             ) -> list[tuple[str, set[str]]]:
    """(name, the schemes of its usable alternatives) of each tool whose every security
    alternative lacks a credential (one pass over the catalog, whatever the schemes)."""
    found = []
    for entry in catalog["tools"]:
        alternatives = entry["binding"].get("security", [])
        usable = [alt for alt in alternatives
                  if all(s.get("type") != "undeclared" for s in alt)]
        if not usable or any(all(is_set[s["id"]] for s in alt) for alt in usable):
            continue
        found.append((entry["tool"]["name"], {s["id"] for alt in usable for s in alt}))
    return found


def start_warnings(catalog: dict[str, Any], credentials: Mapping[str, str],
                   environ: Mapping[str, str]) -> list[str]:
    """Warnings for stderr at start: unset variables (and the tools they leave without a
    credential), secrets too short to redact."""
    variables = scheme_variables(catalog, credentials)
    is_set = {s: bool(environ.get(v)) for s, v in variables.items()}
    lacking = _lacking(catalog, is_set) if not all(is_set.values()) else []
    lines = []
    for scheme, variable in variables.items():
        value = environ.get(variable, "")
        if not value:
            # Tools whose every alternative lacks a credential, one of them this scheme.
            tools = sorted(name for name, schemes in lacking if scheme in schemes)
            if tools:
                shown = ", ".join(tools[:SHOWN_TOOLS]) + (
                    f" and {len(tools) - SHOWN_TOOLS} more" if len(tools) > SHOWN_TOOLS else "")
                lines.append(f"warning: {variable} is not set (security scheme '{scheme}'): "
                             f"{len(tools)} tool(s) will call the API without a credential: "
                             f"{shown}")
        elif len(value.split(":", 1)[-1]) < MIN_FORM:
            lines.append(f"warning: {variable} holds a secret shorter than {MIN_FORM} "
                         "characters: too short to be redacted from what the API echoes")
    return lines
