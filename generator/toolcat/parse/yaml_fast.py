"""A fast first reading of a plain YAML document, or ``None``: the stock path decides.

PyYAML over libyaml spends about 0.6 s CPU on Stripe's 4 MB spec (scanning, a node
per value, the resolver, then building). ``yaml_rs`` (Rust, YAML 1.2) builds the
same data in about 0.1 s. Its answer is taken only where it is known to be the
one ``reader`` gives; everything else goes to the stock path, which then decides
the tree and every error, location and refusal word for word:

* before reading, the bytes are screened for what the two parsers treat
  differently or what toolcat checks itself: anchors, aliases and tags (alias
  budgets, ``!!binary``...), directives and a second document, tabs, control
  characters, the byte order mark, and the line breaks YAML 1.1 knows and 1.2
  does not (NEL, LS, PS), text not ending with a line break (block scalars at
  the end of the file are chomped differently), merge keys, numbers written
  with ``0b``/``0O``/``0X``, a signed prefix or an ``_`` (YAML 1.2 reads
  ``1_000`` and ``0b101`` as numbers, toolcat's core schema as text);
* after reading, the tree is walked: a key that is not text (YAML 1.2 reads
  ``200:`` as a number; toolcat keeps the text written, which the number may
  not give back), a merge key, a non-finite number, an integer near Python's
  digit limit, or nesting deeper than ``yaml_build`` builds, hands the document
  back (both parsers refuse an implicit key past 1,024 characters alike);
* any error of ``yaml_rs`` (syntax, a duplicate key) hands it back, so the stock
  path reports it with its line.

``yaml_rs`` recurses once per level of nesting: it runs on a thread whose stack
holds ``yaml_limits.SAFE_BOUND`` levels eight times over, and only on documents
that bound is known to hold.
"""

from __future__ import annotations

import math
import re
import threading
from typing import Any

from ..vocab.keywords import LITERAL_VALUES
from .exact_json import ROUNDED
from .limits import SPLICING, TreeFacts
from .yaml_limits import SAFE_BOUND, nesting_bound

# Each pattern starts with a literal, so the regex engine skips quickly through
# 4 MB (a leading class or alternation costs 30 ms each). A hit only means "the
# stock path decides".
_SCREENS = tuple(re.compile(p) for p in (
    rb"!(?<![^\s\[{,:]!)",            # a tag may start here
    rb"&(?<![^\s\[{,:]&)[^\s]",       # an anchor (no anchor: both refuse any alias)
    rb"\n(?:%|---|\.\.\.)",           # a directive or a second document
    rb"0[bBOX]",                       # numbers YAML 1.2 reads and toolcat does not:
    rb"0[xXoObB](?<=[-+]0[xXoObB])",   # 0b101, 0X1F, -0x1F
    rb"<<",                            # a merge key
    rb"\xc2[\x80-\x9f]",               # C1 controls, NEL among them
    rb"\xe2\x80[\xa8\xa9]",            # LS, PS
    rb"\xef(?:\xbb\xbf|\xbf[\xbe\xbf])", # BOM, U+FFFE, U+FFFF
))
# Tabs, CR and the other ASCII controls: ``translate`` deletes every other byte.
_ALLOWED = bytes(b for b in range(256) if b == 0x0A or 0x20 <= b != 0x7F)

# An ``_`` that may stand in a number: a token made of digits, hex letters, the
# prefix letters, ``.``, signs and ``_`` only (``1_000``, ``_1``, ``0x_1F``). The
# pattern finds an ``_`` whose token ends so; its start is then looked at.
_UNDERSCORE = re.compile(rb"_[-+._0-9a-fA-FxXoObB]*(?![^\s\[\]{},:])")
_SEPARATORS = frozenset(b" \n\r\t\x0b\x0c[]{},:")
_NUMBERISH = frozenset(b"-+._0123456789abcdefABCDEFxXoObB")
# A text starting so is a block scalar's or quoted, or yaml_rs read a flow plain
# scalar libyaml refuses (``[|]``, ``{a: >}``, ``[?]``): the stock path decides.
_INDICATORS = frozenset("|>?:")
_MAX_DEPTH = 100    # yaml_build's _DEEPEST: deeper documents are the stock path's
_MAX_BITS = 13_000  # about 3,900 digits: near sys.int_info's limit the stock path decides
# Bytes of thread stack: yaml_rs read 7,900 levels (mappings, and sequences in them)
# on an 8 MiB stack; 8,000 levels is all nesting_bound lets through.
_STACK = 64 * 1024 * 1024


def _screened(data: bytes) -> bool:
    """Whether ``data`` holds nothing the fast path leaves to the stock path."""
    if not data.endswith(b"\n") or data.startswith((b"%", b"...")):
        return False
    last = data.rstrip()
    if b"|" in last[last.rfind(b"\n") + 1:] or b">" in last[last.rfind(b"\n") + 1:]:
        return False  # maybe an empty block scalar at the end: chomped differently
    if data.translate(None, _ALLOWED) or any(screen.search(data) for screen in _SCREENS):
        return False
    for hit in _UNDERSCORE.finditer(data):
        start = hit.start()
        while start > 0 and data[start - 1] in _NUMBERISH:
            start -= 1
        if start == 0 or data[start - 1] in _SEPARATORS:
            return False
    return nesting_bound(data) <= SAFE_BOUND


# The kind of a container in the walk (``limits.check_tree_refs``'s three): its keys may
# be keywords, its keys are names (a map of schemas), or it is a literal value.
_KEYWORDS, _NAMES, _LITERAL = 0, 1, 2
# The kind of a member of a keywords container, by its key (``x-*``: a literal too).
_BELOW = dict.fromkeys(SPLICING, _NAMES) | dict.fromkeys(LITERAL_VALUES, _LITERAL)


class _Facts:
    """What the walk found (``limits.TreeFacts``'s members, as ``check_tree_refs`` finds
    them)."""

    __slots__ = ("local", "read_only", "rounded", "tuples", "write_only")

    def __init__(self) -> None:
        self.local, self.rounded, self.tuples = True, False, False
        self.read_only = self.write_only = False


def _plain(value: Any, depth: int, kind: int, facts: _Facts) -> bool:
    """Whether the container ``value`` of the tree ``yaml_rs`` built holds only what the
    stock path would build (one call per container: scalars are looked at in their
    container's loop); on the way, ``facts`` learns what ``limits.check_tree_refs`` would
    of the tree, by its rules: each container is reached once, as the same ``kind``
    (``yaml_rs`` builds exactly ``str``, ``dict`` and ``list``: ``type`` is ``isinstance``)."""
    if depth > _MAX_DEPTH:
        return False
    if type(value) is list:
        below = _LITERAL if kind == _LITERAL else _KEYWORDS
        for item in value:
            type_ = type(item)
            if type_ is str:
                if item[:1] in _INDICATORS:
                    return False
            elif type_ is dict or type_ is list:
                if not _plain(item, depth + 1, below, facts):
                    return False
            else:
                if type_ is float and abs(item) >= ROUNDED:
                    facts.rounded = True   # as check_tree_refs notes it
                if not _scalar(item):
                    return False
        return True
    if facts.local:
        ref = value.get("$ref")
        if type(ref) is str and ref != "#" and not ref.startswith("#/"):
            facts.local = False
    if kind == _KEYWORDS and not facts.tuples and type(value.get("items")) is list:
        facts.tuples = True
    if not facts.read_only and "readOnly" in value:   # any kind of object, as there
        facts.read_only = True
    if not facts.write_only and "writeOnly" in value:
        facts.write_only = True
    for key, item in value.items():
        if type(key) is not str or key[:1] in _INDICATORS or key == "<<":
            return False
        type_ = type(item)
        if type_ is str:
            if item[:1] in _INDICATORS:
                return False
            continue
        if type_ is dict:
            if facts.local and key in SPLICING and type(item.get("$ref")) is str:
                facts.local = False
        elif type_ is not list:
            if type_ is float and abs(item) >= ROUNDED:
                facts.rounded = True
            if not _scalar(item):
                return False
            continue
        if kind != _KEYWORDS:
            below = _KEYWORDS if kind == _NAMES else _LITERAL
        elif key[:2] == "x-":
            below = _LITERAL
        else:
            below = _BELOW.get(key, _KEYWORDS)
        if not _plain(item, depth + 1, below, facts):
            return False
    return True


def _scalar(value: Any) -> bool:
    kind = type(value)
    if kind is str:
        return value[:1] not in _INDICATORS
    if kind is bool or value is None:
        return True
    if kind is int:
        return bool(value.bit_length() < _MAX_BITS)
    if kind is float:
        return math.isfinite(value)
    return False


def fast_load(data: bytes) -> tuple[dict[str, Any], TreeFacts] | None:
    """The mapping ``data`` holds, as the stock path reads it, and what
    ``limits.check_tree_refs`` would find of it (learnt in the walk that checks it), or
    ``None`` when only the stock path may decide (see the module docstring)."""
    if not _screened(data):
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    tree = _on_big_stack(text)
    facts = _Facts()
    if type(tree) is not dict or not _plain(tree, 0, _KEYWORDS, facts):
        return None
    return tree, TreeFacts(facts.local, facts.rounded, facts.tuples, facts.read_only,
                           facts.write_only)


def _on_big_stack(text: str) -> Any:
    """``yaml_rs.loads`` on a thread with a known, large stack; ``None`` on any error.
    Imported here: a JSON spec never needs it (about 10 ms)."""
    import yaml_rs  # noqa: PLC0415

    result: list[Any] = [None]

    def read() -> None:
        try:
            result[0] = yaml_rs.loads(text, parse_datetime=False)
        except BaseException:  # a Rust panic (pyo3) is no Exception
            result[0] = None

    thread = threading.Thread(target=read, name="toolcat-yaml", daemon=True)
    try:
        before = threading.stack_size(_STACK)  # read when the thread starts
    except (ValueError, RuntimeError):  # no settable stack here: the stock path reads
        return None
    try:
        thread.start()
    except RuntimeError:  # no memory for the stack: the stock path reads
        return None
    finally:
        threading.stack_size(before)
    thread.join()
    return result[0]
