"""Read one JSON or YAML file into plain data.

JSON is read as JSON (orjson: fast, and it accepts escapes PyYAML rejects); YAML by
``yaml_reader`` (YAML 1.2's core schema, safely), imported only when a file is YAML:
a run whose files are all JSON never imports PyYAML.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from ..errors import Problem, fail
from .duplicates import Repeats, check_json, may_repeat
from .exact_json import exact_json
from .inputs import Inputs, Read
from .limits import TreeFacts, check_tree_depth, check_tree_refs, read_bounded


def is_json_path(path: Path) -> bool:
    return path.suffix.lower() == ".json"


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Parsing makes a large tree of new containers and no cyclic garbage: the cyclic
    collector would only rescan the tree as it grows (over half of a 4 MB YAML read)."""
    if not gc.isenabled():  # the CLI runs without it
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def parse_bytes(data: bytes, path: Path, repeats: Repeats | None = None,
                walk: Callable[[Any, str], bool] = check_tree_depth,
                note: Callable[[TreeFacts], None] | None = None) -> Any:
    """Parse JSON or YAML bytes; errors name the file and the line. A key written
    twice in one object refuses the file, unless ``repeats`` collects it. ``walk``
    bounds a JSON tree's depth and says whether it may hold an integer orjson rounded
    (``read_document``'s also notes what the bundle asks); ``note`` is told what a YAML
    read learnt of its tree, when it learnt it (``yaml_reader.load_yaml``)."""
    with _collector_paused():
        return _parse(data, path, repeats if repeats is not None else Repeats(str(path)),
                      walk, note)


def _parse(data: bytes, path: Path, repeats: Repeats, walk: Callable[[Any, str], bool],
           note: Callable[[TreeFacts], None] | None) -> Any:
    if is_json_path(path) or data.lstrip()[:1] in (b"{", b"["):
        try:
            parsed = orjson.loads(data)
        except orjson.JSONDecodeError as exc:
            if is_json_path(path):
                raise fail(str(path), f"line {exc.lineno} column {exc.colno}",
                           f"invalid JSON: {exc.msg}", "fix the syntax at that line") from None
        else:
            # JSON shares no container; the same bytes read exactly hold the same containers
            if walk(parsed, str(path)):
                parsed = exact_json(data, str(path))
            if repeats.left_for_later(data, parsed):
                return parsed
            return check_json(data, repeats) if may_repeat(data, parsed) else parsed
    from .yaml_reader import load_yaml  # noqa: PLC0415 - a JSON spec's run imports no PyYAML

    return load_yaml(data, path, repeats, note)


def read_document(path: Path, repeats: Repeats | None = None,
                  read: Read = read_bounded, resolved: Path | None = None
                  ) -> tuple[Any, bytes]:
    """Return (data, raw bytes) of a spec file (``repeats``: see ``parse_bytes``; ``read``:
    the run's ``Inputs``, parse/inputs.py, which may hold a tree lent by a glance, and
    remembers what a JSON file's walk found (``check_tree_refs``): its ``$ref``s all
    local, a tuple ``items``; so does a YAML file's when the fast path read it;
    ``resolved``: ``path.resolve()``, the name the file is read by when given)."""
    data = read(resolved or path)
    if not isinstance(read, Inputs):
        return parse_bytes(data, path, repeats), data
    lent = read.take(resolved or path.resolve())
    if isinstance(lent, _Lent) and lent.data == data and repeats is not None \
            and (repeats.file, repeats.keep, repeats.defer) == (lent.file, lent.keep,
                                                                lent.defer):
        repeats.found += lent.found
        repeats.later += lent.later
        return lent.tree, data
    run = read

    def note(facts: TreeFacts) -> None:
        run.note_facts(data, facts)

    def walk(tree: Any, file: str) -> bool:
        facts = check_tree_refs(tree, file)
        note(facts)
        return facts.rounded

    return parse_bytes(data, path, repeats, walk, note), data


@dataclass(frozen=True)
class _Lent:
    data: bytes
    tree: Any
    file: str           # the repeats policy it was read with, and what it found
    keep: bool
    found: list[Problem]
    defer: bool = False
    later: list[tuple[bytes, bytes]] = field(default_factory=list)   # checks left for later


def glance_document(path: Path, repeats: Repeats, read: Read = read_bounded) -> Any:
    """``read_document`` for a caller that keeps nothing of the tree it reads (an ad hoc
    catalog is named from ``info.title`` before the pipeline bundles the same file).
    Read through a run's ``Inputs``, the tree is lent to the run's next ``read_document``
    of the same file, bytes and repeats policy, which takes it: one holder at a time,
    and Stripe's 4 MB of YAML is parsed once, not twice. Nothing outlives the run. The
    file is read by its real path, as the bundle and this machine's caches read it: a
    spec named through a symlink is read once, and what its parse learned (the bundle's
    question, ``check_tree_refs``) is found by the bundle. Errors name ``path``."""
    before, waiting = len(repeats.found), len(repeats.later)
    resolved = path.resolve()
    tree, data = read_document(path, repeats, read, resolved)
    if isinstance(read, Inputs):
        read.lend(resolved, _Lent(data, tree, repeats.file, repeats.keep,
                                  repeats.found[before:], repeats.defer,
                                  repeats.later[waiting:]))
    return tree
