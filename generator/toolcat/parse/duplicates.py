"""Duplicate keys: a key written twice in one object of a JSON or YAML document.

Every parser here keeps one value silently (orjson, ``json`` and PyYAML the last),
so a path written twice lost its first operations without a word (issue 28 item 16).
A duplicate is always reported with its place. Which value stays is a deliberate
choice: **the last**, as JSON.parse, Python's json, orjson and PyYAML keep it, so
toolcat reads what the other tools reading the same file read. Whether a duplicate
refuses the file is the caller's choice (``Repeats``): hand-written files (config,
overrides) always refuse; a spec reports it as a finding of its validation mode.

Cost: JSON is parsed by orjson, which cannot see duplicates. Each member of the
parsed tree has one ``:``; the bytes have one per key written, plus the colons inside
strings. orjson writes the tree back (the same strings, never a colon escaped) in a
few milliseconds; if the bytes hold no colon spelt ``\u003a``, equal colon counts mean
no key was written twice (a dropped duplicate takes its colon away from the tree, and
colons inside strings only ever go with it). Only otherwise is the file read again,
with the standard library and a hook that sees every key. GitHub's 3 MB: 30 ms
against orjson's 100 ms to parse; Cloudflare's 4 MB: 60 ms against 350 ms.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import orjson

from ..errors import Problem, fail
from ..vocab.pointers import pointer

_ESCAPED_COLON = re.compile(rb"\\u003[aA]")
MESSAGE = ("the key {key!r} is written twice in one object; toolcat keeps the last value, "
           "as JSON and YAML parsers do")
FIX = "write each key once (merge the two entries)"


@dataclass
class Repeats:
    """Where duplicates go: ``keep`` collects them (a spec, for its validation mode);
    otherwise the first one refuses the file. ``defer`` (with ``keep``): a JSON file's
    check waits in ``later`` until ``settled`` is asked (the pipeline asks once the
    validator's process has forked: GitHub's 13 MB cost the check about 25 ms, which the
    validator need not wait for). The tree read is the same either way: orjson keeps each
    key's first place and last value, as the check's own parse does."""

    file: str
    keep: bool = False
    found: list[Problem] = field(default_factory=list)
    defer: bool = False
    # (JSON bytes, its tree as orjson writes it, taken when read: later stages change
    # the tree in place)
    later: list[tuple[bytes, bytes]] = field(default_factory=list)

    def left_for_later(self, data: bytes, tree: Any) -> bool:
        """Whether the check of ``data`` (parsed to ``tree``) waits in ``later``."""
        if not (self.keep and self.defer) or (type(tree) is not dict
                                               and type(tree) is not list):
            return False
        written = _written(tree)
        if written is not None:
            self.later.append((data, written))
        return written is not None

    def settled(self) -> list[Problem]:
        """``found``, once the checks left for later are done."""
        while self.later:
            data, written = self.later.pop(0)
            if _colons_differ(data, written):
                check_json(data, self)
        return self.found

    def add(self, location: str, key: str) -> None:
        problem = Problem(self.file, location, MESSAGE.format(key=key), FIX)
        if not self.keep:
            raise fail(problem.file, problem.location, problem.message, problem.fix)
        self.found.append(problem)


def may_repeat(data: bytes, tree: Any) -> bool:
    """Whether a key may repeat in the JSON ``data`` that parsed to ``tree``."""
    if type(tree) is not dict and type(tree) is not list:
        return False
    written = _written(tree)
    return written is None or _colons_differ(data, written)


def _written(tree: Any) -> bytes | None:
    """``tree`` as orjson writes it (None: an integer past 64 bits, read by exact_json)."""
    try:
        return orjson.dumps(tree)
    except orjson.JSONEncodeError:
        return None


def _colons_differ(data: bytes, written: bytes) -> bool:
    """Whether the colons of ``data`` and of its tree as written may tell a key apart."""
    if _ESCAPED_COLON.search(data):
        return True
    return data.count(b":") != written.count(b":")


def check_json(data: bytes, repeats: Repeats) -> Any:
    """``data`` parsed with every duplicate reported at its JSON pointer; the last
    value of each kept. ``data`` is known to be valid JSON (orjson read it)."""
    marked: dict[int, list[str]] = {}

    def hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            seen: set[str] = set()
            marked[id(out)] = []
            for key, _ in pairs:
                if key in seen:
                    marked[id(out)].append(key)
                seen.add(key)
        return out

    tree = json.loads(data, object_pairs_hook=hook)
    if marked:
        _report(tree, marked, repeats)
    return tree


def _report(tree: Any, marked: dict[int, list[str]], repeats: Repeats) -> None:
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(tree, ())]
    found: list[tuple[tuple[str | int, ...], str]] = []
    while stack:
        node, at = stack.pop()
        if isinstance(node, dict):
            found += [((*at, key), key) for key in marked.get(id(node), ())]
            stack += [(v, (*at, k)) for k, v in node.items()]
        elif isinstance(node, list):
            stack += [(v, (*at, i)) for i, v in enumerate(node)]
    for at, key in sorted(found, key=lambda f: [str(t) for t in f[0]]):
        repeats.add(pointer(*at), key)
