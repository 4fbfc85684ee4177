"""What the OpenAPI validator found, counted once per distinct problem, and how to say it.

The validator repeats itself (one bad shared schema is reported from every place
that reaches it), so problems are kept once each, in the order first found, with
how often each came. Both modes print the same report: at most ``SHOWN`` distinct
problems, then one line saying how many more there are, never a silent cut.

``validation: strict`` (the default) refuses the document and names the setting
that would let it through; ``validation: warn`` prints the report as warnings and
lets generation go on: toolcat's own guards (a ``$ref`` a tool needs that does not
resolve, a schema that is not valid JSON Schema) still stop the run.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ...errors import Problem, ToolcatError

SHOWN = 20
SETTING = ("to generate anyway, set `validation: warn` on the catalog in the config, or "
           "pass `--validation warn` to an ad hoc run; to correct a document you do not "
           "own, keep each fix in an OpenAPI Overlay beside it (docs/validation.md)")


@dataclass(frozen=True)
class Findings:
    file: str
    counted: tuple[tuple[Problem, int], ...] = ()   # distinct problems, first found first
    own: int = 0    # of them, found by toolcat's own readers (a key written twice...)

    @classmethod
    def of(cls, file: str, problems: Iterable[Problem]) -> Findings:
        counts: dict[Problem, int] = {}
        for problem in problems:
            counts[problem] = counts.get(problem, 0) + 1
        return cls(file, tuple(counts.items()))

    def plus(self, problems: Iterable[Problem]) -> Findings:
        """These findings and what toolcat's own readers found, judged the same way:
        refused in strict mode, warnings in warn mode."""
        found = Findings.of(self.file, problems).counted
        return Findings(self.file, self.counted + found, self.own + len(found))

    @property
    def total(self) -> int:
        return sum(n for _, n in self.counted)

    @property
    def verdict(self) -> str:
        return "invalid" if self.counted else "valid"

    def report(self, shown: int = SHOWN) -> list[Problem]:
        """The first ``shown`` distinct problems, each with its count, then what was cut."""
        out = [p if n == 1 else Problem(p.file, p.location, f"{p.message} ({n} times)", p.fix)
               for p, n in self.counted[:shown]]
        rest = self.counted[shown:]
        if rest:
            more = _count(sum(n for _, n in rest), "more validator problem")
            out.append(Problem(self.file, rest[0][0].location,
                               f"and {more} ({len(rest)} distinct) not shown, the first here"))
        return out

    @property
    def first(self) -> str:
        """Where the first problem is: a summary line is located too."""
        return self.counted[0][0].location if self.counted else ""

    def summary(self) -> str:
        who = "the OpenAPI validator" if self.own < len(self.counted) else ""
        who = " and ".join(w for w in (who, "toolcat's reader" if self.own else "") if w)
        return (f"{who} found {_count(self.total, 'problem')} "
                f"({len(self.counted)} distinct), the first here")


def refusal(findings: Findings) -> ToolcatError:
    """Strict mode: the report, then the total and the setting that would pass it."""
    return ToolcatError([*findings.report(),
                         Problem(findings.file, findings.first, f"refused: {findings.summary()} "
                                 "(validation: strict)", SETTING)])


def warnings(findings: Findings) -> list[str]:
    """Warn mode: the report as warning lines for stderr, then the total."""
    lines = [f"warning: {p.render()}" for p in findings.report()]
    total = Problem(findings.file, findings.first,
                    f"{findings.summary()}; generated anyway (validation: warn)")
    lines.append(f"warning: {total.render()}")
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
