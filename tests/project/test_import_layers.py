"""The generator's rooms import only downwards, and no modules import each other in a loop.

Data flows one way (load -> normalise -> model -> overrides -> render -> output);
shared words sit below every stage, and the rooms that run the pipeline (flows,
cli, and later serve and verify) sit above it. An arrow the other way, or a loop,
is how a stage starts to depend on its callers. Every import counts, those under
TYPE_CHECKING and inside functions too. A new room must be given a rank in the table of
docs/architecture.md, which this test reads.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from helpers.paths import REPO

SOURCE = REPO / "generator"          # the src folder: imports are named from here
PACKAGE = SOURCE / "toolcat"
ARCHITECTURE = REPO / "docs" / "architecture.md"
_ROW = re.compile(r"^\| *(\d+) *\| *([^|]+?) *\|")


def ranks() -> dict[str, int]:
    """Room -> rank, from the table in docs/architecture.md (the page shows what is tested).

    A module may import its own room and rooms of a lower rank; ``(package)`` is
    ``toolcat/__init__.py``, named "" here.
    """
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.split("<!-- ranks:", 1)[1].split("<!-- /ranks -->", 1)[0]
    found: dict[str, int] = {}
    for line in table.splitlines():
        match = _ROW.match(line)
        if match:
            for room in match.group(2).split(","):
                name = room.strip().strip("`")
                found["" if name == "(package)" else name] = int(match.group(1))
    assert len(found) > 15, f"the rank table in {ARCHITECTURE} was not read: {found}"
    return found


RANKS = ranks()


def _module(path: Path) -> str:
    parts = path.relative_to(SOURCE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _imports(path: Path) -> set[str]:
    """Every generator module ``path`` imports, absolute or relative (``from .x import y``
    and ``from toolcat.x import y``: x, and x.y too when y is a module)."""
    found: set[str] = set()
    here = _module(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module and node.module.split(".")[0] == "toolcat":
                target = node.module
            else:
                continue
            if target != "toolcat":   # ``from toolcat import flows``: flows only
                found.add(target)
            folder = SOURCE.joinpath(*target.split("."))
            found.update(f"{target}.{alias.name}" for alias in node.names
                         if (folder / f"{alias.name}.py").is_file()
                         or (folder / alias.name / "__init__.py").is_file())
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "toolcat")
    return found


def _graph() -> dict[str, set[str]]:
    graph = {_module(path): _imports(path) for path in sorted(PACKAGE.rglob("*.py"))}
    assert len(graph) > 40, f"only {len(graph)} modules found under {PACKAGE}"
    return {module: deps - {module} for module, deps in graph.items()}


def upward_arrows(graph: dict[str, set[str]]) -> list[str]:
    problems = []
    for module, deps in sorted(graph.items()):
        for dep in sorted(deps):
            room, other = _room(module), _room(dep)
            unknown = [r for r in (room, other) if r not in RANKS]
            if unknown:
                problems.append(f"{module} -> {dep}: room {unknown[0]!r} has no rank")
            elif room != other and RANKS[other] >= RANKS[room]:
                problems.append(f"{module} -> {dep}: {room} (rank {RANKS[room]}) imports "
                                f"{other} (rank {RANKS[other]})")
    return problems


def loops(graph: dict[str, set[str]]) -> list[list[str]]:
    """Import cycles between modules (a package's __init__ importing its own
    submodules included), each from its smallest module."""
    found: list[list[str]] = []
    state: dict[str, int] = {}   # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for dep in sorted(graph.get(module, ())):
            if state.get(dep) == 1:
                cycle = path[path.index(dep):]
                start = cycle.index(min(cycle))
                found.append(cycle[start:] + cycle[:start])
            elif dep in graph and dep not in state:
                visit(dep)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


def test_every_import_points_down() -> None:
    problems = upward_arrows(_graph())
    assert not problems, "imports against the pipeline's direction:\n" + "\n".join(problems)


def test_no_import_loops() -> None:
    found = loops(_graph())
    assert not found, "import loops:\n" + "\n".join(" -> ".join(c) for c in found)


# The rooms that read catalogs: each reads them through `catalog` and writes text through
# `text`, never through the generator's renderers or through one another.
READERS = ("diff", "models", "runtime", "verify")


def sideways_arrows(graph: dict[str, set[str]]) -> list[str]:
    problems = []
    for module, deps in sorted(graph.items()):
        room = _room(module)
        if room not in READERS:
            continue
        problems += [f"{module} -> {dep}" for dep in sorted(deps)
                     if _room(dep) != room and _room(dep) in {"render", *READERS}]
    return problems


def test_catalog_readers_use_the_catalog_room() -> None:
    problems = sideways_arrows(_graph())
    assert not problems, ("a catalog reader imports a renderer or another reader (use "
                          "toolcat.catalog / toolcat.text):\n" + "\n".join(problems))
    assert sideways_arrows({"toolcat.verify.command": {"toolcat.diff.catalogs"}}) == [
        "toolcat.verify.command -> toolcat.diff.catalogs"]


def test_the_checks_see_an_upward_arrow_and_a_loop() -> None:
    """The two checks on a made-up graph: they are not vacuous."""
    graph = {"toolcat.load.bundle": {"toolcat.output.files"},
             "toolcat.output.files": {"toolcat.load.bundle"},
             "toolcat.new.room": set()}
    assert upward_arrows(graph) == [
        "toolcat.load.bundle -> toolcat.output.files: load (rank 4) imports output "
        "(rank 10)"]
    assert loops(graph) == [["toolcat.load.bundle", "toolcat.output.files"]]
    assert upward_arrows({"toolcat.newroom.x": {"toolcat.vocab.mcp"}}) == [
        "toolcat.newroom.x -> toolcat.vocab.mcp: room 'newroom' has no rank"]
