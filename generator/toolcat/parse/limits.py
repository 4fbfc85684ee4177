"""Bounds on what one spec file may cost: size, kind of file, nesting, alias expansion.

A small hostile file must not make toolcat hang, exhaust memory or crash, so every
input is measured against documented limits before later stages walk it, and a
file beyond a limit is refused with its location (README, "Limits"):

* ``MAX_FILE_BYTES``: every file toolcat reads, in every command, is a regular file
  of at most 64 MiB (a FIFO or ``/dev/zero`` would never end); reads stop one byte
  past the limit (``read_bounded``, docs/check.md "Read limits").
* ``MAX_DEPTH``: objects and arrays nest at most 128 deep. Real specs stay under
  40; the catalog writer (orjson) stops at 255 levels and later stages recurse.
* ``MAX_EXPANSION``: YAML aliases may add at most four times the nodes the file
  writes, plus 100,000 (a "billion laughs" file of 700 bytes would otherwise
  expand to gigabytes).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any, NamedTuple

from ..errors import ToolcatError, fail
from ..vocab.keywords import DEFINITIONS, LITERAL_VALUES, SUBSCHEMA_MAP
from ..vocab.pointers import pointer
from .exact_json import ROUNDED

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_PATH_BYTES = 4096   # Linux PATH_MAX; a file name toolcat is given or reaches by $ref
MAX_NAME_BYTES = 255    # NAME_MAX: one part of such a path
MAX_DEPTH = 128
EXPANSION_FACTOR = 4
EXPANSION_SLACK = 100_000


def read_bounded(path: Path, *, follow: bool = True,
                 fix: str = "check the path in the config or on the command line") -> bytes:
    """The bytes of a regular file of at most ``MAX_FILE_BYTES``; anything else exits 2.

    Every file toolcat reads goes through here (specs, ``$ref``s, config, overrides,
    templates, catalogs read by ``diff``/``serve``/``verify``, the catalog folder
    ``check`` compares). ``follow=False``: a symlink is refused rather than followed.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
    problem = path_problem(path)
    if problem is not None:
        raise fail(str(path)[:300], "", f"cannot read file: {problem}", fix)
    try:
        # O_NONBLOCK: opening a FIFO with no writer would otherwise block forever.
        fd = os.open(path, flags)
    except OSError as exc:
        raise fail(str(path), "", f"cannot read file: {exc.strerror}", fix) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise fail(str(path), "", "not a regular file (a device, FIFO, socket or "
                       "folder)", fix)
        if info.st_size > MAX_FILE_BYTES:
            raise _too_big(path)
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)  # a file may grow after fstat
    except OSError as exc:
        raise fail(str(path), "", f"cannot read file: {exc.strerror}", fix) from None
    finally:
        os.close(fd)
    if len(data) > MAX_FILE_BYTES:
        raise _too_big(path)
    return data


def path_problem(path: Path) -> str | None:
    """Why no system call would open ``path`` (None: it may be opened)."""
    raw = os.fsencode(str(path))
    if b"\0" in raw:
        return "the name holds a NUL character"
    if len(raw) > MAX_PATH_BYTES:
        return f"the path is longer than {MAX_PATH_BYTES} bytes"
    if any(len(os.fsencode(part)) > MAX_NAME_BYTES for part in path.parts):
        return f"a part of the path is longer than {MAX_NAME_BYTES} bytes"
    return None


def _too_big(path: Path) -> ToolcatError:
    return fail(str(path), "", f"the file is larger than toolcat's limit of "
                f"{MAX_FILE_BYTES // (1024 * 1024)} MiB", "split it into files joined by $ref")


def check_depth(data: Any, file: str) -> None:
    """Refuse ``data`` (a tree, or a DAG built from YAML aliases) nesting past MAX_DEPTH.

    Heights are memoised per container, so shared subtrees are measured once and
    the cost is linear in the distinct containers.
    """
    heights = _heights(data, file)
    if heights.get(id(data), 0) <= MAX_DEPTH:
        return
    tokens: list[str | int] = []
    node = data
    while len(tokens) < MAX_DEPTH:  # follow the tallest child down to the limit
        children = _children(node)
        key, node = max(children, key=lambda kv: heights.get(id(kv[1]), 0))
        tokens.append(key)
    raise fail(file, pointer(*tokens), f"objects and arrays nest deeper than toolcat's "
               f"limit of {MAX_DEPTH} levels here", "flatten the document, or use $ref "
               "to a named schema for recursive structures")


def check_tree_depth(data: Any, file: str) -> bool:
    """``check_depth`` for data that shares no container (parsed JSON always is a tree);
    True when the tree holds a float large enough to be an integer orjson rounded
    (parse/exact_json.py), seen in the same pass.

    One pass with a depth per container and no memo: ten times faster than
    ``check_depth`` on a 13 MB document. Where the limit is passed, ``check_depth``
    names the place. (JSON parsers give exactly ``dict`` and ``list``.)
    """
    if type(data) is not dict and type(data) is not list:
        return type(data) is float and abs(data) >= ROUNDED
    rounded = False
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            check_depth(data, file)
            raise AssertionError(f"{file}: nests past {MAX_DEPTH}, but check_depth passed")
        for value in node.values() if type(node) is dict else node:
            kind = type(value)
            if kind is dict or kind is list:
                stack.append((value, depth + 1))
            elif kind is float and abs(value) >= ROUNDED:
                rounded = True
    return rounded


# Keys whose dict value load/bundle.py reads as a map of schemas, where a string
# ``$ref`` member splices another map in.
SPLICING = SUBSCHEMA_MAP | DEFINITIONS | {"schemas"}


class TreeFacts(NamedTuple):
    """What ``check_tree_refs`` learns of a JSON tree in its one pass."""

    local: bool     # every $ref local and none splicing a map (load/bundle.py's question)
    rounded: bool   # a float large enough to be an integer orjson rounded
    tuples: bool    # a list under ``items`` where load/repairs.py looks (its question)
    # A ``readOnly`` / ``writeOnly`` key in some object, anywhere (literal values too:
    # a $ref may point anywhere): without one, normalise/schema.py has no property to
    # hide in that direction. True, the default, is "maybe": a reader whose walk does
    # not look (the YAML fast path's, parse/yaml_fast.py) answers it by leaving it.
    read_only: bool = True
    write_only: bool = True


def check_tree_refs(data: Any, file: str) -> TreeFacts:
    """``check_tree_depth`` that also answers, in the same pass, the questions of two
    later walks of a spec's root file, which the answers spare: load/bundle.py's
    (``_self_contained``): ``local`` when every string ``$ref`` is ``#`` or ``#/...`` and
    no dict held under a ``SPLICING`` key has a string ``$ref``; and load/repairs.py's
    (``_any_tuple``, the same rules): ``tuples`` when a dict holds a list under ``items``,
    outside literal values (``LITERAL_VALUES``, ``x-*``), names of a ``SPLICING`` map
    aside; and normalise/schema.py's: ``read_only``/``write_only`` when some object, of
    any kind, has that key. The depth is checked the same way, and refused with the same
    words and place.
    """
    if type(data) is not dict and type(data) is not list:
        return TreeFacts(True, type(data) is float and abs(data) >= ROUNDED, False,
                         False, False)
    facts = _Facts()
    # One level of containers at a time (no (node, depth) pairs), in three kinds: keys
    # that may be keywords, keys that are names, literal values.
    plain: list[Any] = [data]
    named: list[Any] = []
    inert: list[Any] = []
    depth = 1
    while plain or named or inert:
        if depth > MAX_DEPTH:
            check_depth(data, file)
            raise AssertionError(f"{file}: nests past {MAX_DEPTH}, but check_depth passed")
        below: tuple[list[Any], list[Any], list[Any]] = ([], [], [])
        _level(plain, facts, True, *below)
        _level(named, facts, False, below[0], below[0], below[0])
        _level(inert, facts, False, below[2], below[2], below[2])
        plain, named, inert = below
        depth += 1
    return TreeFacts(facts.local, facts.rounded, facts.tuples, facts.read_only,
                     facts.write_only)


class _Facts:
    __slots__ = ("local", "read_only", "rounded", "tuples", "write_only")

    def __init__(self) -> None:
        self.local, self.rounded, self.tuples = True, False, False
        self.read_only = self.write_only = False


def _level(level: list[Any], facts: _Facts, keywords: bool, plain: list[Any],
           named: list[Any], inert: list[Any]) -> None:
    """One level of containers, their children sorted into the three kinds. Where keys
    may be keywords (``keywords``), a list under ``items`` is noted, literal values go to
    ``inert`` and the maps of names to ``named``; elsewhere every child goes to
    ``plain`` (the caller's choice: names hold keywords again, literals hold literals)."""
    local, rounded, tuples = facts.local, facts.rounded, facts.tuples
    read_only, write_only = facts.read_only, facts.write_only
    for node in level:
        if type(node) is list:
            for value in node:
                kind = type(value)
                if kind is dict or kind is list:
                    plain.append(value)
                elif kind is float and abs(value) >= ROUNDED:
                    rounded = True
            continue
        if local:
            ref = node.get("$ref")
            if isinstance(ref, str) and ref != "#" and not ref.startswith("#/"):
                local = False
        if keywords and not tuples and isinstance(node.get("items"), list):
            tuples = True
        if not read_only and "readOnly" in node:
            read_only = True
        if not write_only and "writeOnly" in node:
            write_only = True
        for key, value in node.items():
            kind = type(value)
            if kind is dict or kind is list:
                if local and kind is dict and key in SPLICING \
                        and isinstance(value.get("$ref"), str):
                    local = False
                if not keywords:
                    plain.append(value)
                elif key in LITERAL_VALUES or key.startswith("x-"):
                    inert.append(value)
                elif key in SPLICING:
                    named.append(value)
                else:
                    plain.append(value)
            elif kind is float and abs(value) >= ROUNDED:
                rounded = True
    facts.local, facts.rounded, facts.tuples = local, rounded, tuples
    facts.read_only, facts.write_only = read_only, write_only


def _children(node: Any) -> list[tuple[str | int, Any]]:
    if isinstance(node, dict):
        return [(k, v) for k, v in node.items() if isinstance(v, (dict, list))]
    return [(i, v) for i, v in enumerate(node) if isinstance(v, (dict, list))]


def _heights(root: Any, file: str) -> dict[int, int]:
    """id(container) -> levels of containers from it down (1 for one with no child
    container); iterative, so depth never costs Python stack."""
    heights: dict[int, int] = {}
    if not isinstance(root, (dict, list)):
        return heights
    open_: set[int] = set()
    stack: list[tuple[Any, bool]] = [(root, False)]
    while stack:
        node, done = stack.pop()
        if id(node) in heights:
            continue
        if not done and id(node) in open_:  # its own descendant: a YAML alias cycle
            raise fail(file, "", "a YAML alias refers to its own anchor: the document "
                       "would be infinite", "replace the alias by a $ref")
        open_.add(id(node))
        values = node.values() if isinstance(node, dict) else node
        if done:
            heights[id(node)] = 1 + max(
                (heights[id(v)] for v in values if isinstance(v, (dict, list))), default=0)
            continue
        stack.append((node, True))
        stack.extend((v, False) for v in values
                     if isinstance(v, (dict, list)) and id(v) not in heights)
    return heights
