"""What a verify run found: findings (they fail the run) and notes (they explain it).

A finding is one mismatch, with where it is and what was expected and seen. Every
check adds to one list and nothing stops at the first mismatch: the incident's
second omission stayed hidden exactly because checks failed one at a time.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

# "critical": a full-replace tool lacks a body field, so a caller who omits it
# clears it on the server without any error. Everything else that is wrong is an
# "error"; both fail the run. A "warning" is a difference a caller rarely feels (a
# server that also accepts null for an optional argument, the Python idiom
# ``x: str | None = None``) or an answer that says the check could not really run
# (the API refused the credential): it fails the run only with ``--fail-on warning``.
SEVERITIES = ("critical", "error", "warning")
FAIL_ON = ("error", "warning")
CHECKS = ("parity", "probe", "output")


@dataclass(frozen=True, order=True)
class Finding:
    severity: str
    tool: str
    check: str
    kind: str
    argument: str = ""
    message: str = ""
    expected: str = ""
    actual: str = ""

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES or self.check not in CHECKS:
            raise ValueError(f"unknown severity/check {self.severity}/{self.check}")

    def sort_key(self) -> tuple[int, str, int, str, str, str]:
        return (SEVERITIES.index(self.severity), self.tool, CHECKS.index(self.check),
                self.kind, self.argument, self.message)


@dataclass(frozen=True, order=True)
class Note:
    """Something the run did not check, and why: never a silent skip."""

    tool: str
    message: str


@dataclass(frozen=True)
class Report:
    catalog: str                 # where the catalog was read from
    server: str                  # the command or URL, as given
    protocol: str                # the protocol revision the server agreed to
    checks: tuple[str, ...]      # which of CHECKS ran
    catalog_tools: int
    server_tools: int
    findings: tuple[Finding, ...] = ()
    notes: tuple[Note, ...] = ()
    counts: dict[str, int] = field(default_factory=dict)
    fail_on: str = "error"       # the lowest severity that fails the run (FAIL_ON)

    @property
    def clean(self) -> bool:
        """Nothing found at all, not even a warning."""
        return not self.findings

    @property
    def failed(self) -> bool:
        """A finding at or above ``fail_on``: the run exits 1."""
        worst = SEVERITIES.index(self.fail_on)
        return any(SEVERITIES.index(f.severity) <= worst for f in self.findings)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["clean"] = self.clean
        data["failed"] = self.failed
        return data


def make_report(catalog: str, server: str, protocol: str, checks: tuple[str, ...],
                catalog_tools: int, server_tools: int, findings: list[Finding],
                notes: list[Note], fail_on: str = "error") -> Report:
    ordered = tuple(sorted(set(findings), key=Finding.sort_key))
    counts = {s: sum(1 for f in ordered if f.severity == s) for s in SEVERITIES}
    return Report(catalog, server, protocol, checks, catalog_tools, server_tools, ordered,
                  tuple(sorted(set(notes))), counts, fail_on)
