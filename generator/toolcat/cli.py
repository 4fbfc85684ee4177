"""The ``toolcat`` command: generate, check, serve (and, imported lazily, diff and verify).

Exit codes: 0 ok, 1 stale (check found a difference; verify: drift), 2 any input or
usage error.
No traceback reaches the user: input problems are ToolcatError, printed once.
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import FrameType
from typing import Any, NoReturn, TypeVar
from urllib.parse import urlsplit

import click

from . import flows
from .config import (
    DEFAULT_CONFIG,
    Target,
    check_catalog_name,
    load_config,
    regenerate_command,
    select,
    validate,
)
from .diff import StaleCheck
from .errors import ToolcatError
from .load.validation.findings import Findings, warnings
from .model.naming import catalog_name
from .output.files import Difference
from .output.guard import BYTECODE
from .parse.inputs import Inputs, Read
from .progress import progress
from .run import Run, fix_command, holding_until_exit
from .vocab.exits import Exit
from .vocab.files import CATALOG_FILE
from .vocab.validation import MODES, Mode


def default_catalog_name(spec: Path, inputs: Inputs | None = None) -> str:
    """From the spec's ``info.title``, else its folder's name (see ``catalog_name``);
    remembered by this machine's cache (``cache/names.py``). ``inputs``: the run's."""
    from .cache.names import cached_name  # noqa: PLC0415

    read = inputs or Inputs()
    return cached_name(spec, lambda path: _name_from_title(path, read), read)


def _name_from_title(spec: Path, read: Read) -> str:
    from .parse.duplicates import Repeats  # noqa: PLC0415
    from .parse.reader import glance_document  # noqa: PLC0415

    # A key written twice is the pipeline's to report, by the validation mode; the
    # tree goes on to the pipeline's bundle, which reads the same file next.
    document = glance_document(spec, Repeats(str(spec), keep=True, defer=True), read)
    info = document.get("info") if isinstance(document, dict) else None
    title = info.get("title") if isinstance(info, dict) else None
    return catalog_name(title, spec.resolve().parent.name)


def _targets(name: str | None, config: Path, spec: Path | None, out: Path | None,
             prefix: str, validation: Mode | None = None,
             overrides: Path | None = None, ref_root: Path | None = None,
             overlays: tuple[Path, ...] = ()) -> list[Run]:
    """The run of each catalog the options name: where each run's context is built."""
    if validation is not None and spec is None and out is None:
        raise click.UsageError("--validation is for ad hoc runs (--spec, --out); for a "
                               f"catalog of {config}, set its `validation:` there")
    if spec is not None or out is not None:
        if spec is None or out is None:
            raise click.UsageError("--spec and --out go together")
        label, inputs = spec.name, Inputs()
        if name is None:
            name = default_catalog_name(spec, inputs)
        check_catalog_name(name, "--name", "")
        regenerate, regenerate_from = regenerate_command(
            ["toolcat generate", ("--spec", spec), ("--out", out), "--name", name,
             *(["--prefix", prefix] if prefix else []),
             *(["--validation", validation] if validation else []),
             *([("--overrides", overrides)] if overrides else []),
             *([("--ref-root", ref_root)] if ref_root else []),
             *(("--overlay", o) for o in overlays)], out)
        return [Run(Target(name=name, spec=spec, spec_label=label, output=out, prefix=prefix,
                           validation=validation or "strict", overrides=overrides,
                           overlays=overlays, ref_root=ref_root, regenerate=regenerate,
                           regenerate_from=regenerate_from), None, inputs)]
    if overrides is not None:
        raise click.UsageError("--overrides is for ad hoc runs (--spec/--out); "
                               "with a config, set overrides: in it")
    if ref_root is not None:
        raise click.UsageError("--ref-root goes with --spec; in a config use ref_root:")
    if overlays:
        raise click.UsageError("--overlay is for ad hoc runs (--spec/--out); with a config, "
                               "list the files under overlays: in it")
    if not os.path.lexists(config):
        raise ToolcatError.single(str(config), "", "config file not found",
                                  "run from the project root, pass --config, or use "
                                  "--spec FILE --out DIR")
    return [Run(target, config) for target in select(_load_config(config), name, str(config))]


def _load_config(config: Path) -> list[Target]:
    """The config's targets; its validation remembered by this machine (cache/configs.py)."""
    from .cache.configs import remembered  # noqa: PLC0415

    # One read of the file serves the memo's key and, on a miss, the validation.
    return load_config(config, Inputs(), remembered(validate))


_common = [
    click.argument("name", required=False),
    click.option("--config", "config", type=click.Path(path_type=Path),
                 default=DEFAULT_CONFIG, show_default=True, help="Catalog config file."),
    click.option("--spec", type=click.Path(path_type=Path), help="Ad hoc: an OpenAPI file."),
    click.option("--out", type=click.Path(path_type=Path), help="Ad hoc: the catalog folder."),
    click.option("--prefix", default="", help="Ad hoc: tool-name prefix."),
    click.option("--name", "name_opt", help="Ad hoc: catalog name (default: from the "
                 "spec's title)."),
    click.option("--validation", type=click.Choice(MODES), default=None,
                 help="Ad hoc: refuse a spec the OpenAPI validator rejects (strict, the "
                      "default) or generate with warnings (warn)."),
    click.option("--overrides", type=click.Path(path_type=Path),
                 help="Ad hoc: an override file."),
    click.option("--overlay", "overlays", type=click.Path(path_type=Path), multiple=True,
                 help="Ad hoc: an OpenAPI Overlay file to apply to the spec first "
                      "(repeatable; applied in the order given)."),
    click.option("--quiet", "-q", is_flag=True,
                 help="No progress line on stderr (shown only on a terminal, after 1 s)."),
    click.option("--ref-root", "ref_root", type=click.Path(path_type=Path),
                 help="Ad hoc: relative $refs may reach files under this folder "
                      "(default: the spec's folder)."),
]


F = TypeVar("F", bound=Callable[..., Any])


def common(func: F) -> F:
    for decorator in reversed(_common):
        func = decorator(func)
    return func


class _Commands(click.Group):
    """Imports ``diff`` and ``verify`` only when they run: 0.1 s (verify: the MCP SDK,
    0.5 s) of every start-up."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), "diff", "verify"])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name == "diff":
            from .diff.command import diff  # noqa: PLC0415

            return diff
        if name == "verify":
            from .verify.command import verify  # noqa: PLC0415

            return verify
        return super().get_command(ctx, name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="toolcat", prog_name="toolcat",
                      message="%(prog)s %(version)s")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Derive MCP tool catalogs from OpenAPI documents."""
    # diff --base asks whether each catalog is fresh; the diff room ranks below the
    # flows that answer it, so the answer is handed down rather than imported up.
    ctx.obj = StaleCheck(lambda target: flows.check(Run(target)).stale)


@cli.command()
@common
def generate(name: str | None, config: Path, spec: Path | None, out: Path | None,
             prefix: str, name_opt: str | None, validation: Mode | None,
             overrides: Path | None, overlays: tuple[Path, ...], quiet: bool,
             ref_root: Path | None) -> None:
    """Generate every catalog in the config, or the one named."""
    _hold_until_exit()
    for run in _targets(name or name_opt, config, spec, out, prefix, validation, overrides,
                        ref_root, overlays):
        target = run.target
        with progress(f"{target.name}: generating from {target.spec}", quiet=quiet):
            done = flows.generate(run)
        _warn(done.findings)
        click.echo(f"{target.name}: {done.tools} tools, {done.size:,} bytes -> "
                   f"{target.output}")


@cli.command()
@common
def check(name: str | None, config: Path, spec: Path | None, out: Path | None,
          prefix: str, name_opt: str | None, validation: Mode | None,
          overrides: Path | None, overlays: tuple[Path, ...], quiet: bool,
          ref_root: Path | None) -> None:
    """Regenerate in memory and compare with disk; exit 1 if anything differs."""
    _hold_until_exit()
    stale = False
    for run in _targets(name or name_opt, config, spec, out, prefix, validation, overrides,
                        ref_root, overlays):
        target = run.target
        with progress(f"{target.name}: checking against {target.spec}", quiet=quiet):
            checked = flows.check(run)
        _warn(checked.findings)
        if not checked.stale:
            click.echo(f"{target.name}: up to date ({checked.tools} tools)")
            continue
        stale = True
        click.echo(f"{target.name}: STALE in {target.output}")
        click.echo(checked.summary, nl=False)
        for diff in checked.differences:
            click.echo(f"  {diff.kind}: {diff.path}")
        for diff in checked.differences:
            click.echo(diff.diff, nl=False)
        click.echo(_bytecode_note(checked.differences), nl=False)
        click.echo(f"fix: run {fix_command(target)} and commit the result")
    if stale:
        sys.exit(Exit.STALE)


def _bytecode_note(differences: tuple[Difference, ...]) -> str:
    """Why a ``__pycache__`` is stale, and how a local import avoids writing one."""
    if not any(BYTECODE in d.path.split("/") for d in differences):
        return ""
    return (f"note: {BYTECODE} holds bytecode Python runs instead of __init__.py, so "
            "check counts it as a file toolcat did not write. Python writes it when the "
            "catalog module is imported from this folder: `toolcat generate` removes it; "
            "import with PYTHONDONTWRITEBYTECODE=1 or PYTHONPYCACHEPREFIX set to keep "
            "the folder clean (docs/check.md)\n")


def _warn(findings: Findings | None) -> None:
    """Warn mode: what the validator found, on stderr."""
    if findings is not None and findings.counted:
        click.echo("\n".join(warnings(findings)), err=True)


@cli.command()
@common
@click.option("--base-url", help="Scheme and host of a running API; the server URL's path "
              "is kept (e.g. http://127.0.0.1:9000).")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio",
              show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP transport only.")
@click.option("--port", type=int, default=8000, show_default=True, help="HTTP transport only.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=30.0,
              show_default=True,
              help="Seconds for each whole tool call: connecting, sending, reading every "
              "byte of the answer and following redirects (an API that drips its answer is "
              "cut at this deadline).")
@click.option("--log-requests", "log_requests", is_flag=False, flag_value="-", default=None,
              metavar="[FILE|-]", help="Log each HTTP request (method, URL with secrets "
              "redacted, status, duration) to FILE (appended) or, without FILE, to stderr.")
@click.option("--allow-host", "allow_hosts", multiple=True, metavar="NAME[:PORT]",
              help="HTTP: a Host header clients may use besides loopback names (repeatable; "
                   "required with a --host beyond loopback).")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="HTTP: a browser Origin allowed besides http(s)://loopback "
                   "(repeatable), e.g. https://app.example.com.")
@click.option("--auth-token-env", "auth_token_env", metavar="VAR",
              help="HTTP: every request must carry 'Authorization: Bearer <$VAR>' "
                   "(required with a --host beyond loopback).")
@click.option("--mode", type=click.Choice(["tools", "discover"]), default="tools",
              show_default=True, help="tools: one tool per operation; discover: three "
              "meta-tools (search, describe, call) over the catalog (docs/large-apis.md).")
@click.option("--toolset", default=None, help="Serve only this toolset of the config.")
@click.option("--schema-profile", "schema_profile",
              type=click.Choice(["gemini", "openai-strict"]), default=None,
              help="Show inputSchemas as this client accepts them (never narrower; "
              "openai-strict maps arguments back; calls are still validated against the "
              "exact schemas; docs/large-apis.md).")
def serve(name: str | None, config: Path, spec: Path | None, out: Path | None, prefix: str,
          name_opt: str | None, validation: Mode | None, overrides: Path | None,
          overlays: tuple[Path, ...], quiet: bool, ref_root: Path | None,
          base_url: str | None, transport: str, host: str, port: int,
          timeout: float, log_requests: str | None, allow_hosts: tuple[str, ...],
          allow_origins: tuple[str, ...], auth_token_env: str | None, mode: str,
          toolset: str | None, schema_profile: str | None) -> None:
    """Serve one committed catalog as an MCP server that calls the API.

    Only a fresh folder is served (the check flow): serving a catalog that no longer
    matches its spec is the drift toolcat exists to stop. The folder's bytes are what runs.
    Over HTTP, Host and Origin are always checked (docs/serve.md).
    """
    guard = _guard(transport, host, allow_hosts, allow_origins, auth_token_env)
    if schema_profile == "openai-strict" and mode == "discover":
        raise click.UsageError("--schema-profile openai-strict serves tools, not the "
                               "discovery meta-tools: drop --mode discover")
    if base_url is not None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise click.BadParameter(f"'{base_url}' is not an http(s) URL with a host "
                                     "(e.g. http://127.0.0.1:9000)", param_hint="--base-url")
    runs = _targets(name or name_opt, config, spec, out, prefix, validation, overrides,
                    ref_root, overlays)
    if len(runs) != 1:
        raise click.UsageError("name the catalog to serve: "
                               + ", ".join(r.target.name for r in runs))
    target = runs[0].target
    fix = fix_command(target)
    catalog_file = target.output / CATALOG_FILE
    if not catalog_file.is_file():
        raise ToolcatError.single(str(target.output), "", f"no {CATALOG_FILE} in this folder",
                                  f"run {fix} first")
    with progress(f"{target.name}: checking against {target.spec}", quiet=quiet):
        checked = flows.check(runs[0])
    if checked.stale:
        names = ", ".join(str(d.path) for d in checked.differences[:5])
        raise ToolcatError.single(str(target.output), "", "the catalog is stale: it no longer "
                                  f"matches {target.spec_label} ({names})",
                                  f"run {fix} and commit the result, then serve again")
    # Imported here: the MCP SDK costs every other command's start-up otherwise (and on
    # stdio it loads while runtime/early.py answers the handshake and tools/list).
    from .catalog.reader import open_catalog  # noqa: PLC0415
    from .runtime.credentials import start_warnings, unknown_schemes  # noqa: PLC0415
    from .runtime.early import front_for, serve_soon  # noqa: PLC0415
    from .runtime.request_log import open_request_log  # noqa: PLC0415

    catalog = open_catalog(target.output)
    problems = unknown_schemes(catalog, target.credentials, str(config), target.name)
    if problems:
        raise ToolcatError(problems)
    for line in start_warnings(catalog, target.credentials, os.environ):
        click.echo(f"toolcat serve: {line}", err=True)
    _known_toolset(catalog, toolset, target)
    log = None if log_requests is None else open_request_log(log_requests)

    start = partial(_start, catalog, target, transport, (host, port, guard), {
        "base_url": base_url, "credentials": target.credentials, "timeout": timeout,
        "log": log, "mode": mode, "toolset": toolset, "schema_profile": schema_profile})
    front = front_for(catalog, mode, toolset, schema_profile) if transport == "stdio" else None
    if front is None:
        start()
    else:
        serve_soon(front, start)


def _start(catalog: dict[str, Any], target: Target, transport: str,
           http: tuple[str, int, Any], settings: dict[str, Any], handover: Any = None,
           wire: Any = None) -> None:
    """Build the server (runtime/embed.py's build_server with `settings`) and serve it;
    on stdio after the `handover` of runtime/early.py, if any."""
    import anyio  # noqa: PLC0415

    from .runtime.embed import build_server  # noqa: PLC0415
    from .runtime.mcp_server import run_http, run_stdio  # noqa: PLC0415

    server = build_server(catalog, **settings,
                          warn=lambda line: click.echo(f"toolcat serve: {line}", err=True))
    toolset, mode = settings["toolset"], settings["mode"]
    where = "stdio" if transport == "stdio" else f"http://{http[0]}:{http[1]}/mcp"
    count = len(catalog["toolsets"][toolset]) if toolset else len(catalog["tools"])
    served = (f"toolset {toolset} of " if toolset else "") + f"{target.name} ({count} tools"
    # stdout carries the protocol on stdio: status goes to stderr.
    click.echo(f"toolcat serve: {served}{', discovery mode' if mode == 'discover' else ''}"
               f") on {where}", err=True)
    # main() turns the collector off for generate; it stays off while serve reads the catalog
    # and builds the server (collections there walk its 20 MB of objects, about 0.2 s on
    # Cloudflare's), then what start-up made is frozen out of its sight and it is turned on:
    # a server's garbage must be collected, and a full collection never walks the catalog.
    gc.freeze()
    gc.enable()
    if transport == "stdio":
        anyio.run(run_stdio, server, handover, wire)
    else:
        anyio.run(run_http, server, *http)


def _guard(transport: str, host: str, allow_hosts: tuple[str, ...],
           allow_origins: tuple[str, ...], token_env: str | None) -> Any:
    """The HTTP transport's TransportGuard, checked before any work (None on stdio)."""
    if transport != "http":
        if allow_hosts or allow_origins or token_env:
            raise click.UsageError("--allow-host, --allow-origin and --auth-token-env are "
                                   "for --transport http")
        return None
    from .runtime.transport_guard import GuardError, make_guard  # noqa: PLC0415

    try:
        return make_guard(host, allow_hosts, allow_origins, token_env, os.environ)
    except GuardError as exc:
        raise ToolcatError.single("toolcat serve", "", str(exc)) from None


def _known_toolset(catalog: dict[str, Any], toolset: str | None, target: Target) -> None:
    known = sorted(catalog.get("toolsets") or {})
    if toolset is not None and toolset not in known:
        raise ToolcatError.single(str(target.output / CATALOG_FILE), "/toolsets",
                                  f"no toolset named '{toolset}'",
                                  f"toolsets of {target.name}: {', '.join(known)}" if known
                                  else f"declare it under catalogs.{target.name}.toolsets "
                                  "in the config, then generate")


@cli.command()
@click.option("--spec", type=click.Path(path_type=Path),
              help="The OpenAPI document (default: the one found in this project).")
def init(spec: Path | None) -> None:
    """Set up this project: a config, a CI workflow, a pre-commit hook."""
    from .init.project import init_project  # noqa: PLC0415

    written, next_command = init_project(Path.cwd(), spec)
    for item in written:
        if item.created:
            click.echo(f"wrote {item.path.as_posix()}")
        else:
            click.echo(f"kept {item.path.as_posix()} (exists): {item.advice}")
    click.echo(f"next: run `{next_command}`, then commit the config, generated/ and the "
               "workflow")


@cli.command("mcp-config")
@click.argument("name", required=False)
@click.option("--config", type=click.Path(path_type=Path), default=DEFAULT_CONFIG,
              show_default=True, help="The config that names the catalog.")
@click.option("--base-url", help="Passed to `toolcat serve --base-url`.")
def mcp_config(name: str | None, config: Path, base_url: str | None) -> None:
    """Print the mcpServers entry that serves catalog NAME to a desktop MCP client."""
    from .init.client import mcp_entry  # noqa: PLC0415

    targets = select(_load_config(config), name, str(config))
    if len(targets) != 1:
        raise click.UsageError("name the catalog: " + ", ".join(t.name for t in targets))
    text, variables = mcp_entry(targets[0], config, base_url)
    click.echo(text, nl=False)
    if variables:
        click.echo(f"fill in under env: {', '.join(variables)} (the catalog's credentials; "
                   "toolcat never prints their values)", err=True)


@cli.command("schema")
@click.argument("which", type=click.Choice(["config", "catalog"]))
def schema(which: str) -> None:
    """Print the JSON Schema of toolcat.yaml (config) or of catalog.json (catalog)."""
    from importlib.resources import files  # noqa: PLC0415

    click.echo(files("toolcat").joinpath("schemas", f"{which}.schema.json")
               .read_text(encoding="utf-8"), nl=False)


_program = False   # main's caller is a program (``_called_by_program``)


def main() -> None:
    """The ``toolcat`` program (console script, ``python -m toolcat``): exit 0, 1 or 2,
    leaving as ``_leave`` says."""
    global _program  # noqa: PLW0603 - the process's one program
    _program = _called_by_program(sys._getframe(1))
    _leave(_run(), _program)


def _hold_until_exit() -> None:
    """generate and check end the program: the trees a run builds are left to its exit,
    which never frees them (run.py, ``hold_until_exit``)."""
    if _program:
        holding_until_exit()


def _run() -> int:
    """Run the command line; its exit code (a traceback only with TOOLCAT_DEBUG)."""
    # A run builds large trees of dicts and lists that stay alive until it ends,
    # and almost none of its garbage is cyclic: the cyclic collector only rescans
    # the same live objects, again and again as they grow (about a fifth of a
    # run's time, for no memory saved: `make bench` peaks are the same without it).
    gc.disable()
    try:
        cli.main(standalone_mode=False)
    except SystemExit as exc:   # check's stale exit
        if exc.code is None or isinstance(exc.code, int):
            return exc.code or Exit.OK
        raise
    except ToolcatError as exc:
        click.echo(exc.render(), err=True)
        return Exit.ERROR
    except click.exceptions.Abort:
        return Exit.ERROR
    except click.ClickException as exc:
        exc.show()
        return Exit.ERROR
    except KeyboardInterrupt:
        return Exit.ERROR
    except RecursionError:
        click.echo("error: the document nests too deeply to process", err=True)
        return Exit.ERROR
    except Exception as exc:
        if os.environ.get("TOOLCAT_DEBUG"):
            raise
        click.echo(f"toolcat: internal error: {exc!r}\n  fix: this is a toolcat bug; "
                   "run again with TOOLCAT_DEBUG=1 for the traceback and report it", err=True)
        return Exit.ERROR
    return Exit.OK


def _called_by_program(frame: FrameType) -> bool:
    """Whether ``main``'s caller is a program's top-level code (the console script,
    ``python -m toolcat``, ``python -c "...; main()"``), not a function (a test)."""
    return frame.f_code.co_name == "<module>" and frame.f_globals.get("__name__") == "__main__"


def _leave(code: int, program: bool) -> NoReturn:
    """Exit with ``code``. The program leaves without the interpreter's teardown, which
    frees every object one by one (0.07 s of CPU after generating GitHub's catalog, when
    nothing is left to do): what exit does that matters is done first (the atexit
    handlers, stdout and stderr flushed), and only when no thread is running that exit
    would wait for (one not a daemon: a pool's workers, say). Anything else (a stream
    that cannot be flushed, a caller in the same process) leaves through ``SystemExit``,
    as Python would."""
    if program and all(t.daemon for t in threading.enumerate()
                       if t is not threading.main_thread()):
        try:
            atexit._run_exitfuncs()
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
        except BaseException:   # Python's own exit reports it
            sys.exit(code)
        os._exit(code)
    sys.exit(code)
