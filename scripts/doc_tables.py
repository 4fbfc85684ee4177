"""Measurement tables in docs/, written by the target that measures them.

A table lives in its page between ``<!-- table:NAME -->`` and ``<!-- /table:NAME -->``;
``write_table`` replaces what is between the markers (or appends the block) with the
table under a line saying when, on what machine, under what load and by which command
it was measured. Pages are never edited by hand for figures: the next run rewrites them.
"""

from __future__ import annotations

import os
import platform
import re
import shlex
import sys
from datetime import UTC, datetime
from pathlib import Path


def provenance(command: str, when: datetime | None = None) -> str:
    """One line: date, machine (cores, CPU model, memory), load, command."""
    when = when or datetime.now(UTC)
    try:
        load: float | None = os.getloadavg()[0]
    except OSError:
        load = None
    cores = os.cpu_count() or 1
    busy = ""
    if load is not None and load >= cores / 2:
        busy = (" (a busy, shared machine: wall times carry the neighbours' load; CPU "
                "times, user+sys, are what load moves least)")
    said = "unknown" if load is None else f"{load:.1f}"
    return (f"_Measured {when:%Y-%m-%d %H:%M} UTC on {platform.machine()} "
            f"{platform.system()}, {cores} cores{_cpu_model()}{_memory_gib()}, load "
            f"average {said} at the start{busy}; figures are medians unless said "
            f"otherwise; command: `{command}`._")


def _proc(name: str, pattern: str) -> str | None:
    """The first group of `pattern` in /proc/`name` (Linux), or None."""
    try:
        found = re.search(pattern, Path("/proc", name).read_text(), re.M)
    except OSError:
        return None
    return found.group(1).strip() if found else None


def _cpu_model() -> str:
    model = _proc("cpuinfo", r"^model name\s*:\s*(.+)$")
    return f" ({model})" if model else ""


def _memory_gib() -> str:
    kib = _proc("meminfo", r"^MemTotal:\s+(\d+) kB")
    return f", {int(kib) / 1024 / 1024:.0f} GiB" if kib else ""


def write_block(page: Path | None, name: str, table: str) -> None:
    """write_table with the running script's own command line as the command (nothing
    when `page` is None: the script was not asked to --write)."""
    if page is not None:
        script = Path(sys.argv[0])
        write_table(page, name, table,
                    shlex.join([f"{script.parent.name}/{script.name}", *sys.argv[1:]]))


def write_table(page: Path, name: str, table: str, command: str,
                when: datetime | None = None) -> None:
    """Put ``table`` (Markdown) in ``page`` as the block ``name``, with its provenance."""
    start, end = f"<!-- table:{name} -->", f"<!-- /table:{name} -->"
    block = f"{start}\n{provenance(command, when)}\n\n{table.strip()}\n{end}"
    text = page.read_text(encoding="utf-8") if page.exists() else ""
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    if pattern.search(text):
        text = pattern.sub(lambda _: block, text, count=1)
    else:
        text = text.rstrip("\n") + ("\n\n" if text else "") + block + "\n"
    page.write_text(text, encoding="utf-8")
