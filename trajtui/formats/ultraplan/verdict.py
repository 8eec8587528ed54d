"""What validating a result yields: a :class:`Verdict` and its reasons (:class:`Finding`,
each from a :class:`Rule`), together a :class:`Judgement`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from trajtui.core.io.text import visible


class Verdict(StrEnum):
    """The protocol's validation outcomes."""

    VALID = "VALID"
    VALID_WITH_WARNINGS = "VALID_WITH_WARNINGS"
    INVALID = "INVALID"


class Rule(StrEnum):
    """Which validation rule a finding comes from."""

    READ = "read"
    SCHEMA = "schema"
    STATUS = "status"
    TASK = "task"
    FILES = "files"
    LOG = "log"


@dataclass(frozen=True, slots=True)
class Finding:
    """One reason for a verdict.

    Attributes:
        rule: The rule broken.
        message: One line saying what is wrong.
        critical: A critical violation (INVALID) rather than a warning.
    """

    rule: Rule
    message: str
    critical: bool = False


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one result and its reasons (critical ones first)."""

    verdict: Verdict
    findings: tuple[Finding, ...] = ()

    @classmethod
    def of(cls, findings: Iterable[Finding]) -> Judgement:
        """The judgement that ``findings`` make."""
        found = sorted(
            (
                Finding(f.rule, visible(f.message, keep_newlines=False), f.critical)
                for f in findings
            ),
            key=lambda f: not f.critical,
        )
        if any(f.critical for f in found):
            verdict = Verdict.INVALID
        elif found:
            verdict = Verdict.VALID_WITH_WARNINGS
        else:
            verdict = Verdict.VALID
        return cls(verdict, tuple(found))

    @property
    def reasons(self) -> tuple[str, ...]:
        """The findings' messages."""
        return tuple(f.message for f in self.findings)

    def text(self) -> str:
        """``VERDICT`` or ``VERDICT: reason; reason``."""
        return f"{self.verdict}: {'; '.join(self.reasons)}" if self.findings else str(self.verdict)

    def to_json(self) -> dict[str, Any]:
        """The verdict and findings as JSON data."""
        return {
            "verdict": self.verdict.value,
            "reasons": list(self.reasons),
            "findings": [
                {
                    "rule": f.rule.value,
                    "severity": "critical" if f.critical else "warning",
                    "message": f.message,
                }
                for f in self.findings
            ],
        }


def tally(judgements: Iterable[Judgement]) -> str:
    """``2 VALID, 1 INVALID``: how many results of each verdict (``none`` without any)."""
    found = list(judgements)
    counts = {v: sum(1 for j in found if j.verdict is v) for v in Verdict}
    return ", ".join(f"{n} {v}" for v, n in counts.items() if n) or "none"
