"""The record a catalog folder keeps of what it was generated from.

``generate`` writes ``.toolcat-inputs.json`` beside the catalog: the sha256 of
every spec file read (paths relative to the spec's folder), of the override
file and overlay files, the target's settings, the exact versions of toolcat and of the packages it
pins exactly, those whose version changes its output (generator/identity.py), and
the sha256 of every file it wrote.

It is a file of the folder like the others: ``check`` renders it too and compares
it byte for byte, so a forged, deleted or unreadable record is stale. Every field
is a function of the inputs and the installed versions, never of toolcat's files
(a change to toolcat that leaves the catalog's bytes alone leaves the record
alone). It is never evidence: no verdict reads a claim from it (``check``
regenerates). Format 1 held a digest of toolcat's own files instead of versions.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..identity import pinned_versions
from ..jsonio import dumps
from ..parse.inputs import Read, SpecFiles, hasher
from ..parse.limits import read_bounded
from ..text.template_files import folder_digest
from ..vocab.digests import sha256_tagged as _sha256
from .files import Files

if TYPE_CHECKING:
    from ..config import Target

FORMAT = 2


def make_record(target: Target, spec_files: SpecFiles, files: Files, tools: int,
                read: Read = read_bounded) -> bytes:
    """The record of a folder ``target`` renders as ``files`` from ``spec_files`` (the
    override and overlay files read through ``read``, the run's ``Inputs.read``)."""
    return dumps({
        "format": FORMAT,
        "versions": list(pinned_versions()),
        "settings": _settings(target, read),
        "spec": dict(sorted(spec_files.relative(target.spec, hasher(read)).items())),
        "overrides": _overrides(target, read),
        **_overlays(target, read),
        "outputs": {rel: _sha256(data) for rel, data in sorted(files.items())},
        "tools": tools,
    })


def _settings(target: Target, read: Read) -> dict[str, Any]:
    """What of the target shapes the output, besides the files it names."""
    settings: dict[str, Any] = {
        "name": target.name, "spec": target.spec_label, "prefix": target.prefix,
        "nameBudget": target.name_budget, "openWorld": target.open_world,
        "models": target.models, "templates": folder_digest(target.templates, read)}
    if target.regenerate:       # named in the module, so part of what shapes it
        settings["regenerate"] = target.regenerate
    if target.regenerate_from:
        settings["regenerateFrom"] = target.regenerate_from
    if target.validation != "strict":   # only when set, like the two below
        settings["validation"] = target.validation
    if target.ref_root is not None:     # relative to the spec's folder: no absolute path
        settings["refRoot"] = _relative(target.ref_root, target.spec.resolve().parent)
    if target.undeclared_credentials:   # where each goes, never a value
        settings["undeclaredCredentials"] = [
            {"scheme": c.scheme, "in": c.location, "name": c.name, "env": c.env,
             "include": c.include.describe() if c.include else None}
            for c in target.undeclared_credentials]
    if target.output_schemas != "exact":
        settings["outputSchemas"] = target.output_schemas
    selection = target.selection
    if selection is not None:   # only when set, so records without one keep their bytes
        settings["selection"] = {
            side: selector.describe() if selector is not None else None
            for side, selector in (("include", selection.include),
                                   ("exclude", selection.exclude))}
    return settings


def _overrides(target: Target, read: Read) -> str | None:
    if target.overrides is None:
        return None
    return _sha256(read(target.overrides))


def _overlays(target: Target, read: Read) -> dict[str, Any]:
    """The overlay files in the order applied, each with its sha256 (only when there
    are any, so records without keep their bytes)."""
    if not target.overlays:
        return {}
    root = target.spec.resolve().parent
    return {"overlays": [[_relative(path.resolve(), root), _sha256(read(path))]
                         for path in target.overlays]}


def _relative(path: Path, root: Path) -> str:
    return Path(os.path.relpath(path, root)).as_posix()
