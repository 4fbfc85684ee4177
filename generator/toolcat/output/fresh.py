"""Is a catalog folder already what a run would write? The one answer ``check`` may
take without regenerating, and it comes only from this machine.

Nothing stored in the repository is evidence: not the folder's record, not
catalog.json's ``source`` (a committed file can claim anything). This machine's
outputs memo (outside the repository, generator/cache/store.py) is written only
after a whole run here, validation included, produced or confirmed the folder.
It records the digest (cache/digest.py) of every
file a run produced, keyed by the spec files, the target's settings, override
and overlay files, every file of toolcat's package and templates, and the names (so the
versions) of all installed distributions. A check whose key and spec files match
and whose folder holds exactly those bytes is up to date without regenerating.
A target's own templates folder joins the key with the digest of its files.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from ..cache.bundles import environment_digest, read_input, verified
from ..cache.digest import cache_hasher, cache_hex
from ..cache.store import cache_dir, load, store
from ..parse.inputs import Inputs, Read, SpecFiles
from ..text.template_files import folder_digest
from ..vocab.digests import sha256_hex
from .files import Files

if TYPE_CHECKING:
    from ..config import Target


def unchanged(target: Target, current: Files, read: Read | None = None) -> int | None:
    """The tool count, when this machine's memo vouches for ``current``, the folder's
    files (every input read through ``read``, the run's ``Inputs.read``)."""
    return fresh_outputs(target, current, read)


def _outputs_key(target: Target, read: Read) -> str:
    """The memo's key; OSError when an input cannot be read."""
    root = target.spec.resolve()
    overrides = read_input(target.overrides, read) if target.overrides is not None else b""
    digest = cache_hasher(read)
    # repr names every field of the target, a frozen dataclass of plain values.
    parts = [environment_digest(), repr(target), str(root),
             str(target.output.resolve()), digest(read_input(root, read)),
             digest(overrides), folder_digest(target.templates, read) or "",
             *(digest(read_input(overlay, read)) for overlay in target.overlays)]
    return sha256_hex("\0".join(parts).encode())


def fresh_outputs(target: Target, current_files: Files, read: Read | None = None) -> int | None:
    """The tool count, when ``current_files`` (the folder) are what a run would produce."""
    folder = cache_dir()
    if folder is None:
        return None
    read = read or Inputs()
    try:
        found = load(folder / f"{_outputs_key(target, read)}.outputs")
        if found is None:
            return None
        entries, outputs, tools = found
        if verified(entries, read) is None:
            return None
        current = {rel: cache_hex(blob) for rel, blob in current_files.items()}
    except (OSError, ValueError, TypeError):
        return None
    return int(tools) if current == outputs else None


def remember_outputs(target: Target, spec_files: Mapping[Path, bytes], files: Files,
                     tools: int, read: Read | None = None) -> None:
    """Record ``files`` as what ``target`` produces from ``spec_files`` (after
    generate, or an up-to-date check)."""
    folder = cache_dir()
    if folder is None:
        return
    read = read or Inputs()
    try:
        key = _outputs_key(target, read)
    except OSError:
        return
    outputs = {rel: cache_hex(blob) for rel, blob in files.items()}
    listed = SpecFiles(spec_files).listed(cache_hasher(read))
    store(folder, folder / f"{key}.outputs", (listed, outputs, tools))
