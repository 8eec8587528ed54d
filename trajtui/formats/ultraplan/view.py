"""What ultraplan plans add to the screens: the validation verdicts of a plan's results in
the header, INVALID and VALID_WITH_WARNINGS results marked on the timeline (from each
result step's :class:`~.verdict.Judgement`), and ``trajtui validate`` by the result capture
protocol's rules."""

from __future__ import annotations

from collections.abc import Iterator

from trajtui.core.model import Run, Step
from trajtui.core.source import Source
from trajtui.formats.ultraplan.runs import PlanRecord
from trajtui.formats.ultraplan.source import UltraplanSource
from trajtui.formats.ultraplan.verdict import Judgement, Verdict, tally
from trajtui.render.view import Badge, Checked, Tone, View


class UltraplanView(View):
    """ultraplan: validation in the header and on the timeline; ``validate``."""

    validates = True
    validation = (
        "result logs, by the result capture protocol's rules; PATH: a project, its "
        ".ultraplan or logs directory, or one result YAML file; VALID, VALID_WITH_WARNINGS "
        "or INVALID (a file that cannot be read is INVALID)"
    )

    def headline(self, run: Run) -> str | None:
        plan = run.detail
        return f"validation: {tally(plan.judgements)}" if isinstance(plan, PlanRecord) else None

    def step_badge(self, step: Step) -> Badge | None:
        judgement = step.detail
        if isinstance(judgement, Judgement) and judgement.verdict is not Verdict.VALID:
            tone = Tone.ERROR if judgement.verdict is Verdict.INVALID else Tone.WARNING
            return Badge(judgement.verdict.value, tone)
        return None

    def validate(self, source: Source) -> Iterator[Checked]:
        """Every result file judged by the result capture protocol's rules."""
        if not isinstance(source, UltraplanSource):
            raise NotImplementedError(f"{source.format.name} inputs are not validated")
        for _ in source.scan():
            pass
        for report in source.reports():
            invalid = report.judgement.verdict is Verdict.INVALID
            yield Checked(report.text(), report.to_json(), invalid)


VIEW = UltraplanView()
"""The ultraplan view (``Format.view`` names it)."""
