"""The ``toolcat`` command: generate, check (and, imported lazily, diff and verify).

Exit codes: 0 ok, 1 stale (check found a difference; verify: drift), 2 any input or
usage error.
No traceback reaches the user: input problems are ToolcatError, printed once.
"""

from __future__ import annotations

import gc
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from generator import flows
from generator.config import DEFAULT_CONFIG, Target, check_catalog_name, load_config, select
from generator.errors import ToolcatError
from generator.load.validation.findings import Findings, warnings
from generator.vocab.validation import MODES, Mode

OK, STALE, ERROR = 0, 1, 2


def _targets(name: str | None, config: Path, spec: Path | None, out: Path | None,
             prefix: str, validation: Mode | None = None,
             ref_root: Path | None = None) -> list[Target]:
    if validation is not None and spec is None and out is None:
        raise click.UsageError("--validation is for ad hoc runs (--spec, --out); for a "
                               f"catalog of {config}, set its `validation:` there")
    if spec is not None or out is not None:
        if spec is None or out is None:
            raise click.UsageError("--spec and --out go together")
        label = spec.name
        if name is None:
            name = re.sub(r"[^a-z0-9_]", "_", spec.resolve().parent.name.lower()) or "api"
            name = (name if re.match(r"^[a-z]", name) else f"api_{name}")[:64]
        check_catalog_name(name, "--name", "")
        return [Target(name=name, spec=spec, spec_label=label, output=out, prefix=prefix,
                       validation=validation or "strict", ref_root=ref_root)]
    if ref_root is not None:
        raise click.UsageError("--ref-root goes with --spec; in a config use ref_root:")
    if not config.is_file():
        raise ToolcatError.single(str(config), "", "config file not found",
                                  "run from the project root, pass --config, or use "
                                  "--spec FILE --out DIR")
    return select(load_config(config), name, str(config))


_common = [
    click.argument("name", required=False),
    click.option("--config", "config", type=click.Path(path_type=Path),
                 default=DEFAULT_CONFIG, show_default=True, help="Catalog config file."),
    click.option("--spec", type=click.Path(path_type=Path), help="Ad hoc: an OpenAPI file."),
    click.option("--out", type=click.Path(path_type=Path), help="Ad hoc: the catalog folder."),
    click.option("--prefix", default="", help="Ad hoc: tool-name prefix."),
    click.option("--name", "name_opt", help="Ad hoc: catalog name."),
    click.option("--validation", type=click.Choice(MODES), default=None,
                 help="Ad hoc: refuse a spec the OpenAPI validator rejects (strict, the "
                      "default) or generate with warnings (warn)."),
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
            from generator.diff.command import diff  # noqa: PLC0415

            return diff
        if name == "verify":
            from generator.verify.command import verify  # noqa: PLC0415

            return verify
        return super().get_command(ctx, name)


@click.group(cls=_Commands)
def cli() -> None:
    """Derive MCP tool catalogs from OpenAPI documents."""


@cli.command()
@common
def generate(name: str | None, config: Path, spec: Path | None, out: Path | None,
             prefix: str, name_opt: str | None, validation: Mode | None,
             ref_root: Path | None) -> None:
    """Generate every catalog in the config, or the one named."""
    for target in _targets(name or name_opt, config, spec, out, prefix, validation, ref_root):
        done = flows.generate(target, config if spec is None else None)
        _warn(done.findings)
        click.echo(f"{target.name}: {done.tools} tools, {done.size:,} bytes -> "
                   f"{target.output}")


@cli.command()
@common
def check(name: str | None, config: Path, spec: Path | None, out: Path | None,
          prefix: str, name_opt: str | None, validation: Mode | None,
          ref_root: Path | None) -> None:
    """Regenerate in memory and compare with disk; exit 1 if anything differs."""
    stale = False
    for target in _targets(name or name_opt, config, spec, out, prefix, validation, ref_root):
        checked = flows.check(target)
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
        fix = (f"toolcat generate {target.name}" if spec is None else
               f"toolcat generate --spec {spec} --out {out} --name {target.name}"
               + (f" --prefix {prefix}" if prefix else "")
               + (f" --validation {validation}" if validation else ""))
        click.echo(f"fix: run `{fix}` (or `make regen`) and commit the result")
    if stale:
        sys.exit(STALE)


def _warn(findings: Findings | None) -> None:
    """Warn mode: what the validator found, on stderr."""
    if findings is not None and findings.counted:
        click.echo("\n".join(warnings(findings)), err=True)


def main() -> None:
    # A run builds large trees of dicts and lists that stay alive until it ends,
    # and almost none of its garbage is cyclic: the cyclic collector only rescans
    # the same live objects, again and again as they grow (about a fifth of a
    # run's time, for no memory saved: `make bench` peaks are the same without it).
    gc.disable()
    try:
        cli.main(standalone_mode=False)
    except ToolcatError as exc:
        click.echo(exc.render(), err=True)
        sys.exit(ERROR)
    except click.exceptions.Abort:
        sys.exit(ERROR)
    except click.ClickException as exc:
        exc.show()
        sys.exit(ERROR)
    except KeyboardInterrupt:
        sys.exit(ERROR)
    except RecursionError:
        click.echo("error: the document nests too deeply to process", err=True)
        sys.exit(ERROR)
    except Exception as exc:
        if os.environ.get("TOOLCAT_DEBUG"):
            raise
        click.echo(f"toolcat: internal error: {exc!r}\n  fix: this is a toolcat bug; "
                   "run again with TOOLCAT_DEBUG=1 for the traceback and report it", err=True)
        sys.exit(ERROR)
    sys.exit(OK)
