"""`toolcat serve`: the committed catalog folder as an MCP server calling the real API.

Only a fresh folder is served: serving a catalog that no longer matches its spec is exactly
the drift toolcat exists to stop, so a stale folder is refused with the command that fixes it.
The folder's bytes are what is served (not a rebuild), so what a reviewer read is what runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import anyio
import click
import orjson

from generator.cli import _targets, _unchanged, common
from generator.config import Target
from generator.errors import ToolcatError
from generator.output.files import compare, on_disk
from generator.runtime.embed import build_server
from generator.runtime.mcp_server import run_http, run_stdio

CATALOG_FILE = "catalog.json"


def fresh_catalog(target: Target, fix: str) -> dict[str, Any]:
    """The committed catalog.json of `target`, or an error when the folder is stale."""
    current = on_disk(target.output)
    if CATALOG_FILE not in current:
        raise ToolcatError.single(str(target.output), "", "no catalog.json in this folder",
                                  f"run `{fix}` first")
    if _unchanged(target, current) is None:
        from generator.pipeline import build, previous_verdict  # noqa: PLC0415 - when unsure

        built = build(target, previous_verdict(target.output), render=True)
        differences = compare(target.output, built.files or {}, current)
        if differences:
            names = ", ".join(str(d.path) for d in differences[:5])
            raise ToolcatError.single(str(target.output), "",
                                      f"the catalog is stale: it no longer matches "
                                      f"{target.spec_label} ({names})",
                                      f"run `{fix}` and commit the result, then serve again")
    data: dict[str, Any] = orjson.loads(current[CATALOG_FILE])
    return data


@click.command()
@common
@click.option("--base-url", help="Scheme and host of a running API; the server URL's path "
              "is kept (e.g. http://127.0.0.1:9000).")
@click.option("--transport", type=click.Choice(["stdio", "http"]), default="stdio",
              show_default=True)
@click.option("--host", default="127.0.0.1", show_default=True, help="HTTP transport only.")
@click.option("--port", type=int, default=8000, show_default=True, help="HTTP transport only.")
@click.option("--timeout", type=float, default=30.0, show_default=True,
              help="Seconds per API request.")
def serve(name: str | None, config: Path, spec: Path | None, out: Path | None, prefix: str,
          name_opt: str | None, base_url: str | None, transport: str, host: str, port: int,
          timeout: float) -> None:
    """Serve one committed catalog as an MCP server that calls the API."""
    if base_url is not None:
        parts = urlsplit(base_url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise click.BadParameter(f"'{base_url}' is not an http(s) URL with a host "
                                     "(e.g. http://127.0.0.1:9000)", param_hint="--base-url")
    targets = _targets(name or name_opt, config, spec, out, prefix)
    if len(targets) != 1:
        raise click.UsageError("name the catalog to serve: "
                               + ", ".join(t.name for t in targets))
    target = targets[0]
    fix = (f"toolcat generate {target.name}" if spec is None else
           f"toolcat generate --spec {spec} --out {out} --name {target.name}")
    catalog = fresh_catalog(target, fix)
    server = build_server(catalog, base_url=base_url, credentials=target.credentials,
                          timeout=timeout)
    where = "stdio" if transport == "stdio" else f"http://{host}:{port}/mcp"
    # stdout carries the protocol on stdio: status goes to stderr.
    click.echo(f"toolcat serve: {target.name} ({len(catalog['tools'])} tools) on {where}",
               err=True)
    if transport == "stdio":
        anyio.run(run_stdio, server)
    else:
        anyio.run(run_http, server, host, port)
