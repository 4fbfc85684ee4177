"""Errors as values: every problem names a file, a location and a fix.

A location is a JSON pointer into the document (``/paths/~1channels/get``) or
``line N`` for hand-written YAML files. Problems are collected and printed once;
the CLI turns a ``ToolcatError`` into exit code 2 without a traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    file: str
    location: str
    message: str
    fix: str = ""

    def render(self) -> str:
        where = f"{self.file}: {self.location}" if self.location else self.file
        text = f"{where}: {self.message}"
        if self.fix:
            text += f"\n  fix: {self.fix}"
        return text


class ToolcatError(Exception):
    """One or more problems with the user's input; exit code 2."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__(self.render())

    def render(self) -> str:
        return "\n".join(p.render() for p in self.problems)

    @classmethod
    def single(cls, file: str, location: str, message: str, fix: str = "") -> ToolcatError:
        return cls([Problem(file, location, message, fix)])


def fail(file: str, location: str, message: str, fix: str = "") -> ToolcatError:
    """Build a single-problem error, for ``raise fail(...)``."""
    return ToolcatError([Problem(file, location, message, fix)])


def nearest(name: str, candidates: Iterable[str]) -> str:
    """A 'did you mean' suffix naming the closest valid name, or ''."""
    match = difflib.get_close_matches(name, sorted(candidates), n=1, cutoff=0.5)
    return f" (did you mean '{match[0]}'?)" if match else ""
