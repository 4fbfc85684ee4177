"""``toolcat verify``: hold a running MCP server to a catalog and to the tool contract.

    toolcat verify [NAME | --catalog PATH] (--command "CMD ARGS..." | --url URL)

Exit codes: 0 clean (or only findings below ``--fail-on``), 1 drift or a contract
failure at or above ``--fail-on``, 2 a usage or connection error.
"""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import Any

import click

from ..catalog.reader import CatalogView, read_catalog
from ..config import DEFAULT_CONFIG, load_config, select
from ..errors import ToolcatError, fail
from ..vocab.credentials import credential_variables
from ..vocab.exits import Exit
from ..vocab.files import CATALOG_FILE
from .connect import Server, http_server, stdio_server
from .environment import command_label, redact, redact_error, secrets, server_environment
from .examples import load_examples
from .findings import FAIL_ON, Note, Report, make_report
from .names import NameMap, parse_names
from .report import render
from .scope import in_scope, parse_rules
from .session import Options, run


@click.command()
@click.argument("name", required=False)
@click.option("--catalog", "catalog_path", type=click.Path(path_type=Path),
              help="A catalog.json (or its folder) instead of a NAME from the config.")
@click.option("--config", "config", type=click.Path(path_type=Path), default=DEFAULT_CONFIG,
              show_default=True, help="The config that names the catalogs.")
@click.option("--command", "command", metavar='"CMD ARGS..."',
              help="Start the server with this command and speak MCP over its stdio.")
@click.option("--url", help="The server's streamable HTTP endpoint, e.g. http://127.0.0.1:8000/mcp.")
@click.option("--prefix", help="Server tool names: FROM=TO swaps a catalog name's leading "
              "FROM for TO; TO alone prepends it.")
@click.option("--map", "pairs", multiple=True, metavar="CATALOG=SERVER",
              help="The server's name for one catalog tool (repeatable).")
@click.option("--probe", is_flag=True, help="Send invalid calls the contract says must be "
              "refused (read-only tools; see --allow-writes).")
@click.option("--allow-writes", is_flag=True, help="Also probe tools that are not read-only.")
@click.option("--call-readonly", is_flag=True, help="Call each read-only tool with generated "
              "arguments and check its output against the outputSchema.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]),
              default="text", show_default=True)
@click.option("--timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
              help="Seconds each request (and connecting) may take.")
@click.option("--deadline", type=click.FloatRange(min=0.1), default=600.0, show_default=True,
              help="Seconds the whole run may take (every page, probe and call).")
@click.option("--env", "env_names", multiple=True, metavar="NAME",
              help="Pass only this variable (repeatable) to the --command server; by "
              "default it inherits the whole environment. Values are never printed.")
@click.option("--include", multiple=True, metavar="GLOB|SELECTOR",
              help="Check only these catalog tools: a tool-name glob or a config selector "
              "such as '{methods: [GET], paths: [/channels*]}' (repeatable).")
@click.option("--exclude", multiple=True, metavar="GLOB|SELECTOR",
              help="Leave these catalog tools out (repeatable; as --include).")
@click.option("--examples", "examples_file", type=click.Path(path_type=Path),
              help="YAML/JSON: tool name -> arguments for --call-readonly (before the "
              "document's examples and generated ones).")
@click.option("--fail-on", type=click.Choice(FAIL_ON), default="error", show_default=True,
              help="The lowest severity that makes the run exit 1.")
def verify(name: str | None, catalog_path: Path | None, config: Path, command: str | None,
           url: str | None, prefix: str | None, pairs: tuple[str, ...], probe: bool,
           allow_writes: bool, call_readonly: bool, fmt: str, timeout: float,
           deadline: float, env_names: tuple[str, ...], include: tuple[str, ...],
           exclude: tuple[str, ...], examples_file: Path | None, fail_on: str) -> None:
    """Check that a running MCP server advertises exactly the catalog's tools.

    Every mismatch is reported in one run: missing and extra tools and arguments,
    argument types, enums, required sets, additionalProperties and annotations;
    a full-replace tool lacking a body field is critical. --probe and
    --call-readonly add the contract checks.
    """
    gc.enable()   # main() turns it off for generate; a long run's garbage must be collected
    if (command is None) == (url is None):
        raise click.UsageError("give exactly one of --command and --url")
    if allow_writes and not probe:
        raise click.UsageError("--allow-writes only widens --probe; give --probe too")
    if env_names and command is None:
        raise click.UsageError("--env only applies to a --command server")
    view, credentials = _catalog(name, catalog_path, config)
    everything = _entries(view)
    names = parse_names(prefix, pairs, [e["tool"]["name"] for e in everything], view.label)
    entries, left = in_scope(everything, parse_rules("--include", include),
                             parse_rules("--exclude", exclude))
    examples = (load_examples(examples_file, {e["tool"]["name"]: e["tool"] for e in entries})
                if examples_file is not None else {})
    hidden = secrets(command or "", env_names, credential_variables(
        view.name, [e["binding"] for e in everything], credentials), os.environ)
    options = Options(probe, allow_writes, call_readonly, timeout, deadline,
                      frozenset(names.server_name(e["tool"]["name"]) for e in left), examples)
    try:
        server = (stdio_server(command, server_environment(env_names, os.environ),
                               command_label(command))
                  if command is not None else http_server(url or ""))
        report = check(view.label, entries, server, names, options, fail_on, len(left))
    except ToolcatError as exc:
        raise redact_error(exc, hidden) from None
    click.echo(redact(render(report, fmt), hidden), nl=False)
    if report.failed:
        sys.exit(Exit.DRIFT)


def check(label: str, entries: list[dict[str, Any]], server: Server, names: NameMap,
          options: Options, fail_on: str = "error", left_out: int = 0) -> Report:
    """One verify run, as a Report (the command and the tests share this)."""
    outcome = run(server, entries, names, options)
    checks = ("parity", *(["probe"] if options.probe else []),
              *(["output"] if options.call_readonly else []))
    notes = outcome.notes + ([Note("(scope)", f"{left_out} catalog tools left out by "
                                   "--include/--exclude: not checked")] if left_out else [])
    return make_report(label, server.label, outcome.protocol, checks, len(entries),
                       len(outcome.server_tools), outcome.findings, notes, fail_on)


def _catalog(name: str | None, path: Path | None, config: Path
             ) -> tuple[CatalogView, dict[str, str]]:
    """The catalog, and its config's ``credentials:`` map ({} with --catalog)."""
    if path is not None:
        if name is not None:
            raise click.UsageError("give either NAME or --catalog, not both")
        return read_catalog(path), {}
    if not os.path.lexists(config):
        raise fail(str(config), "", "config file not found",
                   "run from the project root, pass --config, or use --catalog PATH")
    targets = select(load_config(config), name, str(config))
    if len(targets) != 1:
        raise fail(str(config), "catalogs", f"{len(targets)} catalogs; verify checks one",
                   f"name one: {', '.join(t.name for t in targets)}")
    return read_catalog(targets[0].output / CATALOG_FILE), dict(targets[0].credentials)


def _entries(view: CatalogView) -> list[dict[str, Any]]:
    entries = []
    for tool_name, record in sorted(view.tools.items()):
        if not isinstance(record.tool.get("inputSchema"), dict):
            raise fail(view.label, f"tools/{tool_name}/inputSchema", "no inputSchema object",
                       "regenerate the catalog with `toolcat generate`")
        entries.append({"tool": record.tool, "binding": record.binding})
    return entries
