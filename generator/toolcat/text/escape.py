"""Every way a value may enter rendered text, and the only ways.

The jinja2 environment (``templates.py``) finalizes every ``{{ ... }}`` with
``refuse_raw``: a string reaches the output only as ``Escaped``, which only the
filters here make, each for one context (a Python literal, a docstring, Markdown
inline code, a Markdown table cell). A template that forgets a filter fails to
render instead of pasting text into code or Markdown.

Markdown cannot hide characters from a reviewer: controls (NUL, ESC), bidi
overrides (U+202E) and other invisible formatting characters are written as
``\\u202e``, so a spoofed path shows what it is.
"""

from __future__ import annotations

import json
import keyword
import re
import unicodedata
from typing import Any

# Cc controls, Cf format (bidi overrides, zero-width), Zl/Zp separators, Co private
# use, Cs surrogates, Cn unassigned: none of them shows as itself.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Co", "Cs", "Cn"})


class Escaped(str):
    """Text made safe for the context one of this module's filters names."""

    __slots__ = ()


def refuse_raw(value: Any) -> Any:
    """jinja2 ``finalize``: numbers and escaped text pass, anything else is a bug."""
    if isinstance(value, Escaped) or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise TypeError(f"template value {value!r} has no escaping filter: pass it through "
                    "pyrepr, pyident, pydoc, code, cell, term, canonical_json or yaml")


def pyrepr(value: Any) -> Escaped:
    """A Python literal: ``repr`` of plain data only (repr of other objects is not code)."""
    if value is None or isinstance(value, str | int | float | bool):
        return Escaped(repr(value))
    raise TypeError(f"pyrepr: {type(value).__name__} is not a plain literal")


def pyident(value: str) -> Escaped:
    """A Python identifier (a class or method name toolcat derived), checked, not quoted."""
    if not value.isidentifier() or keyword.iskeyword(value):
        raise TypeError(f"pyident: {value!r} is not a Python identifier")
    return Escaped(value)


def pydoc(value: str) -> Escaped:
    """Text inside a ``\"\"\"`` docstring: one line, no quote that could close it."""
    text = value.encode("unicode_escape").decode("ascii")
    return Escaped(text.replace('"', '\\"'))


def visible(text: str) -> str:
    """``text`` with every character that does not show as itself written as ``\\uXXXX``."""
    if text.isascii() and text.isprintable():   # no ASCII character outside Cc is hidden
        return text
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in _HIDDEN_CATEGORIES
                   else c for c in text)


def code(text: str) -> Escaped:
    """Markdown inline code that survives backticks and shows hidden characters."""
    shown = visible(text)
    if "`" not in shown:   # the usual name or path: one backtick fences it
        return Escaped(f"`{shown}`")
    fence = "`" * (max((len(run) for run in re.findall("`+", shown)), default=0) + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return Escaped(f"{fence}{pad}{shown}{pad}{fence}")


def markdown_cell(text: str) -> Escaped:
    """One line safe in a Markdown table cell: GitHub reads ``\\|`` as ``|``, in code too."""
    return Escaped(visible(" ".join(text.replace("|", "\\|").split())))


def terminal(text: str) -> Escaped:
    """One line for a terminal: a name or message from a server cannot move the cursor,
    colour the screen or hide text (ESC and every other hidden character shown)."""
    return Escaped(visible(" ".join(str(text).split())))


def canonical_json(value: Any) -> Escaped:
    """Sorted, indented JSON, ASCII only: every non-ASCII or hidden character is escaped."""
    return Escaped(json.dumps(value, indent=2, sort_keys=True, ensure_ascii=True))


def yaml_string(value: str) -> Escaped:
    """A YAML double-quoted scalar (a JSON string is one: quotes, backslashes,
    controls and non-ASCII escaped), for the files ``toolcat init`` writes."""
    return Escaped(json.dumps(value))


FILTERS = {"pyrepr": pyrepr, "pyident": pyident, "pydoc": pydoc, "code": code,
           "cell": markdown_cell, "term": terminal, "canonical_json": canonical_json,
           "yaml": yaml_string}
