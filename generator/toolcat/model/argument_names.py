"""Argument names that stay distinct, readable and independent of spec order.

A wire name becomes an argument name by keeping ``[A-Za-z0-9_.-]`` and turning
every other run into ``_`` (``StartTime<`` -> ``StartTime``). When several
arguments of one tool want the same name, each walks down its own ladder:

1. the sanitised name (``StartTime``);
2. the name with the removed characters spelled out (``StartTime_lt``);
3. the location before it (``query_StartTime``);
4. the sanitised name and six hex of the sha256 of ``location:wire``.

At every step the candidate with the best claim keeps a contested name (a lower
rung, then the earlier location of ``path, query, header, cookie, body``, then a
wire name written without removed characters, then the wire name itself) and the
others step down; a sanitised name contested only by altered wire names (``a!``,
``a*``) is kept by none of them. The claim depends only on the candidate, so the names are a
function of the *set* of parameters: reordering the spec never renames anything,
and no ``_2`` counter appears.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from .naming import argument_name, shorten
from .types import LOCATIONS

MAX_ARGUMENT = 64
_KEPT = re.compile(r"[A-Za-z0-9_.-]+")
# Words for the characters filter conventions use (`created>`, `tags[]`, `q!`).
_WORDS = {"[]": "list", "<": "lt", ">": "gt", "=": "eq", "!": "not", "~": "tilde",
          "*": "star", "+": "plus", "@": "at", "$": "dollar", "#": "hash", "%": "pct",
          "&": "and", "|": "or", "^": "caret", ":": "colon", "/": "slash", "?": "q",
          ",": "comma", ";": "semi", "(": "lp", ")": "rp", "[": "lb", "]": "rb",
          "{": "lc", "}": "rc", "'": "quote", '"': "dquote", "`": "tick", "\\": "bslash",
          " ": ""}


@dataclass(frozen=True)
class Wanted:
    """One argument asking for a name: its first choice, location and wire name."""

    base: str               # the name it would get alone (body -> "body", If-Match -> ifMatch)
    location: str
    wire: str | None        # None: the whole request body


def spelled(wire: str) -> str:
    """``StartTime<`` -> ``StartTime_lt``; unnamed characters as ``u`` + hex code."""
    words: list[str] = []
    position = 0
    for kept in _KEPT.finditer(wire):
        words += _spell(wire[position:kept.start()])
        words.append(kept.group())
        position = kept.end()
    words += _spell(wire[position:])
    return argument_name("_".join(w for w in words if w))


def _spell(removed: str) -> list[str]:
    words = []
    i = 0
    while i < len(removed):
        if removed.startswith("[]", i):
            words.append(_WORDS["[]"])
            i += 2
            continue
        char = removed[i]
        words.append(_WORDS[char] if char in _WORDS else f"u{ord(char):04x}")
        i += 1
    return words


def _ladder(want: Wanted) -> list[str]:
    rungs = [want.base]
    if want.wire is not None:
        rungs.append(spelled(want.wire))
    rungs.append(shorten(f"{want.location}_{want.base}", MAX_ARGUMENT))
    key = f"{want.location}:{want.wire}".encode()
    digest = hashlib.sha256(key).hexdigest()[:6]
    rungs.append(shorten(f"{want.base}_{digest}", MAX_ARGUMENT))
    return list(dict.fromkeys(rungs))


def _claim(want: Wanted, rung: int) -> tuple[int, int, bool, str]:
    lossy = want.wire is not None and want.wire != want.base
    return rung, LOCATIONS.index(want.location), lossy, want.wire or ""


def assign(wanted: list[Wanted]) -> list[str] | tuple[int, int]:
    """One distinct name per entry of ``wanted`` (same order), or the indexes of two
    entries no rung separates (only identical location and wire name)."""
    # Each ladder is built when its entry first steps down: most names are uncontested
    # and stay on rung 0, their ``base`` (GitHub: 9,236 arguments, 4 digests each).
    ladders: dict[int, list[str]] = {}
    rung = [0] * len(wanted)
    while True:
        names = [ladders[i][rung[i]] if rung[i] else want.base
                 for i, want in enumerate(wanted)]
        holders: dict[str, list[int]] = {}
        for i, name in enumerate(names):
            holders.setdefault(name, []).append(i)
        contested = [group for group in holders.values() if len(group) > 1]
        if not contested:
            return names
        for group in contested:
            winner = min(group, key=lambda i: _claim(wanted[i], rung[i]))
            if rung[winner] == 0 and _claim(wanted[winner], 0)[2]:
                winner = -1     # a sanitised name belongs to no altered wire name
            for i in group:
                if i == winner:
                    continue
                if i not in ladders:
                    ladders[i] = _ladder(wanted[i])
                if rung[i] + 1 >= len(ladders[i]):
                    return winner, i
                rung[i] += 1
