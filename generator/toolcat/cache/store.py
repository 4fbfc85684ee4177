"""Where cache entries live and how they are written and read back.

Entries are ``marshal`` data (plain values only: loading one never runs code),
written atomically, checked against a digest (cache/digest.py) of their payload when read, and
pruned to the ``MAX_ENTRIES`` most recently used of each kind. The folder is
``$TOOLCAT_CACHE_DIR``, else ``$XDG_CACHE_HOME/toolcat``, else ``~/.cache/toolcat``;
``TOOLCAT_CACHE=off`` turns every cache off. A cache that cannot be read or
written is no cache, never an error.
"""

from __future__ import annotations

import marshal
import os
from pathlib import Path
from typing import Any

from .digest import cache_hex

FORMAT = b"toolcat-cache 2\n"   # 2: BLAKE3 digests (cache/digest.py)
MAX_ENTRIES = 32


def cache_dir() -> Path | None:
    if os.environ.get("TOOLCAT_CACHE", "").lower() in {"off", "0", "no", "false"}:
        return None
    if os.environ.get("TOOLCAT_CACHE_DIR"):
        return Path(os.environ["TOOLCAT_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "toolcat"


def load(entry: Path) -> Any:
    """The value stored in ``entry``, or None if absent, foreign or damaged."""
    try:
        blob = entry.read_bytes()
        if not blob.startswith(FORMAT):
            return None
        digest, payload = blob[len(FORMAT):len(FORMAT) + 64], blob[len(FORMAT) + 64:]
        if digest.decode() != cache_hex(payload):
            return None
        value = marshal.loads(payload)
        os.utime(entry)  # most recently used: survives pruning
    except (OSError, ValueError, EOFError, TypeError, UnicodeDecodeError):
        return None
    return value


def store(folder: Path, entry: Path, value: Any) -> None:
    try:
        payload = marshal.dumps(value)
    except ValueError:  # a value marshal cannot hold: stay uncached
        return
    import tempfile  # noqa: PLC0415 - storing only: a cached check loads

    temp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=folder, prefix=".entry.")
        with os.fdopen(handle, "wb") as out:
            out.write(FORMAT + cache_hex(payload).encode() + payload)
        os.replace(temp, entry)
        temp = None
        _prune(folder, entry.suffix)
    except OSError:
        pass  # a cache that cannot be written is no cache, not an error
    finally:
        if temp is not None:
            Path(temp).unlink(missing_ok=True)


def _prune(folder: Path, suffix: str) -> None:
    entries: list[tuple[float, Path]] = []
    for item in folder.glob(f"*{suffix}"):
        try:
            entries.append((item.stat().st_mtime, item))
        except OSError:
            continue
    for _, item in sorted(entries, reverse=True)[MAX_ENTRIES:]:
        item.unlink(missing_ok=True)
