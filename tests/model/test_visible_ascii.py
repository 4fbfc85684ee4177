"""``visible`` passes printable ASCII through untouched (its fast path) and writes every
other character exactly as the per-character rule does."""

from __future__ import annotations

import unicodedata

from toolcat.text.escape import _HIDDEN_CATEGORIES, visible


def by_rule(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" if unicodedata.category(c) in _HIDDEN_CATEGORIES
                   else c for c in text)


def test_every_ascii_character_as_the_rule_writes_it() -> None:
    for code in range(128):
        text = f"ab{chr(code)}cd"
        assert visible(text) == by_rule(text), f"U+{code:04x}"


def test_hidden_characters_still_shown() -> None:
    assert visible("tab\there") == "tab\\u0009here"
    assert visible("del\x7f") == "del\\u007f"
    assert visible("rtl\u202eoverride") == "rtl\\u202eoverride"
