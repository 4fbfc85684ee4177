"""YAML's share of ``limits``: nesting libyaml can survive, and alias expansion.

libyaml's composer (C, through PyYAML's Cython binding) recurses once per level
of nesting on the C stack: about 25,000 levels crash the process (SIGSEGV) on
an 8 MiB stack, and 80 KB of brackets reach that (and composing 40,000 levels
takes libyaml 26 s before it crashes). Before composing, a cheap upper bound on
the depth decides: documents that cannot be deep (every real spec: OpenAI's is
at most 5,700 by this bound, really 30) are composed as usual; for the others the
depth is first measured exactly from libyaml's event stream, which needs no stack
and stops at the first level past ``MAX_DEPTH``, refused with its line.

The bound: a block collection nested in another starts at a greater column,
except a sequence that is a mapping's value (same column), so block nesting is
at most twice the widest line-leading run of indentation and ``- ``/``? ``/``: ``
indicators; flow nesting is at most the number of ``[`` and ``{`` in the file.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, SequenceNode

from ..errors import ToolcatError, fail
from .limits import EXPANSION_FACTOR, EXPANSION_SLACK, MAX_DEPTH

# Levels an 8 MiB stack surely holds: libyaml + Cython use about 330 bytes a level.
SAFE_BOUND = 8_000


def nesting_bound(data: bytes) -> int:
    """An upper bound on how deep ``data`` nests (see the module docstring)."""
    flow = data.count(b"[") + data.count(b"{")
    if flow >= SAFE_BOUND:
        return flow
    # Only whether the bound stays under SAFE_BOUND matters: search, do not measure.
    run = (SAFE_BOUND - flow) // 2
    # ``\n`` first rather than ``^`` with re.M: the engine then skips from line to
    # line instead of trying every position (3 ms on Stripe's 4 MB, not 30).
    indent = re.compile(rb"[ \t?:-]{%d,}" % run)
    if indent.match(data) is None and re.search(rb"\n" + indent.pattern, data) is None:
        return flow + 2 * run
    return SAFE_BOUND + 1


def check_nesting(data: bytes, file: str) -> None:
    """Make sure libyaml can compose ``data`` without overflowing the C stack."""
    if nesting_bound(data) > SAFE_BOUND:
        _check_event_depth(data, file)  # refused past MAX_DEPTH, else shallow enough


def _check_event_depth(data: bytes, file: str) -> None:
    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    depth = 0
    for event in yaml.parse(data, Loader=loader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise _too_deep(file, event.start_mark)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1


def _too_deep(file: str, mark: Any) -> ToolcatError:
    return fail(file, f"line {mark.line + 1} column {mark.column + 1}",
                f"objects and arrays nest deeper than toolcat's limit of {MAX_DEPTH} "
                "levels here", "flatten the document, or use $ref to a named schema "
                "for recursive structures")


def check_nodes(root: Node, file: str) -> None:
    """Refuse a composed tree that nests past MAX_DEPTH, expands through aliases past
    the budget, or holds an alias inside its own anchor; linear in distinct nodes."""
    size: dict[Node, int] = {}
    height: dict[Node, int] = {}
    parents: dict[Node, int] = {}
    opened: set[Node] = set()
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if node in size:
            continue
        kids = _kids(node)
        if done:
            size[node] = 1 + sum(size[k] for k in kids)
            height[node] = 1 + max((height[k] for k in kids), default=0)
            if height[node] > MAX_DEPTH + 1:  # scalars count as a level here
                raise _too_deep(file, node.start_mark)
            continue
        if node in opened:
            raise fail(file, f"line {node.start_mark.line + 1}", "a YAML alias refers to "
                       "its own anchor: the document would be infinite",
                       "replace the alias by a $ref")
        opened.add(node)
        stack.append((node, True))
        for kid in kids:
            parents[kid] = parents.get(kid, 0) + 1
            if kid not in size:
                stack.append((kid, False))
    budget = EXPANSION_FACTOR * len(size) + EXPANSION_SLACK
    if size[root] > budget:
        worst = max((n for n, count in parents.items() if count > 1),
                    key=lambda n: (size[n] * (parents[n] - 1), -n.start_mark.index))
        raise fail(file, f"line {worst.start_mark.line + 1}",
                   f"YAML aliases expand the document to {size[root]:,} nodes, beyond "
                   f"toolcat's limit of {budget:,} for this file (the anchor here is "
                   f"used {parents[worst]:,} times)", "write the shared part once and "
                   "refer to it with $ref instead of an alias")


def _kids(node: Node) -> list[Node]:
    if isinstance(node, SequenceNode):
        return list(node.value)
    if isinstance(node, MappingNode):
        return [n for pair in node.value for n in pair]
    return []
