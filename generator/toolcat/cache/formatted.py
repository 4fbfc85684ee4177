"""This machine's memo of black's output: a pure function of its input text, its
version and its mode (render/python_module.black_key names all three).

black is the slowest step of a run on a big catalog (2 s for the GitHub spec's
1,223 names). The module on disk must not stand in for it: its bytes are what
``check`` compares, so reusing them would let an edited module vouch for itself.
An entry is keyed by the rendered digest and checked like every cache entry
(generator/cache/store.py); a miss, or the cache off, runs black.
"""

from __future__ import annotations

from collections.abc import Callable

from .store import cache_dir, load, store


def cached_formatter(black: Callable[[str], str], key: Callable[[str], str]
                     ) -> Callable[[str], str]:
    """``black``, remembered on disk under ``key(text)``."""
    def formatted(text: str) -> str:
        folder = cache_dir()
        if folder is None:
            return black(text)
        entry = folder / f"{key(text)}.black"
        found = load(entry)
        if isinstance(found, str):
            return found
        result = black(text)
        store(folder, entry, result)
        return result

    return formatted
