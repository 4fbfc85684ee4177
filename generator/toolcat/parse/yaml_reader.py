"""YAML read safely, with PyYAML's YAML 1.1 habits replaced by YAML 1.2's core schema
(the version OpenAPI recommends):

* mapping keys are kept as the text written (``200:`` stays ``"200"``, ``on:``
  stays ``"on"``);
* timestamps stay strings (``2024-01-01`` is not a ``date`` JSON cannot hold);
* only ``true``/``false`` are booleans (``name: on``, ``enum: [yes, no]`` are text);
* integers are decimal, ``0o`` octal or ``0x`` hex (``02134`` is 2134, not octal
  1116; ``1:20`` is text, not sexagesimal 80); ``1e5`` is a float.

Speed (Stripe's 4 MB spec): libyaml scans and composes in C, but calls the
resolver once per node, then a generic Python constructor walks the tree, and the
cyclic garbage collector rescans the growing tree all along. So the resolver
answers most scalars from their first character or a per-document memo,
``yaml_build`` builds the data (handing anything unusual back to the stock
constructor), and the collector waits until the read is done (``reader``). Before
all that, ``yaml_fast`` reads a plain document (no anchors, tags, tabs...) in Rust,
five times faster, when its answer is surely this one. ``reader`` imports this module
only for a YAML file (PyYAML's import is not a JSON run's to pay).
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import ScalarNode, SequenceNode

from ..errors import ToolcatError, fail
from .duplicates import Repeats
from .limits import TreeFacts
from .yaml_build import build
from .yaml_fast import fast_load
from .yaml_limits import check_nesting, check_nodes

Note = Callable[[TreeFacts], None]   # told what a read learnt of its tree
_Base: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class SpecLoader(_Base):  # type: ignore[misc]
    """Safe loader with string keys and string timestamps."""

    def __init__(self, stream: Any, repeats: Repeats | None = None) -> None:
        super().__init__(stream)
        self._tags: dict[str, str] = {}  # plain scalar -> its implicit tag
        self.repeats = repeats or Repeats("")

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        """``BaseResolver.resolve`` without path resolvers (this loader has none).

        A plain scalar whose first character no implicit resolver lists is a
        string; any other runs the stock regexes once per distinct text.
        """
        if kind is not ScalarNode:
            return _SEQ if kind is SequenceNode else _MAP
        if not implicit[0] or value[:1] not in _FIRSTS:
            return _STR
        tag = self._tags.get(value)
        if tag is None:
            tag = self._tags[value] = super().resolve(kind, value, implicit)
        return tag

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[str, Any]:
        check_repeats(self, node)
        self.flatten_mapping(node)
        out: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise yaml.constructor.ConstructorError(
                    None, None, "a mapping key must be a scalar", key_node.start_mark
                )
            out[str(key_node.value)] = self.construct_object(value_node, deep=deep)
        return out


_TAG = "tag:yaml.org,2002:"
_STR, _SEQ, _MAP = _TAG + "str", _TAG + "seq", _TAG + "map"
_CORE = (  # YAML 1.2 core schema: (tag, pattern, first characters)
    (_TAG + "bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    (_TAG + "int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    (_TAG + "float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                     r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$", "-+.0123456789"),
)
_REPLACED = {_TAG + t for t in ("bool", "int", "float", "timestamp", "value")}

SpecLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in _REPLACED]
    for first, resolvers in _Base.yaml_implicit_resolvers.items()
}
for _tag, _pattern, _firsts in _CORE:
    SpecLoader.add_implicit_resolver(_tag, re.compile(_pattern), list(_firsts))
# First characters some implicit resolver may match ("" for the empty scalar).
_FIRSTS = frozenset(first for first, found in SpecLoader.yaml_implicit_resolvers.items() if found)
if None in _FIRSTS or SpecLoader.yaml_path_resolvers:
    raise ImportError("PyYAML grew wildcard or path resolvers: SpecLoader.resolve needs them")


def _int(loader: Any, node: yaml.ScalarNode) -> int:
    """An integer; a decimal one longer than Python converts (``sys.int_info``'s
    4,300 digits) is refused at its line, as JSON's reader refuses it."""
    text = str(loader.construct_scalar(node))
    if text.startswith(("0o", "0x")):
        return int(text[2:], 8 if text[1] == "o" else 16)
    digits = len(text.lstrip("+-"))
    if digits > _MAX_DIGITS:
        raise yaml.constructor.ConstructorError(
            None, None, f"an integer of {digits:,} digits, beyond the {_MAX_DIGITS:,} "
            "toolcat reads", node.start_mark)
    return int(text, 10)


_MAX_DIGITS = sys.get_int_max_str_digits() or 4300


def _timestamp(loader: Any, node: yaml.ScalarNode) -> str:
    """``!!timestamp``: the text, as an implicit timestamp is (JSON has no dates)."""
    return str(loader.construct_scalar(node))


def _no_json(loader: Any, node: yaml.Node) -> Any:
    """A tag whose value JSON cannot hold (bytes, a set, ordered pairs): refused at its line."""
    raise yaml.constructor.ConstructorError(
        None, None, f"a YAML {node.tag.replace(_TAG, '!!')} value has no JSON equivalent",
        node.start_mark)


def _float(loader: Any, node: yaml.ScalarNode) -> float:
    """A finite float: ``.inf``, ``.nan`` and ``1e999`` have no JSON value (orjson would
    write null), so they are refused at their line rather than changed."""
    text = str(loader.construct_scalar(node))
    value = float(text) if text.lower().lstrip("+-") not in (".inf", ".nan") else math.inf
    if not math.isfinite(value):
        raise yaml.constructor.ConstructorError(
            None, None, f"the number {text} has no JSON value (infinite or not a number)",
            node.start_mark)
    return value


SpecLoader.add_constructor(_TAG + "int", _int)
SpecLoader.add_constructor(_TAG + "float", _float)
SpecLoader.add_constructor(_TAG + "timestamp", _timestamp)
for _kind in ("binary", "set", "omap", "pairs"):
    SpecLoader.add_constructor(_TAG + _kind, _no_json)
SpecLoader.add_constructor(
    _TAG + "map",
    lambda loader, node: loader.construct_mapping(node, deep=True),
)


def check_repeats(loader: Any, node: yaml.MappingNode) -> None:
    """Report a key the mapping itself writes twice (before merge keys are flattened:
    a key that overrides one merged in with ``<<`` is YAML's rule, not a duplicate)."""
    keys = [k for k, _ in node.value if k.tag != _MERGE]
    if len({k.value for k in keys if isinstance(k, ScalarNode)}) == len(keys):
        return
    seen: set[str] = set()
    for key in keys:
        if isinstance(key, ScalarNode):
            if key.value in seen:
                mark = key.start_mark
                loader.repeats.add(f"line {mark.line + 1} column {mark.column + 1}",
                                   str(key.value))
            seen.add(key.value)


_MERGE = _TAG + "merge"


# An anchor (``&name``) starts a token; an ``&`` inside text (``a=1&b=2``) does not:
# an ``&`` first in the text or after a space, ``[``, ``{`` or ``,``, and followed by
# a name character. The pattern starts with the literal ``&`` and looks behind it, so
# the regex engine skips from ``&`` to ``&`` (2 ms on Stripe's 4 MB where a leading
# ``(?:^|[...])`` tried every position: 120 ms).
ANCHOR = re.compile(rb"&(?<![^\s\[{,]&)[^\s\]},]")


def _load_yaml(data: bytes, file: str, repeats: Repeats, note: Note | None) -> Any:
    """``yaml.load(data, Loader=SpecLoader)``, with the data built by ``yaml_build``,
    within the limits of ``limits`` and ``yaml_limits``; a plain document is read by
    ``yaml_fast`` instead, to the same data, and ``note`` is told what its walk found
    (``limits.check_tree_refs``'s facts)."""
    fast = fast_load(data)
    if fast is not None:
        if note is not None:
            note(fast[1])
        return fast[0]
    check_nesting(data, file)
    loader = SpecLoader(data, repeats)
    try:
        root = loader.get_single_node()
    finally:
        loader.dispose()
    if root is None:
        return None
    checked = ANCHOR.search(data) is not None
    if checked:  # before building: merge keys copy what their aliases name
        check_nodes(root, file)
    kept = len(repeats.found)
    try:
        return build(loader, root, check_repeats)
    except ToolcatError:
        raise
    except Exception:  # anything unusual: the stock constructor decides, on a fresh
        if not checked:  # tree (flatten_mapping edits nodes), once it is known safe
            check_nodes(root, file)
        del repeats.found[kept:]   # the stock constructor reports them again
        stock = SpecLoader(data, repeats)
        try:
            return stock.get_single_data()
        finally:
            stock.dispose()

def load_yaml(data: bytes, path: Path, repeats: Repeats, note: Note | None = None) -> Any:
    """The YAML ``data`` of ``path``; a syntax error refused at its line. ``note``: see
    ``_load_yaml`` (not told: not known)."""
    try:
        return _load_yaml(data, str(path), repeats, note)
    except yaml.YAMLError as exc:
        where, problem = _yaml_error(exc, data)
        raise fail(str(path), where, f"invalid YAML: {problem}",
                   "fix the syntax at that line") from None


def _yaml_error(exc: yaml.YAMLError, data: bytes) -> tuple[str, str]:
    """(location, problem) of a YAML error. Never ``str(exc)``: it quotes the
    offending line, and the file may be a secret that a $ref named."""
    if isinstance(exc, yaml.reader.ReaderError):  # a byte no YAML text may hold
        line = data[:exc.position].count(b"\n") + 1 if isinstance(exc.position, int) else 1
        char = exc.character if isinstance(exc.character, int) else ord(exc.character[:1])
        return f"line {line}", f"unacceptable character #x{char:04x}: {exc.reason}"
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    where = f"line {mark.line + 1} column {mark.column + 1}" if mark else "line 1"
    return where, getattr(exc, "problem", None) or type(exc).__name__
