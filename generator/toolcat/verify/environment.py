"""The environment a ``--command`` server starts with, and the values verify never prints.

The server inherits the caller's environment, as any command a shell starts does
(the SDK would otherwise pass only a handful of variables, and a token exported in
the shell never reaches the server). ``--env NAME`` passes only the named
variables beside the SDK's minimal set.

No value of an environment variable reaches verify's output: the command as
echoed shows ``NAME=***`` for an assignment (``env TOKEN=... toolcat serve``), and
every rendered line has the values of the passed variables, the catalog's
credential variables and any variable whose name says it is a secret replaced by
``***`` (the server's stderr or an error text may echo them).
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping

from ..errors import Problem, ToolcatError, fail

MASK = "***"
MIN_SECRET = 4            # shorter values would mask ordinary words
_SECRET_NAME = re.compile(r"TOKEN|SECRET|PASSW|KEY|CREDENTIAL|AUTH|COOKIE|SESSION",
                          re.IGNORECASE)
_ASSIGNMENT = re.compile(r"^([A-Za-z_][A-Za-z0-9_]*)=(.+)$")


def server_environment(only: Iterable[str], environ: Mapping[str, str]) -> dict[str, str]:
    """Everything in ``environ``; with names, the SDK's minimal set and those names
    (a name that is not set is an error: the server would start without it)."""
    names = list(only)
    if not names:
        return dict(environ)
    from mcp.client.stdio import get_default_environment  # noqa: PLC0415

    missing = [n for n in names if n not in environ]
    if missing:
        raise fail("--env", "", f"not set in this environment: {', '.join(missing)}",
                   "export the variable first, or drop --env to pass the whole environment")
    return {**get_default_environment(), **{n: environ[n] for n in names}}


def secrets(command: str, passed: Iterable[str], credentials: Iterable[str],
            environ: Mapping[str, str]) -> list[str]:
    """The values to mask, longest first (so a value containing another goes whole)."""
    values = {value for name, value in _assignments(command)}
    values |= {environ[n] for n in (*passed, *credentials) if n in environ}
    values |= {v for n, v in environ.items() if _SECRET_NAME.search(n)}
    return sorted((v for v in values if len(v) >= MIN_SECRET), key=lambda v: (-len(v), v))


def redact(text: str, values: Iterable[str]) -> str:
    for value in values:
        text = text.replace(value, MASK)
    return text


def redact_error(error: ToolcatError, values: list[str]) -> ToolcatError:
    return ToolcatError(Problem(redact(p.file, values), p.location, redact(p.message, values),
                                redact(p.fix, values)) for p in error.problems)


def command_label(command: str) -> str:
    """The command as echoed, as given but for the value of each ``NAME=value`` word."""
    return redact(command, sorted({v for _, v in _assignments(command)}, key=lambda v: -len(v)))


def _assignments(command: str) -> list[tuple[str, str]]:
    try:
        words = shlex.split(command)
    except ValueError:
        return []
    return [(m.group(1), m.group(2)) for m in map(_ASSIGNMENT.match, words) if m]
