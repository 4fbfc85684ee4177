"""The whole pipeline for one catalog: load -> normalise -> model -> overrides -> render.

Every run validates: ``check`` trusts no verdict stored in the repository
(generator/output/fresh.py holds the only shortcut, this machine's own memo). What
the validator finds refuses the spec (``validation: strict``) or is handed back as
warnings (``warn``, see ``load/validation/findings.py``).
"""

from __future__ import annotations

import hashlib
import os
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from .cache.bundles import cached_bundle
from .cache.formatted import cached_formatter
from .config import Target
from .errors import Problem, ToolcatError, fail
from .load.bundle import Bundle, bundle
from .load.overlay import Applied, apply_overlays
from .load.repairs import repair
from .load.validation.findings import Findings, refusal
from .load.validation.validate import validate_in_background, validator_id, verdict
from .model.build import check_names, draft_tools
from .model.lenient import lenient_tools
from .model.schema_check import check_schemas
from .model.selection import toolset_members
from .model.shallow import publish_outputs
from .model.size_limit import Budget
from .model.types import Catalog, Source
from .model.undeclared import add_undeclared
from .normalise.defs import Definitions
from .output.files import Files
from .overrides.apply import apply_overrides
from .parse.inputs import Inputs, Read, SpecFiles, hasher
from .parse.limits import read_bounded
from .render.catalog import prepare_tools, render_catalog
from .render.catalog_check import check_catalog, check_source
from .run import Run, hold_until_exit
from .text.python_format import black_format, black_key
from .vocab.digests import tagged
from .vocab.files import CATALOG_FILE, MODELS_FILE, MODULE_FILE, SUMMARY_FILE


@dataclass(frozen=True)
class LoadedSpec:
    document: dict[str, Any]
    digest: Callable[[], str]           # spec_digest's answer (worked out meanwhile)
    openapi: str
    is_30: bool
    validated: Callable[[], Findings]   # waits for validation; what it found
    files: SpecFiles                # every file the document was read from
    # What the overlays wrote (an error there is located in the overlay action).
    overlaid: Applied = field(default_factory=Applied)
    swagger: dict[str, Any] | None = None   # the Swagger 2.0 document it was converted from
    # Which of readOnly/writeOnly the document may hold, as read (None: not known).
    access: frozenset[str] | None = None

    @property
    def sha256(self) -> str:
        return self.digest()


def spec_digest(files: Mapping[Path, bytes], root: Path, overlays: tuple[Path, ...] = (),
                read: Read = read_bounded) -> str:
    """The digest of the document as read: every file of it, then every overlay file
    in the order applied (none: the digest of the files alone, as before overlays)."""
    digest = hashlib.sha256()
    for path, data in sorted(files.items()):
        # Relative even outside the spec's folder: the digest is written into the
        # catalog, which must not depend on where the checkout lives.
        rel = Path(os.path.relpath(path, root)).as_posix()
        digest.update(rel.encode() + b"\0")
        digest.update(data)   # not joined: copying GitHub's 13 MB cost more than hashing it
        digest.update(b"\0")
    for overlay in overlays:
        rel = Path(os.path.relpath(overlay, root)).as_posix()
        digest.update(b"overlay\0" + rel.encode() + b"\0" + read(overlay) + b"\0")
    return tagged(digest.hexdigest())


def _digest_meanwhile(files: SpecFiles, root: Path, overlays: tuple[Path, ...],
                     read: Read) -> Callable[[], str]:
    """``spec_digest``, and each spec file's sha256 the folder's record names (remembered
    by the run's ``Inputs``), worked out in a thread while the run goes on, once the
    validator's process has forked: hashlib lets go of the interpreter's lock over large
    bytes, so GitHub's 13 MB hashed twice (about 20 ms) leave the run's path. The answer
    waits for the thread; what it raised is raised there."""
    done: list[str | BaseException] = []

    def work() -> None:
        try:
            record = hasher(read)
            for data in files.values():
                record(data)
            done.append(spec_digest(files, root, overlays, read))
        except BaseException as exc:   # handed to the caller
            done.append(exc)

    thread = threading.Thread(target=work, name="toolcat-spec-digest", daemon=True)
    thread.start()

    def digest() -> str:
        thread.join()
        if isinstance(done[0], BaseException):
            raise done[0]
        return done[0]
    return digest


def _with_notes(validator: Callable[[], Findings], bundled: Bundle,
                repaired: list[Problem]) -> Callable[[], Findings]:
    """The verdict, with what toolcat's own readers found: the duplicate keys, whose check
    was left until the validator's process had started (parse/duplicates.py), looked for
    before waiting for it (it may still be at work); asked once."""
    @cache
    def validated() -> Findings:
        notes = [*bundled.found(), *repaired]
        return validator().plus(notes)
    return validated


def load_spec(path: Path, known_valid: str | None = None, ref_root: Path | None = None,
              overlays: tuple[Path, ...] = (), read: Read | None = None) -> LoadedSpec:
    """Bundle, apply the overlays, start validating (unless ``known_valid`` is this
    spec's digest), convert 2.0; every file read through ``read`` (the run's)."""
    read = read or Inputs()
    bundled = cached_bundle(path, lambda p: bundle(p, ref_root, read), ref_root, read)
    document = bundled.document
    overlaid = apply_overlays(document, overlays, read)
    _check_version(document, str(path))
    findings = Findings(str(path))
    validated: Callable[[], Findings] = lambda: findings  # noqa: E731
    if known_valid is None:   # the validator's process starts first: it is the longer
        validated = validate_in_background(document, str(path))
        sha = _digest_meanwhile(bundled.files, path.resolve().parent, overlays, read)
    else:
        known = spec_digest(bundled.files, path.resolve().parent, overlays, read)
        sha = lambda: known  # noqa: E731
        if known_valid != verdict(known):
            validated = validate_in_background(document, str(path))
    # What toolcat's own readers found (a key written twice, a tuple `items`, a template
    # in a server URL): findings of the validation mode, as the validator's are.
    document, repaired = repair(document, str(path), None if overlays else bundled.tuples)
    validated = _with_notes(validated, bundled, repaired)
    version = str(document.get("openapi") or document.get("swagger") or "")
    swagger = document if "swagger" in document else None
    if swagger is not None:
        from .load.swagger2 import convert  # noqa: PLC0415 - Swagger 2.0 only
        try:
            document = convert(document)
        except Exception:  # a wrongly typed member: the validator's located words first
            found = validated().report()
            if found:
                raise ToolcatError(found) from None
            raise
    return LoadedSpec(document, sha, version,
                      str(document.get("openapi", "")).startswith("3.0"), validated,
                      bundled.files, overlaid, swagger, None if overlays else bundled.access)


def spec_verdict(path: Path, ref_root: Path | None = None) -> str:
    """The verdict that lets ``build`` skip validating ``path`` (for tests of documents
    the validator rejects for reasons unrelated to tools)."""
    bundled = bundle(path, ref_root)
    return verdict(spec_digest(bundled.files, path.resolve().parent))


def _check_version(document: dict[str, Any], file: str) -> None:
    """Only Swagger 2.0 and OpenAPI 3.x go on (the validator itself fails on 4.0.0)."""
    if "swagger" in document:
        where, version, ok = "/swagger", document["swagger"], document["swagger"] == "2.0"
    elif "openapi" in document:
        where, version = "/openapi", document["openapi"]
        ok = isinstance(version, str) and re.match(r"^3\.[0-9]+\.[0-9]+", version) is not None
    else:
        raise fail(file, "/", "not an OpenAPI document: no 'openapi' or 'swagger' field",
                   "point toolcat at an OpenAPI file")
    if not ok:
        raise fail(file, where, f"unsupported OpenAPI version {version!r}",
                   "toolcat reads Swagger 2.0 and OpenAPI 3.x (as a string, e.g. '3.1.0')")


@dataclass(frozen=True)
class Built:
    catalog: Catalog
    files: Files | None         # the rendered folder, when asked for
    spec_files: SpecFiles       # the files the spec was read from, as read
    findings: Findings          # the validator's problems (warn mode; none when strict)


def build_catalog(target: Target, known_valid: str | None = None) -> Catalog:
    return build(target, known_valid).catalog


def build(target: Target | Run, known_valid: str | None = None, *,
          render: bool = False) -> Built:
    """The catalog (rendered for ``target.output`` if ``render``), once validation passed;
    a bare target is a run of its own.

    Everything but writing (and catalog.json, which records the verdict) runs
    while the validator works in its own process, so on two cores the longer of
    the two sets the pace. In strict mode, whatever fails, the validator's problems
    with the document are reported first.
    """
    run = target if isinstance(target, Run) else Run(target)
    try:
        return _build(run, known_valid, render)
    except RecursionError:  # depth is bounded on read; a chain of $refs may still be long
        raise fail(str(run.target.spec), "/", "the document's schemas refer to each other "
                   "too deeply to process", "shorten the chains of $ref/allOf") from None


def read_overrides(path: Path, read: Read) -> tuple[Any, Any]:
    """The checked override file; its pydantic models are imported only for a target
    that has one (tests/check/test_generate_imports.py)."""
    from .overrides import schema  # noqa: PLC0415

    return schema.read_overrides(path, read)


def _build(run: Run, known_valid: str | None, render: bool) -> Built:
    target = run.target
    overrides, lines = (read_overrides(target.overrides, run.read) if target.overrides
                        else (None, {}))
    spec = load_spec(target.spec, known_valid, target.ref_root, target.overlays, run.read)
    hold_until_exit(spec)   # the document's tree outlives the run, when that is free
    try:
        return _built(target, spec, overrides, lines, render, run.read)
    except ToolcatError as exc:   # a part an overlay wrote: named in that overlay
        raise spec.overlaid.relocate(exc, str(target.spec)) from None


def _built(target: Target, spec: LoadedSpec, overrides: Any, lines: Any,
           render: bool, read: Read) -> Built:
    notes: list[Problem] = []   # the model stage's findings (operationIds shared)
    try:
        defs = Definitions(spec.document, str(target.spec), spec.is_30, spec.access)
        hold_until_exit(defs)
        size = Budget(str(target.spec), spec.files.size())
        drafts, left_out = draft_tools(spec.document, defs, target.prefix,
                                       target.name_budget, target.open_world, target.selection,
                                       size, notes, leave_out=target.validation == "warn")
        drafts = add_undeclared(drafts, target.undeclared_credentials)
        tools, exclusions = apply_overrides(drafts, overrides, str(target.overrides), lines,
                                            left_out)
        tools = check_names(tools, str(target.spec), target.name_budget)
        if target.output_schemas == "lenient":
            tools = lenient_tools(tools)
        check_schemas(tools, str(target.spec), defs)
        tools = publish_outputs(tools, target.output_schemas)
        source = Source(target.spec_label, spec.sha256, spec.openapi, validator_id())
        catalog = Catalog(target.name, source, tuple(tools), tuple(exclusions),
                          toolset_members(target.toolsets, drafts, tools))
        files = (_render_module_and_summary(catalog, models=target.models,
                                            templates=target.templates,
                                            regenerate=target.regenerate,
                                            regenerate_from=target.regenerate_from,
                                            read=read)
                 if render else None)
        # Checked while the validator works; its verdict (``source``) once it is in.
        check_catalog(catalog, str(target.spec))
    except Exception as exc:
        findings = spec.validated().plus(notes)
        if findings.counted and target.validation == "strict":
            raise refusal(findings) from None
        if isinstance(exc, ToolcatError) and spec.swagger is not None:
            raise _in_swagger(exc, spec.swagger, str(target.spec)) from None
        raise
    findings = spec.validated().plus(notes)
    if findings.counted and target.validation == "strict":
        raise refusal(findings)
    catalog = replace(catalog, source=replace(catalog.source, verdict=findings.verdict,
                                              problems=findings.total))
    check_source(catalog, str(target.spec))
    if files is not None:
        files = {CATALOG_FILE: render_catalog(catalog), **files}
    return Built(catalog, files, spec.files, findings)


def _in_swagger(exc: ToolcatError, swagger: dict[str, Any], file: str) -> ToolcatError:
    """Problems found in the converted document, located in the user's Swagger 2.0 file."""
    from .load.swagger2 import original_pointer  # noqa: PLC0415
    return ToolcatError(replace(p, location=original_pointer(swagger, p.location))
                        if p.file == file and p.location.startswith("/") else p
                        for p in exc.problems)


def render_files(catalog: Catalog, *, models: bool = False, templates: Path | None = None,
                 regenerate: str = "", regenerate_from: str = "") -> Files:
    """Every file of a catalog; ``models``: add models.py; ``templates``: a user's folder
    that overrides ours by name; ``regenerate``: the command the module names (default
    ``toolcat generate NAME``), run from ``regenerate_from`` (default: the repository's
    root)."""
    return {CATALOG_FILE: render_catalog(catalog),
            **_render_module_and_summary(catalog, models=models, templates=templates,
                                         regenerate=regenerate,
                                         regenerate_from=regenerate_from)}


def _render_module_and_summary(catalog: Catalog, *, models: bool = False,
                               templates: Path | None = None, regenerate: str = "",
                               regenerate_from: str = "", read: Read = read_bounded) -> Files:
    """The files that do not record the validator's verdict (black's part remembered
    by this machine, never read back from the folder on disk), templates read through
    ``read`` (the run's). jinja2 is imported here, once the validator's process has
    forked: it is not the validator's to wait for."""
    from .render.python_module import render_python  # noqa: PLC0415
    from .render.summary import render_summary  # noqa: PLC0415

    formatter = cached_formatter(black_format, black_key)
    prepare_tools(catalog)   # catalog.json's tools, before the validator's verdict
    files = {MODULE_FILE: render_python(catalog, templates, formatter=formatter,
                                        regenerate=regenerate,
                                        regenerate_from=regenerate_from, read=read),
             SUMMARY_FILE: render_summary(catalog, templates, read)}
    if models:
        from .models.render import render_models  # noqa: PLC0415 - 0.5 s import

        files[MODELS_FILE] = render_models(catalog, templates, formatter=formatter,
                                           regenerate=regenerate,
                                           regenerate_from=regenerate_from, read=read)
    return files
