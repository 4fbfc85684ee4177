"""black's formatting of the Python toolcat writes, and the key that names its output.

black's output is a pure function of its input text, its version and its mode:
``black_key`` names all three, so a formatter may remember black's answers by that key
(cache/formatted.py) without ever reading a module back from disk.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from ..identity import installed_version
from ..vocab.digests import sha256_hex as _sha256
from .escape import Escaped

# black's mode, spelled out once: it is both what black runs with and part of the
# rendered digest, so changing it here re-formats every module.
TARGET_VERSION = "PY311"
LINE_LENGTH = 88


def black_key(text: str) -> str:
    """Digest of everything black's output depends on: version, mode, input (the
    version as the folder's record names it, without importlib.metadata's 2 ms)."""
    key = f"black=={installed_version('black')}\0{TARGET_VERSION}\0{LINE_LENGTH}\0{text}"
    return _sha256(key.encode())


def black_format(text: str) -> str:
    # Imported here: black takes 0.3 s to import, and a check that reuses the
    # module on disk never needs it.
    import black  # noqa: PLC0415
    from black.mode import TargetVersion  # noqa: PLC0415

    mode = black.Mode(target_versions={TargetVersion[TARGET_VERSION]}, line_length=LINE_LENGTH)
    return black.format_str(text, mode=mode)


class NotBlackStyle(Exception):
    """A value whose spelling in black's style ``black_literal`` does not know."""


# Printable ASCII but quotes and backslash: black writes such a string "like this".
_PLAIN = re.compile(r"[ !#-&(-\[\]-~]*")


def black_literal(value: object) -> Escaped:
    """``pyrepr`` as black spells it, for strings whose spelling is known for sure
    (printable ASCII without quotes or backslashes: in double quotes, as black's string
    normalisation writes them); anything else raises ``NotBlackStyle``, so that black
    decides."""
    if isinstance(value, str) and _PLAIN.fullmatch(value) is not None:
        return Escaped(f'"{value}"')
    raise NotBlackStyle(repr(value))


def fits(text: str) -> bool:
    """Every line of ``text`` within black's line length."""
    return all(len(line) <= LINE_LENGTH for line in text.splitlines())


def ruff_prepared(text: str) -> str:
    """``text`` as ruff's formatter writes it in black's mode, for black to check.

    ruff formats in black's style, ~100 times faster: where its output is black's (nearly
    always: tests/models/test_models_formatting.py), black's first pass leaves it
    unchanged and black skips its second pass; where it is not, black reformats it to
    its own. black decides the bytes either way. Where ruff fails or is missing, ``text``."""
    # Imported here: only models.py, the one big module black formats, needs it.
    import subprocess  # noqa: PLC0415

    try:
        from ruff import find_ruff_bin  # noqa: PLC0415

        command = [find_ruff_bin(), "format", "--isolated", "--quiet",
                   f"--line-length={LINE_LENGTH}",
                   f"--target-version={TARGET_VERSION.lower()}", "-"]
        done = subprocess.run(command, input=text.encode(), capture_output=True,
                              check=False)
    except (ImportError, OSError):   # not installed, or its binary missing
        return text
    return done.stdout.decode() if done.returncode == 0 else text


# --- black reads each repeated class-body statement once ---------------------------

_PLACEHOLDER = "_toolcat_repeat_"
# One statement of a top-level class body, as black reads it: which kind of line it
# makes (a docstring, an annotated or a plain assignment) and whether it comes first.
_Kind = str
_SHAPES: dict[_Kind, str] = {"doc": '    """{}"""', "ann": "    {}: int", "set": "    {} = 0"}


Slot = tuple[int, int]   # (ordinal of the top-level class, index in its body)


@dataclass(frozen=True)
class _Reduced:
    lengths: list[int]                      # each top-level class's number of statements
    repeats: list[tuple[Slot, Slot, str]]   # (a repeat, its first occurrence, placeholder)


def format_repeats_once(text: str, black: Callable[[str], str]) -> str:
    """``black(text)``, with black reading each repeated class-body statement once.

    black formats a statement of a class body from its own text, its depth and whether
    it comes first in the body (a string there is the docstring): what comes before or
    after it only decides the blank lines around it, by the kind of line it makes (a
    docstring, an assignment). So every repeat of a statement (the same text, kind and
    position, on lines of its own between blank lines) is given to black as a short
    statement of the same kind and position, and gets the text black wrote for its
    first occurrence: the bytes are black's on the whole text
    (tests/models/test_models_formatting.py compares them), for a third of the work on
    Stripe's models. Text this cannot read so (comments, ``fmt:`` directives, carriage
    returns, placeholders' names taken) goes to black whole."""
    plan = _repeats(text)
    if plan is None:
        return black(text)
    reduced, repeats = plan
    expanded = _expanded(black(reduced), repeats)
    return black(text) if expanded is None else expanded


def _repeats(text: str) -> tuple[str, _Reduced] | None:
    """``text`` with each repeated statement as a placeholder, and where they were."""
    if any(mark in text for mark in ("\r", "\f", "fmt:", _PLACEHOLDER)):
        return None
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    lines = text.split("\n")
    firsts: dict[tuple[_Kind, bool, str], tuple[int, int]] = {}
    plan = _Reduced(lengths=[], repeats=[])
    replaced: dict[int, tuple[int, str]] = {}   # first line (0-based) -> (end, placeholder)
    classes = [(node, _start(tree.body[at + 1]) if at + 1 < len(tree.body) else len(lines) + 1)
               for at, node in enumerate(tree.body) if isinstance(node, ast.ClassDef)]
    for number, (node, after) in enumerate(classes):
        plan.lengths.append(len(node.body))
        for index, stmt, segment, kind in _own_lines(node, after, lines):
            key = (kind, index == 0, segment)
            if key not in firsts:
                firsts[key] = (number, index)
                continue
            line = _SHAPES[kind].format(f"{_PLACEHOLDER}{len(plan.repeats)}")
            if len(line) >= len(segment):
                continue
            plan.repeats.append(((number, index), firsts[key], line))
            replaced[stmt.lineno - 1] = (stmt.end_lineno or stmt.lineno, line)
    if not plan.repeats:
        return None
    out: list[str] = []
    at = 0
    for start in sorted(replaced):
        end, line = replaced[start]
        out.extend(lines[at:start])
        out.append(line)
        at = end
    out.extend(lines[at:])
    return "\n".join(out), plan


def _own_lines(node: ast.ClassDef, after: int, lines: list[str]
               ) -> Iterator[tuple[int, ast.stmt, str, _Kind]]:
    """The statements of ``node``'s body that black may read once: each alone on its
    lines, with only blank lines between it and its neighbours (``after``: the first
    line of what follows the class), without comments."""
    body = node.body
    for index, stmt in enumerate(body):
        kind = _kind_of(stmt)
        end = stmt.end_lineno or stmt.lineno
        if kind is None or stmt.col_offset != 4 or stmt.end_col_offset is None:
            continue
        segment = "\n".join(lines[stmt.lineno - 1:end])
        if (stmt.end_col_offset != len(lines[end - 1].encode())
                or not segment.startswith("    ") or segment[4].isspace()
                or (kind != "doc" and "#" in segment)
                or (kind == "doc" and not segment.startswith('    """'))):
            continue
        if index == 0 and not lines[node.lineno - 1].rstrip().endswith(":"):
            continue   # a class statement on several lines
        before = (body[index - 1].end_lineno or 0) if index else node.lineno
        following = body[index + 1].lineno if index + 1 < len(body) else after
        if _blank(lines, before, stmt.lineno - 1) and _blank(lines, end, following - 1):
            yield index, stmt, segment, kind


def _kind_of(stmt: ast.stmt) -> _Kind | None:
    if isinstance(stmt, ast.AnnAssign):
        return "ann"
    if isinstance(stmt, ast.Assign):
        return "set"
    # A string: the docstring when first, else a field's (black formats it alone).
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) \
            and isinstance(stmt.value.value, str):
        return "doc"
    return None


def _start(node: ast.stmt) -> int:
    """The first line of a top-level statement (of its decorators, if any)."""
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def _blank(lines: list[str], after: int, upto: int) -> bool:
    """Lines ``after`` + 1 to ``upto`` (1-based, inclusive) are empty."""
    return all(not lines[n].strip() for n in range(after, upto))


def _expanded(formatted: str, plan: _Reduced) -> str | None:
    """black's text of the reduced module with each placeholder as black wrote the
    statement's first occurrence; None where the text is not shaped as expected."""
    try:
        tree = ast.parse(formatted)
    except SyntaxError:
        return None
    bodies = [node.body for node in tree.body if isinstance(node, ast.ClassDef)]
    if [len(body) for body in bodies] != plan.lengths:
        return None
    lines = formatted.split("\n")
    swaps: dict[int, list[str]] = {}
    for (cls, index), (first_cls, first_index), placeholder in plan.repeats:
        stmt, first = bodies[cls][index], bodies[first_cls][first_index]
        if stmt.end_lineno != stmt.lineno or lines[stmt.lineno - 1] != placeholder:
            return None
        swaps[stmt.lineno - 1] = lines[first.lineno - 1:first.end_lineno]
    return "\n".join(part for n, line in enumerate(lines)
                     for part in swaps.get(n, (line,)))
