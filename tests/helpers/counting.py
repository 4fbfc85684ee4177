"""Count the calls of a function, for tests that bound work instead of timing it."""

from __future__ import annotations

from typing import Any

import pytest


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[int]:
    """Replace ``owner.name`` with a wrapper that counts its calls in ``[0]``."""
    calls = [0]
    original = getattr(owner, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return calls
