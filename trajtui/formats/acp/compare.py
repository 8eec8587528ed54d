"""acp-harness ``compare`` per-prompt results: how several runs of the same prompts ranked.

``acp-harness compare`` reads the capture files of several runs (labelled by file name:
``you.jsonl`` is run ``you``) and writes, for each prompt present in at least two of them,
one record::

    {"id": "search-1", "input": "...", "hint": "...",
     "rankings": [{"run": "you", "rank": 1, "score": 0.76, "metadata": {...}}, ...],
     "reasoning": "you ranked #1 (score: 0.76, ...)"}

Here each record is a run of the list: its title the prompt, its status the winner
(``you #1``), its score the winner's score (labelled so), and one step per ranked run, in
rank order, naming the run and where its own record is (``you.jsonl::search-1``: a file of
that name opened beside this one, the way the harness names runs). The rankings' metadata
and the reasoning are kept as the file has them.
"""

from __future__ import annotations

from typing import Any

from trajtui.core.io.text import flat, one_line
from trajtui.core.model import Field, Kind, Outcome, Run, RunSummary, Step
from trajtui.core.source import FormatInfo
from trajtui.core.values import (
    fields,
    flat_metadata,
    mapping,
    num,
    sequence,
    string,
    text_of,
)

COMPARE = FormatInfo("acp-compare", "acp-harness compare")


def is_compare(obj: dict[str, Any]) -> bool:
    """A compare record: ``rankings`` is an array of objects naming a ``run``."""
    rankings = obj.get("rankings")
    return (
        isinstance(rankings, list)
        and bool(rankings)
        and all(isinstance(r, dict) and "run" in r for r in rankings)
    )


def _ranked(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """The rankings, best rank first (file order where ranks tie or are missing)."""
    rows = [mapping(r) for r in sequence(obj.get("rankings"))]
    order = sorted(
        range(len(rows)),
        key=lambda k: (num(rows[k].get("rank")) is None, num(rows[k].get("rank")) or 0, k),
    )
    return [rows[k] for k in order]


def _label(value: Any) -> str:
    text = string(value)
    return one_line(text) if text is not None else one_line(str(value))


class CompareFormat:
    """One record per prompt, ranking the runs compared on it."""

    key = "id"
    lite: Any = None
    info = COMPARE

    def check(self, obj: dict[str, Any]) -> str | None:
        if not is_compare(obj):
            return '"rankings" is not an array of {run, rank, score}: not a compare record'
        return None

    def summarize(self, obj: dict[str, Any], ref: str, index: int, line: int) -> RunSummary:
        ranked = _ranked(obj)
        best = ranked[0] if ranked else {}
        winner = _label(best.get("run")) if best else None
        score = num(best.get("score"))
        return RunSummary(
            ref=ref,
            index=index,
            format=COMPARE.id,
            status=f"{winner} #1" if winner else None,
            outcome=Outcome.NONE,
            steps=len(ranked),
            score=score,
            score_label=f"score of {winner}, ranked #1" if score is not None else None,
            title=flat(text_of(obj.get("input"))),
            line=line,
            metadata=_metadata(obj, winner),
        )

    def _steps(self, obj: dict[str, Any], ref: str) -> tuple[Step, ...]:
        rid = string(obj.get("id")) or ref
        steps = []
        for n, r in enumerate(_ranked(obj), 1):
            run = _label(r.get("run"))
            rank = num(r.get("rank"))
            score = num(r.get("score"))
            rank_text = f"#{rank:g}" if rank is not None else "unranked"
            score_text = f" · score {score:g}" if score is not None else ""
            steps.append(
                Step(
                    ref=f"{ref}/step-{n}",
                    number=n,
                    kind=Kind.RESULT,
                    title=f"{rank_text} {run}{score_text}",
                    fields=(
                        Field("run", r.get("run")),
                        Field("rank", r.get("rank")),
                        Field("score", r.get("score")),
                        *((Field("metadata", r["metadata"]),) if "metadata" in r else ()),
                        Field("its record", f"{run}.jsonl::{rid}"),
                    ),
                    raw=r,
                )
            )
        return tuple(steps)

    def build(self, obj: dict[str, Any], ref: str, index: int, line: int) -> Run:
        ranked = _ranked(obj)
        winner = _label(ranked[0].get("run")) if ranked else None
        return Run(
            summary=self.summarize(obj, ref, index, line),
            steps=self._steps(obj, ref),
            fields=fields(obj, ("input", "hint", "reasoning"), skip=("id", "rankings")),
            raw=obj,
            metadata=_metadata(obj, winner),
        )


def _metadata(obj: dict[str, Any], winner: str | None) -> tuple[tuple[str, str], ...]:
    """The record's metadata, flat, and ``winner``: the run ranked first."""
    meta = flat_metadata(obj.get("metadata"))
    return (*meta, ("winner", winner)) if winner is not None else meta
