"""Caches of pure functions of the inputs: a bundled document, and a whole run's output.

Both make a run faster and never different: an entry is used only when every
input it was made from is byte-for-byte the same, and anything else (a miss, a
changed file, an unreadable or damaged entry, a value marshal cannot store)
takes the ordinary path as if there were no cache.

Bundles: parsing is most of what ``check`` spends on a YAML spec (2.2 s of
Stripe's 4 MB; DigitalOcean is 1,509 YAML files). An entry is keyed by the root
file's path and bytes and a digest of toolcat's code, PyYAML's and orjson's
versions and the Python version; it lists every file the bundle read with its
sha256, and is used only when all of them still hash the same.

Outputs: for the everyday ``check`` (nothing changed since the last generate or
check on this machine; a folder's committed record, generator/output/record.py,
does the same on any machine when it is present and matches), an entry records
the sha256 of every file the run produced, keyed by the spec files (as above),
the target's settings and override file, every file of toolcat's package and
templates, and the names (so the versions) of all installed distributions. A
check whose key and spec files match and whose folder holds exactly those bytes is
up to date without regenerating.
(A templates folder chosen per target would have to join the key.)

Entries are ``marshal`` data (plain values only: loading one never runs code),
written atomically, checked against a sha256 of their payload when read, and
pruned to the ``MAX_ENTRIES`` most recently used of each kind. The folder is
``$TOOLCAT_CACHE_DIR``, else ``$XDG_CACHE_HOME/toolcat``, else ``~/.cache/toolcat``;
``TOOLCAT_CACHE=off`` turns both off.
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
from typing import TYPE_CHECKING, Any

import orjson
import yaml

from generator.identity import files_digest
from generator.load.bundle import Bundle
from generator.output.files import Files

if TYPE_CHECKING:
    from generator.config import Target

FORMAT = b"toolcat-cache 1\n"
MAX_ENTRIES = 32
# The files each bundle of this process was made from (root -> [(path, sha256)]),
# for remember_outputs; filled on a hit and on a miss.
_last_files: dict[Path, list[tuple[str, str]]] = {}


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
    # All of toolcat's files, not just the loader: a few ms, and nothing to forget.
    digest.update(files_digest().encode())
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
    _write(folder, entry, root, bundled)
    return bundled


# -- outputs: the whole run ---------------------------------------------------------
# What generate wrote or check confirmed, keyed by everything the files depend on:
# the spec files, the target's settings and override file, toolcat's code, schemas
# and templates, every installed distribution's version and the Python version.
# A later check whose key and spec files match, and whose folder on disk holds
# exactly the recorded bytes, has nothing to regenerate.


@cache
def environment_digest() -> str:
    digest = hashlib.sha256(code_digest().encode())
    for entry in sorted({p for p in sys.path if p}):
        try:
            names = sorted(n for n in os.listdir(entry) if n.endswith((".dist-info",
                                                                        ".egg-info")))
        except OSError:
            continue
        digest.update(f"{entry}\0{'/'.join(names)}\0".encode())
    return digest.hexdigest()


def _outputs_key(target: Target) -> tuple[Path, bytes, str]:
    """(spec root, its bytes, key); OSError when an input cannot be read."""
    root = target.spec.resolve()
    data = root.read_bytes()
    overrides = target.overrides.read_bytes() if target.overrides is not None else b""
    parts = [environment_digest(), target.model_dump_json(), str(root),
             str(target.output.resolve()), _sha256(data), _sha256(overrides)]
    return root, data, _sha256("\0".join(parts).encode())


def fresh_outputs(target: Target, current_files: Files) -> int | None:
    """The tool count, when ``current_files`` (the folder) are what a run would produce."""
    folder = cache_dir()
    if folder is None:
        return None
    try:
        root, data, key = _outputs_key(target)
        found = _load(folder / f"{key}.outputs")
        if found is None:
            return None
        listed, outputs, tools = found
        if _verified(listed, root, data) is None:
            return None
        current = {rel: _sha256(blob) for rel, blob in current_files.items()}
    except (OSError, ValueError, TypeError):
        return None
    return int(tools) if current == outputs else None


def remember_outputs(target: Target, files: Files, tools: int) -> None:
    """Record ``files`` as what ``target`` produces (after generate, or an up-to-date check)."""
    folder = cache_dir()
    listed = _last_files.get(target.spec.resolve())
    if folder is None or listed is None:
        return
    try:
        _, _, key = _outputs_key(target)
    except OSError:
        return
    outputs = {rel: _sha256(blob) for rel, blob in files.items()}
    _store(folder, folder / f"{key}.outputs", (listed, outputs, tools))


# -- helpers ------------------------------------------------------------------------


def _read(entry: Path, root: Path, root_data: bytes) -> Bundle | None:
    found = _load(entry)
    if found is None:
        return None
    listed, document = found
    files = _verified(listed, root, root_data)
    if files is None:
        return None
    _last_files[root] = listed
    return Bundle(document, files)


def _verified(listed: list[tuple[str, str]], root: Path,
              root_data: bytes) -> dict[Path, bytes] | None:
    """The listed files' bytes, if every one still hashes as listed."""
    files: dict[Path, bytes] = {}
    try:
        for name, sha in listed:
            file = Path(name)
            files[file] = root_data if file == root else file.read_bytes()
            if _sha256(files[file]) != sha:
                return None
    except (OSError, ValueError, TypeError):
        return None
    return files


def _load(entry: Path) -> Any:
    """The value stored in ``entry``, or None if absent, foreign or damaged."""
    try:
        blob = entry.read_bytes()
        if not blob.startswith(FORMAT):
            return None
        digest, payload = blob[len(FORMAT):len(FORMAT) + 64], blob[len(FORMAT) + 64:]
        if digest.decode() != _sha256(payload):
            return None
        value = marshal.loads(payload)
        os.utime(entry)  # most recently used: survives pruning
    except (OSError, ValueError, EOFError, TypeError, UnicodeDecodeError):
        return None
    return value


def _write(folder: Path, entry: Path, root: Path, bundled: Bundle) -> None:
    listed = [(str(file), _sha256(data)) for file, data in bundled.files.items()]
    _last_files[root] = listed
    _store(folder, entry, (listed, bundled.document))


def _store(folder: Path, entry: Path, value: Any) -> None:
    try:
        payload = marshal.dumps(value)
    except ValueError:  # a value marshal cannot hold: stay uncached
        return
    temp = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temp = tempfile.mkstemp(dir=folder, prefix=".entry.")
        with os.fdopen(handle, "wb") as out:
            out.write(FORMAT + _sha256(payload).encode() + payload)
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
