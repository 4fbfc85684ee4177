"""Which server tool answers for which catalog tool.

Servers written by hand often name tools differently (``ersatztv_update_channel``
for the catalog's ``broadcast_update_channel``). ``--prefix FROM=TO`` swaps a
leading ``FROM`` for ``TO`` (``--prefix TO`` prepends ``TO``), and ``--map
CATALOG=SERVER`` names one tool exactly and wins over the prefix. A mapping that
names a tool the catalog does not have is an error, not a rule that never fires.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import Problem, ToolcatError, nearest


@dataclass(frozen=True)
class NameMap:
    strip: str = ""
    add: str = ""
    exact: tuple[tuple[str, str], ...] = ()

    def server_name(self, catalog_name: str) -> str:
        for source, target in self.exact:
            if source == catalog_name:
                return target
        if self.strip and catalog_name.startswith(self.strip):
            return self.add + catalog_name[len(self.strip):]
        return catalog_name if self.strip else self.add + catalog_name


def parse_names(prefix: str | None, pairs: Iterable[str], catalog_names: Iterable[str],
                label: str) -> NameMap:
    known = sorted(catalog_names)
    problems: list[Problem] = []
    strip, add = "", prefix or ""
    if prefix and "=" in prefix:
        strip, add = prefix.split("=", 1)
        if not strip:
            problems.append(Problem("--prefix", "", f"'{prefix}' has nothing before '='",
                                    "write --prefix CATALOG_PREFIX=SERVER_PREFIX"))
    exact: list[tuple[str, str]] = []
    for pair in pairs:
        source, sep, target = pair.partition("=")
        if not sep or not source or not target:
            problems.append(Problem("--map", "", f"'{pair}' is not CATALOG_TOOL=SERVER_TOOL",
                                    "write --map broadcast_get_channel=get_channel"))
        elif source not in known:
            problems.append(Problem("--map", "", f"the catalog {label} has no tool "
                                    f"'{source}'{nearest(source, known)}",
                                    "name a tool of the catalog on the left of '='"))
        else:
            exact.append((source, target))
    if problems:
        raise ToolcatError(problems)
    return NameMap(strip, add, tuple(sorted(exact)))
