"""What ``trajtui validate`` prints: one :class:`FileReport` per result file, its verdict,
and where it shows (plan and step), in the order the files were read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.formats.ultraplan.runs import PlanRecord, ResultFile
from trajtui.formats.ultraplan.verdict import Finding, Judgement, Rule


@dataclass(frozen=True, slots=True)
class FileReport:
    """The validation of one result file (a line of ``trajtui validate``).

    Attributes:
        path: The result file.
        judgement: Its verdict and reasons.
        plan_id: The plan it belongs to, when known.
        ref: The step it is shown as (``03-01/step-2``), when it could be read.
        status: Its status word.
        variant: ``snake`` or ``camel``, when it could be read.
        line: The line a read error is on.
    """

    path: str
    judgement: Judgement
    plan_id: str | None = None
    ref: str | None = None
    status: str | None = None
    variant: str | None = None
    line: int | None = None

    def text(self) -> str:
        """``PATH: VERDICT: reason; reason``."""
        return f"{self.path}: {self.judgement.text()}"

    def to_json(self) -> dict[str, Any]:
        """One JSON object for ``validate --json``."""
        return {
            "path": self.path,
            **self.judgement.to_json(),
            "plan": self.plan_id,
            "ref": self.ref,
            "status": self.status,
            "variant": self.variant,
            "line": self.line,
        }


def file_reports(
    files: Sequence[ResultFile], plans: Iterable[PlanRecord], ref_of: Callable[[str], str | None]
) -> list[FileReport]:
    """The validation of every result file, in ``files`` order.

    Args:
        files: Every result file read, including those that could not be read.
        plans: The plans, each with its files in step order and their judgements.
        ref_of: The reference a plan is listed under, from its plan id.
    """
    steps: dict[str, tuple[str, Judgement]] = {}
    for plan in plans:
        ref = ref_of(plan.plan_id)
        for n, (f, j) in enumerate(zip(plan.files, plan.judgements, strict=True), 1):
            steps[f.path] = (f"{ref}/step-{n}", j)
    out: list[FileReport] = []
    for f in files:
        if f.result is None:
            assert f.problem is not None
            where = f"line {f.problem.line}: " if f.problem.line else ""
            finding = Finding(Rule.READ, f"not read: {where}{f.problem.message}", True)
            out.append(FileReport(f.path, Judgement.of([finding]), line=f.problem.line))
            continue
        ref, judgement = steps[f.path]
        out.append(
            FileReport(
                f.path,
                judgement,
                plan_id=f.result.plan_id,
                ref=ref,
                status=f.result.status,
                variant=f.result.variant,
            )
        )
    return out
