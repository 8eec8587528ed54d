"""What a run's samples say, counted as they stream past (:class:`Tally`), and the status
words of a sample and of a run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from trajtui.core.model import Outcome
from trajtui.core.values import num
from trajtui.formats.eval_results.confusion import label_of
from trajtui.formats.eval_results.samples import Sample

MAX_PAIRS = 1_000
"""Distinct (gt_verdict, verdict) pairs counted for a confusion table."""


@dataclass(slots=True)
class Tally:
    """What a run's samples say, counted: every number of a run's row and header comes
    from one (so a file of 10 million samples is counted whole while only its first
    :data:`~.reading.MAX_SAMPLES` are kept).

    Attributes:
        samples: Samples counted.
        errors: Samples with an ``error``.
        parse_errors: Samples whose response could not be parsed.
        with_gt: Samples with a ground truth (``gt_verdict`` not null).
        costs: Samples with a cost; ``cost`` is their sum.
        latencies: Samples with a latency; ``latency_ms`` is their sum.
        tokens_in: The sum of the samples' input tokens (None when no sample says).
        tokens_out: The sum of the samples' output tokens (None when no sample says).
        pairs: Samples by (gt_verdict, verdict) label; ``pairs_over`` when there were more
            than :data:`MAX_PAIRS` distinct pairs (the table is then not shown).
    """

    samples: int = 0
    errors: int = 0
    parse_errors: int = 0
    with_gt: int = 0
    costs: int = 0
    cost: float = 0.0
    latencies: int = 0
    latency_ms: float = 0.0
    tokens_in: int | None = None
    tokens_out: int | None = None
    pairs: Counter[tuple[str | None, str | None]] = field(default_factory=Counter)
    pairs_over: bool = False

    def add(self, sample: Sample) -> None:
        """Count one sample."""
        self.samples += 1
        self.errors += sample.error is not None
        self.parse_errors += sample.parse_error is not None
        self.with_gt += sample.gt_verdict is not None
        if sample.cost is not None:
            self.costs += 1
            self.cost += sample.cost
        if sample.latency_ms is not None:
            self.latencies += 1
            self.latency_ms += sample.latency_ms
        self.tokens_in = _plus(self.tokens_in, sample.tokens_in)
        self.tokens_out = _plus(self.tokens_out, sample.tokens_out)
        pair = (label_of(sample.gt_verdict), label_of(sample.verdict))
        if pair in self.pairs or len(self.pairs) < MAX_PAIRS:
            self.pairs[pair] += 1
        else:
            self.pairs_over = True

    @classmethod
    def of(cls, samples: Iterable[Sample], passed: Tally | None = None) -> Tally:
        """The tally of ``samples``, and of the samples ``passed`` counted."""
        out = cls()
        for sample in samples:
            out.add(sample)
        if passed is not None:
            out.samples += passed.samples
            out.errors += passed.errors
            out.parse_errors += passed.parse_errors
            out.with_gt += passed.with_gt
            out.costs += passed.costs
            out.cost += passed.cost
            out.latencies += passed.latencies
            out.latency_ms += passed.latency_ms
            out.tokens_in = _plus(out.tokens_in, passed.tokens_in)
            out.tokens_out = _plus(out.tokens_out, passed.tokens_out)
            for pair, n in passed.pairs.items():
                if pair in out.pairs or len(out.pairs) < MAX_PAIRS:
                    out.pairs[pair] += n
                else:
                    out.pairs_over = True
            out.pairs_over |= passed.pairs_over
        return out


def _plus(total: int | None, value: int | None) -> int | None:
    """``total + value``, where None is "no sample said so far" (not 0)."""
    if value is None:
        return total
    return value if total is None else total + value


def sample_status(sample: Sample) -> tuple[str, Outcome]:
    """The status word of a sample: ``error``, ``correct``, ``wrong`` or ``ungraded``."""
    if sample.error is not None:
        return "error", Outcome.ERROR
    if sample.correct is True:
        return "correct", Outcome.PASS
    if sample.correct is False:
        return "wrong", Outcome.FAIL
    return "ungraded", Outcome.NONE


def run_status(tally: Tally, total: Any) -> tuple[str, Outcome]:
    """The status word of a run: ``empty``, ``error``, ``partial``, ``graded``, ``ungraded``."""
    if not tally.samples:
        return "empty", Outcome.NONE
    if tally.errors == tally.samples:
        return "error", Outcome.ERROR
    if tally.errors:
        return "partial", Outcome.PARTIAL
    graded = (num(total) or 0) > 0 or tally.with_gt > 0
    return ("graded", Outcome.DONE) if graded else ("ungraded", Outcome.DONE)
