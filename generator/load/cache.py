"""A cache of bundled documents, so an unchanged spec is not parsed and bundled again.

Parsing is most of what ``check`` spends on a YAML spec (2.2 s of Stripe's 4 MB;
DigitalOcean is 2,850 YAML files), and the bundled document is a pure function of
the bytes of the files it was read from, their place on disk and the code that
reads them. An entry is keyed by the root file's path and bytes and by a digest
of toolcat's own code, PyYAML's and orjson's versions and the Python version; it
lists every file the bundle read with its sha256, and is used only when all of
them still hash the same. Anything else (a miss, a changed file, an unreadable
or corrupt entry, a document marshal cannot store) bundles from the files as if
there were no cache, so the cache can make a run faster but never different.

Entries are ``marshal`` data (plain values only: loading one never runs code),
written atomically, checked against a sha256 of their payload when read, and
pruned to the most recently used ``MAX_ENTRIES``. The folder is
``$TOOLCAT_CACHE_DIR``, else ``$XDG_CACHE_HOME/toolcat``, else ``~/.cache/toolcat``;
``TOOLCAT_CACHE=off`` turns the cache off.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import orjson
import yaml

from generator.load.bundle import Bundle

FORMAT = b"toolcat-bundle-cache 1\n"
MAX_ENTRIES = 32
PACKAGE = Path(__file__).resolve().parents[1]


def cache_dir() -> Path | None:
    if os.environ.get("TOOLCAT_CACHE", "").lower() in {"off", "0", "no", "false"}:
        return None
    if os.environ.get("TOOLCAT_CACHE_DIR"):
        return Path(os.environ["TOOLCAT_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "toolcat"


@cache
def code_digest() -> str:
    """Everything besides the files that decides what a bundle looks like."""
    digest = hashlib.sha256(FORMAT)
    digest.update(f"{sys.version}\0{yaml.__version__}\0{orjson.__version__}\0".encode())
    # All of toolcat's code, not just the loader: a few ms, and nothing to forget.
    for source in sorted(PACKAGE.rglob("*.py")):
        digest.update(source.relative_to(PACKAGE).as_posix().encode() + b"\0")
        digest.update(source.read_bytes() + b"\0")
    return digest.hexdigest()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def cached_bundle(path: Path, make: Callable[[Path], Bundle]) -> Bundle:
    """``make(path)``, or the same result from the cache when no input changed."""
    folder = cache_dir()
    root = path.resolve()
    try:
        data = root.read_bytes()
    except OSError:
        folder = None  # ``make`` reports the unreadable file
    if folder is None:
        return make(path)
    key = _sha256(f"{code_digest()}\0{root}\0{_sha256(data)}".encode())
    entry = folder / f"{key}.bundle"
    found = _read(entry, root, data)
    if found is not None:
        return found
    bundled = make(path)
    _write(folder, entry, bundled)
    return bundled


def _read(entry: Path, root: Path, root_data: bytes) -> Bundle | None:
    try:
        blob = entry.read_bytes()
        if not blob.startswith(FORMAT):
            return None
        digest, payload = blob[len(FORMAT):len(FORMAT) + 64], blob[len(FORMAT) + 64:]
        if digest.decode() != _sha256(payload):
            return None
        listed, document = marshal.loads(payload)
        files: dict[Path, bytes] = {}
        for name, sha in listed:
            file = Path(name)
            files[file] = root_data if file == root else file.read_bytes()
            if _sha256(files[file]) != sha:
                return None
        os.utime(entry)  # most recently used: survives pruning
    except (OSError, ValueError, EOFError, TypeError, UnicodeDecodeError):
        return None
    return Bundle(document, files)


def _write(folder: Path, entry: Path, bundled: Bundle) -> None:
    listed = [(str(file), _sha256(data)) for file, data in bundled.files.items()]
    try:
        payload = marshal.dumps((listed, bundled.document))
    except ValueError:  # a value marshal cannot hold: stay uncached
        return
    temp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=folder, prefix=".bundle.")
        with os.fdopen(handle, "wb") as out:
            out.write(FORMAT + _sha256(payload).encode() + payload)
        os.replace(temp, entry)
        temp = None
        _prune(folder)
    except OSError:
        pass  # a cache that cannot be written is no cache, not an error
    finally:
        if temp is not None:
            Path(temp).unlink(missing_ok=True)


def _prune(folder: Path) -> None:
    entries: list[tuple[float, Path]] = []
    for item in folder.glob("*.bundle"):
        try:
            entries.append((item.stat().st_mtime, item))
        except OSError:
            continue
    for _, item in sorted(entries, reverse=True)[MAX_ENTRIES:]:
        item.unlink(missing_ok=True)
