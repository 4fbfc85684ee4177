"""serve's start-up warnings name, per unset credential variable, exactly the tools that will
call without any credential because of it (credentials.start_warnings: one pass over the
tools for every scheme)."""

from __future__ import annotations

from typing import Any

from toolcat.runtime.credentials import start_warnings

A = {"id": "a", "type": "apiKey", "in": "header", "name": "X-A"}
B = {"id": "b", "type": "apiKey", "in": "header", "name": "X-B"}
HIDDEN = {"id": "h", "type": "undeclared"}


def _catalog() -> dict[str, Any]:
    uses = {"only_a": [[A]], "only_b": [[B]], "a_or_b": [[A], [B]], "a_and_b": [[A, B]],
            "open": [], "hidden_or_a": [[HIDDEN], [A]]}
    return {"name": "shop", "tools": [
        {"tool": {"name": name, "inputSchema": {"type": "object"}},
         "binding": {"security": security, "arguments": {}}}
        for name, security in uses.items()]}


def _named(lines: list[str]) -> dict[str, str]:
    """variable -> the tool names its warning lists."""
    return {line.split()[1]: line.split("credential: ")[1] for line in lines}


def test_each_unset_variable_names_its_own_tools() -> None:
    found = _named(start_warnings(_catalog(), {}, {}))
    assert found == {"TOOLCAT_SHOP_A": "a_and_b, a_or_b, hidden_or_a, only_a",
                     "TOOLCAT_SHOP_B": "a_and_b, a_or_b, only_b"}


def test_a_tool_with_a_usable_alternative_is_not_named() -> None:
    found = _named(start_warnings(_catalog(), {}, {"TOOLCAT_SHOP_B": "x" * 40}))
    assert found == {"TOOLCAT_SHOP_A": "a_and_b, hidden_or_a, only_a"}
