"""Which environment variable carries each credential of a catalog (names, never values).

``toolcat serve`` reads a security scheme's value from the variable the config's
``credentials:`` map names for it, else the one the binding records (a credential
the document does not declare), else ``TOOLCAT_<CATALOG>_<SCHEME>``. ``verify``
(to keep those values out of its output) and ``mcp-config`` (to list them) ask
the same question here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any


def default_env_var(catalog: str, scheme: str) -> str:
    """`TOOLCAT_<CATALOG>_<SCHEME>`, upper case, anything but letters and digits as `_`."""
    return re.sub(r"[^A-Z0-9]", "_", f"TOOLCAT_{catalog}_{scheme}".upper())


def scheme_variable(catalog: str, scheme: Mapping[str, Any], credentials: Mapping[str, str]
                    ) -> str:
    """The variable one security scheme (a binding's ``security`` entry) is read from."""
    name = str(scheme["id"])
    return credentials.get(name) or scheme.get("env") or default_env_var(catalog, name)


def scheme_variables(catalog: str, bindings: Iterable[Mapping[str, Any]],
                     credentials: Mapping[str, str]) -> dict[str, str]:
    """Every security scheme some binding uses -> the variable it is read from, by scheme id
    (a scheme of type ``undeclared``, whose place the document never says, is never read)."""
    found: dict[str, str] = {}
    for binding in bindings:
        for alternative in binding.get("security") or []:
            for scheme in alternative:
                name = str(scheme["id"])
                if name not in found and scheme.get("type") != "undeclared":
                    found[name] = scheme_variable(catalog, scheme, credentials)
    return dict(sorted(found.items()))


def credential_variables(catalog: str, bindings: Iterable[Mapping[str, Any]],
                         credentials: Mapping[str, str]) -> list[str]:
    """Every variable some tool of the catalog may read a credential from, sorted."""
    return sorted(set(scheme_variables(catalog, bindings, credentials).values()))
