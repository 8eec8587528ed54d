"""What an eval run and its samples hold for the eval view beyond the neutral model:
:class:`EvalRun` (``Run.detail``) and each sample step's
:class:`~.samples.Sample` (``Step.detail``); :func:`confusion` of a run from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Kind, Run
from trajtui.formats.eval_results.confusion import Confusion, confusion_of
from trajtui.formats.eval_results.samples import Sample


@dataclass(frozen=True, slots=True)
class EvalRun:
    """A results file's run-level values as the file has them (None: absent), and its
    confusion table counted over all its samples.

    Attributes:
        correct: ``correct``.
        total: ``total``.
        method: ``method``.
        model: ``model``.
        k: ``k``.
        confusion: The table over every sample, or None when it was not counted (too many
            distinct pairs, or no sample).
    """

    correct: Any = None
    total: Any = None
    method: Any = None
    model: Any = None
    k: Any = None
    confusion: Confusion | None = None


def confusion(run: Run) -> Confusion:
    """The confusion table of a run's samples: their ground truth against their verdict
    (absent counts as null, so failed samples count as (gt, null)). The table counted over
    all its samples when the run has it, else over the samples it kept as steps."""
    detail = run.detail
    if isinstance(detail, EvalRun) and detail.confusion is not None:
        return detail.confusion
    return confusion_of(
        (s.detail.gt_verdict, s.detail.verdict)
        for s in run.steps
        if s.kind is Kind.SAMPLE and isinstance(s.detail, Sample)
    )
