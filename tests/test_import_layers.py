"""The generator's rooms import only downwards, and no modules import each other in a loop.

Data flows one way (load -> normalise -> model -> overrides -> render -> output);
shared words sit below every stage, and the rooms that run the pipeline (flows,
cli, and later serve and verify) sit above it. An arrow the other way, or a loop,
is how a stage starts to depend on its callers. Every import counts, those under
TYPE_CHECKING and inside functions too. A new room must be given a rank here.
"""

from __future__ import annotations

import ast
from pathlib import Path

from helpers.paths import REPO

PACKAGE = REPO / "generator"

# Room -> rank: a module may import its own room and rooms of a lower rank.
RANKS = {
    "vocab": 0,
    "errors": 1, "jsonio": 1, "jsontypes": 1, "identity": 1, "progress": 1,
    "parse": 2,
    "config": 3,
    "load": 4,
    "normalise": 5,
    "model": 6,
    "overrides": 7,
    "render": 8,
    "cache": 9, "models": 9,   # models: renders models.py, so above render
    "output": 10,
    "pipeline": 11, "diff": 11,
    "flows": 12, "verify": 12, "runtime": 12, "init": 12,   # init: sets up a project
    "cli": 13, "": 13,   # "": generator/__init__.py
    "__main__": 14,      # python -m toolcat: runs the CLI
}


def _module(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _room(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def _imports(path: Path) -> set[str]:
    """Every generator module ``path`` imports, absolute or relative (``from .x import y``
    and ``from generator.x import y``: x, and x.y too when y is a module). Inside the
    package imports are relative, since it installs under the name ``toolcat``."""
    found: set[str] = set()
    here = _module(path).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[:len(package) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            elif node.module and node.module.split(".")[0] == "generator":
                target = node.module
            else:
                continue
            if target != "generator":   # ``from generator import flows``: flows only
                found.add(target)
            folder = REPO.joinpath(*target.split("."))
            found.update(f"{target}.{alias.name}" for alias in node.names
                         if (folder / f"{alias.name}.py").is_file()
                         or (folder / alias.name / "__init__.py").is_file())
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "generator")
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


def test_the_checks_see_an_upward_arrow_and_a_loop() -> None:
    """The two checks on a made-up graph: they are not vacuous."""
    graph = {"generator.load.bundle": {"generator.output.files"},
             "generator.output.files": {"generator.load.bundle"},
             "generator.new.room": set()}
    assert upward_arrows(graph) == [
        "generator.load.bundle -> generator.output.files: load (rank 4) imports output "
        "(rank 10)"]
    assert loops(graph) == [["generator.load.bundle", "generator.output.files"]]
    assert upward_arrows({"generator.newroom.x": {"generator.vocab.mcp"}}) == [
        "generator.newroom.x -> generator.vocab.mcp: room 'newroom' has no rank"]
