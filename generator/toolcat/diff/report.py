"""Render classified changes: Markdown for a pull-request comment, text for a terminal.

The Markdown shape lives in ``templates/diff.md.jinja``. The terminal text is
a few indented lines per tool, coloured only when asked (the command asks when
stdout is a terminal). Identical catalogs render as nothing at all.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import click

from ..catalog.reader import parse_catalog
from ..errors import ToolcatError
from ..text.templates import environment
from .classify import CatalogDiff, Change, ToolDiff, diff_catalogs

TEMPLATE = "diff.md.jinja"
ORDER = {"removed": 0, "changed": 1, "added": 2}
# The same change in this many changed tools is reported once, with the tools named.
GROUP_MIN = 3
SHOWN_NAMES = 8


@dataclass(frozen=True)
class Group:
    """One change made identically to several tools (a security scheme added to 32)."""

    change: Change            # the first tool's; only severity, subject, detail are shown
    tools: tuple[str, ...]

    def names(self, limit: int | None = None) -> str:
        shown = self.tools if limit is None else self.tools[:limit]
        more = len(self.tools) - len(shown)
        return ", ".join(shown) + (f" and {more} more" if more else "")


def _key(change: Change) -> tuple[str, str, str, str]:
    return (change.severity, change.kind, change.subject, change.detail)


def shared(diff: CatalogDiff) -> list[Group]:
    """Changes made identically to at least GROUP_MIN changed tools, breaking first."""
    tools: dict[tuple[str, str, str, str], list[Change]] = defaultdict(list)
    for tool in ordered(diff, "changed"):
        for change in dict.fromkeys(tool.changes):
            tools[_key(change)].append(change)
    groups = [Group(found[0], tuple(c.tool for c in found))
              for found in tools.values() if len(found) >= GROUP_MIN]
    return sorted(groups, key=lambda g: (not g.change.breaking, g.change.subject,
                                         g.change.detail))


def unshared(diff: CatalogDiff, groups: list[Group]) -> list[ToolDiff]:
    """Each changed tool with only the changes no group reports; tools left empty go."""
    grouped = {_key(g.change) for g in groups}
    tools = [ToolDiff(t.name, t.status, tuple(c for c in t.changes if _key(c) not in grouped))
             for t in ordered(diff, "changed")]
    return [t for t in tools if t.changes]


def ordered(diff: CatalogDiff, status: str | None = None) -> list[ToolDiff]:
    """Removed tools first, then changed, then added: the breaking ones lead."""
    tools = sorted(diff.tools, key=lambda t: (ORDER[t.status], t.name))
    return [t for t in tools if status is None or t.status == status]


def render_markdown(diffs: list[CatalogDiff], templates: Path | None = None) -> str:
    changed = [d for d in diffs if d.tools]
    if not changed:
        return ""
    env = environment(templates)
    env.globals["ordered"] = ordered
    env.globals["shared"] = shared
    env.globals["unshared"] = unshared
    text = env.get_template(TEMPLATE).render(catalogs=changed)
    return text.rstrip("\n") + "\n"


def summary_line(diff: CatalogDiff) -> str:
    counts = ", ".join(f"{diff.status_count(s)} {s}" for s in ("added", "removed", "changed"))
    sizes = f"{_size(diff.old_count)} -> {_size(diff.new_count)} tools"
    return (f"{diff.breaking} breaking, {diff.compatible} compatible "
            f"change{'s' if diff.compatible != 1 else ''} in {len(diff.tools)} "
            f"tool{'s' if len(diff.tools) != 1 else ''} ({counts}); {sizes}")


def _size(count: int | None) -> str:
    return "no catalog" if count is None else str(count)


def render_text(diffs: list[CatalogDiff], colour: bool = False) -> str:
    lines: list[str] = []
    for diff in diffs:
        if not diff.tools:
            continue
        title = f"{diff.name} ({diff.label})" if diff.label else diff.name
        lines.append(f"{_style(title, colour, bold=True)}: {summary_line(diff)}")
        lines += tool_lines(diff, colour)
    return "".join(f"{line}\n" for line in lines)


def tool_lines(diff: CatalogDiff, colour: bool) -> list[str]:
    lines = []
    for tool in ordered(diff, "removed"):
        change = tool.changes[0]
        lines.append(f"  - {tool.name}  {_severity(change, colour)}  {change.detail}")
    groups = shared(diff)
    for group in groups:
        change = group.change
        lines.append(f"  * {len(group.tools)} tools  {_severity(change, colour)}  "
                     f"{change.subject}: {change.detail}")
        lines.append(f"      in {group.names(SHOWN_NAMES)}")
    besides = " besides the shared changes" if groups else ""
    for tool in unshared(diff, groups):
        counts = f"{tool.breaking} breaking, {len(tool.changes) - tool.breaking} compatible"
        lines.append(f"  ~ {tool.name}  ({counts}{besides})")
        lines += [f"      {_severity(c, colour)}  {c.subject}: {c.detail}"
                  for c in tool.changes]
    for tool in ordered(diff, "added"):
        change = tool.changes[0]
        lines.append(f"  + {tool.name}  {_severity(change, colour)}  {change.detail}")
    return lines


def _severity(change: Change, colour: bool) -> str:
    word = "BREAKING  " if change.breaking else "compatible"
    return _style(word, colour, fg="red" if change.breaking else "green",
                  bold=change.breaking)


def _style(text: str, colour: bool, fg: str | None = None, bold: bool = False) -> str:
    return click.style(text, fg=fg, bold=bold) if colour else text


def stale_summary(old_catalog_json: bytes | None, new_catalog_json: bytes,
                  limit: int = 40) -> str:
    """What a stale catalog.json lacks, in tools, for ``toolcat check`` to print first.

    Empty when the bytes are equal; otherwise indented lines ending in a newline:
    tools added, removed and changed, each change classified, at most ``limit``
    lines (``toolcat diff`` shows all of them).
    """
    if old_catalog_json == new_catalog_json:
        return ""
    new = parse_catalog(new_catalog_json, "catalog.json (generated)")
    if old_catalog_json is None:
        return f"  catalog.json is missing: all {len(new.tools)} tools would be added\n"
    try:
        old = parse_catalog(old_catalog_json, "catalog.json on disk")
    except ToolcatError as exc:
        return (f"  catalog.json on disk is not a readable catalog "
                f"({exc.problems[0].message}); regenerating rewrites it whole\n")
    diff = diff_catalogs(old, new)
    if not diff.tools:
        fields = sorted(k for k in set(old.meta) | set(new.meta)
                        if old.meta.get(k) != new.meta.get(k))
        what = ", ".join(fields) if fields else "formatting only"
        return f"  tools unchanged; catalog fields that differ: {what}\n"
    lines = [f"  tools: {summary_line(diff)}", *[f"  {line}" for line in
                                                 tool_lines(diff, colour=False)]]
    if len(lines) > limit:
        rest = len(lines) - limit + 1
        lines = [*lines[:limit - 1], f"  ... {rest} more lines: run `toolcat diff OLD NEW` "
                 "or `toolcat diff --base REV` for all of them"]
    return "".join(f"{line}\n" for line in lines)
