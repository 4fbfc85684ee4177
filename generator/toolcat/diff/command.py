"""``toolcat diff``: what changed between two catalogs, and whether it breaks callers.

    toolcat diff OLD NEW           each a catalog.json or a catalog folder
    toolcat diff --base REV        the working tree's catalogs against git revision REV

Exit codes follow ``--fail-on``: 1 when a change at the threshold was found,
else 0 (the default threshold, ``none``, only reports); 2 for any error.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click
from click.core import ParameterSource

from ..catalog.reader import read_catalog
from ..config import DEFAULT_CONFIG, load_config
from ..errors import Problem, ToolcatError, fail
from ..run import fix_command
from ..vocab.exits import Exit
from . import StaleCheck
from .catalogs import revision_pairs
from .classify import CatalogDiff, diff_catalogs
from .report import render_markdown, render_text


@click.command()
@click.argument("old", required=False, type=click.Path(path_type=Path))
@click.argument("new", required=False, type=click.Path(path_type=Path))
@click.option("--base", metavar="REV",
              help="Compare the working tree's catalogs with git revision REV.")
@click.option("--config", "config", type=click.Path(path_type=Path), default=DEFAULT_CONFIG,
              show_default=True, help="With --base: the config naming the catalogs.")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown"]), default="text",
              show_default=True, help="text for a terminal, markdown for a PR comment.")
@click.option("--fail-on", "fail_on", type=click.Choice(["breaking", "any", "none"]),
              default="none", show_default=True,
              help="Exit 1 when a breaking change (or any change) is found.")
def diff(old: Path | None, new: Path | None, base: str | None, config: Path, fmt: str,
         fail_on: str) -> None:
    """Classify every change between two catalogs as breaking or compatible.

    OLD and NEW are each a catalog.json or a folder holding one. With --base REV,
    every catalog of the working tree (those of the config, and every
    generated/*/catalog.json) is compared with the same path at git revision REV.
    Identical catalogs print nothing.
    """
    given = click.get_current_context().get_parameter_source("config")
    if given is not ParameterSource.DEFAULT and not os.path.lexists(config):
        raise fail(str(config), "", "config file not found",
                   "pass the path of your toolcat.yaml, or leave --config out to use "
                   "every generated/*/catalog.json")
    diffs = _diffs(old, new, base, config)
    if fmt == "markdown":
        click.echo(render_markdown(diffs), nl=False)
    else:
        colour = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        click.echo(render_text(diffs, colour=colour), nl=False, color=colour)
    changes = [c for d in diffs for c in d.changes]
    if (fail_on == "any" and changes) or (fail_on == "breaking"
                                          and any(c.breaking for c in changes)):
        sys.exit(Exit.FOUND)


def _refuse_stale(config: Path) -> None:
    """With --base the working tree's catalogs stand for its specs: say so when one
    does not (a spec edited, not yet regenerated) instead of comparing old files."""
    check = click.get_current_context().find_object(StaleCheck)
    if check is None:
        raise RuntimeError("diff --base runs under the toolcat CLI, which checks freshness")
    if not os.path.lexists(config):
        return
    # A catalog whose spec is absent has nothing to be stale against (check says so).
    stale = [t for t in load_config(config) if t.spec.is_file() and check.stale(t)]
    if stale:
        raise ToolcatError([Problem(str(t.output), "", f"catalog '{t.name}' is stale against "
                                    f"its spec {t.spec}: the diff would compare the old "
                                    "catalog", f"run {fix_command(t)} first, then diff again")
                            for t in stale])


def _diffs(old: Path | None, new: Path | None, base: str | None,
           config: Path) -> list[CatalogDiff]:
    if base is not None:
        if old is not None or new is not None:
            raise click.UsageError("give either OLD NEW or --base REV, not both")
        _refuse_stale(config)
        return [diff_catalogs(p.old, p.new, p.label)
                for p in revision_pairs(base, config, Path.cwd())]
    if old is None or new is None:
        raise click.UsageError("give two catalogs (OLD NEW), or --base REV")
    return [diff_catalogs(read_catalog(old), read_catalog(new))]
