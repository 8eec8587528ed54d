"""What each format adds to the screen: its *view*, looked up by format id, never by
``if fmt.id == ...`` branches in shared code.

A :class:`View` says what a format's runs add to the common screens: a line in the run
header, a block in the run detail, a badge on timeline lines, a step's own detail, how its
reference segments (``RUN/WORD:KEY``) are shown, words of a detail that lead somewhere,
extra panes of the TUI (by name: ``messages``, ``sources``), and whether ``trajtui
validate`` applies to it. A format without a view gets the plain one. Adding a format's view
is one class here (or in a module of its own) and one entry in :data:`VIEWS`.

Everything comes from the run's own fields (as in the file) or from typed objects the format
keeps for its view (``Run.detail``, ``Step.detail``); nothing is parsed back from display
strings, and nothing here reads files.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from trajtui.core.io.text import visible
from trajtui.core.model import Run, Step
from trajtui.core.source import Source
from trajtui.formats.atif import FORMAT as ATIF
from trajtui.formats.eval_results import RESULTS
from trajtui.formats.eval_results.confusion import confusion
from trajtui.formats.forecast import EVAL as FORECAST_EVAL
from trajtui.formats.forecast import RUN as FORECAST_RUN
from trajtui.formats.forecast.detail import ForecastRun, forecast_run
from trajtui.formats.registry import FORMATS
from trajtui.formats.ultraplan import FORMAT as ULTRAPLAN
from trajtui.formats.ultraplan import Judgement, UltraplanSource, Verdict
from trajtui.render import atif as atif_render
from trajtui.render import fmt
from trajtui.render import forecast as forecast_render


@dataclass(frozen=True, slots=True)
class Checked:
    """One input judged by ``trajtui validate``.

    Attributes:
        text: One line for the terminal (``PATH: VERDICT: reason; reason``), as the file's
            text is: the caller makes it visible.
        json: The same as a JSON object (``--json``).
        invalid: The input fails validation (``validate`` exits 1).
    """

    text: str
    json: dict[str, Any]
    invalid: bool


@dataclass(frozen=True, slots=True)
class ViewCommand:
    """A command a view adds to the TUI (its key, the main screen's action, its help); the
    TUI's command table (:mod:`trajtui.ui.commands`) lists it with the common ones.

    Attributes:
        id: Stable id.
        keys: Keys, comma-separated, as Textual names them.
        action: The main screen's action it runs.
        title: Name in the palette and the help screen.
        help: What it does, one line.
        group: Heading in the help screen.
        footer: Short label in the footer, or None.
        screen_binding: The main screen binds the keys (False: the lists bind them).
    """

    id: str
    keys: str
    action: str
    title: str
    help: str
    group: str
    footer: str | None = None
    screen_binding: bool = True


class View:
    """The plain view: nothing beyond the common screens. Subclass and override.

    Attributes:
        panes: Extra panes of the TUI beside Detail, by name (``messages``, ``sources``).
        pane_segments: For each extra pane, the reference segment word its rows are
            (``{"messages": "msg"}``: a row of Messages is ``RUN/msg:KEY``).
        validates: ``trajtui validate`` judges this format's inputs (:meth:`validate`).
        commands: Keys the view adds to the TUI (its panes, its own moves).
        runs_name: What its runs are called in help texts (``forecast runs``).
    """

    panes: tuple[str, ...] = ()
    pane_segments: dict[str, str] = {}
    validates = False
    commands: tuple[ViewCommand, ...] = ()
    runs_name = ""

    def headline(self, run: Run) -> str | None:
        """One line for the run header, beyond the common facts (None: nothing)."""
        return None

    def run_block(self, run: Run) -> RenderableType | None:
        """A block for the run detail, after its fields (None: nothing)."""
        return None

    def step_badge(self, step: Step) -> str | None:
        """A short word for a timeline line (None: nothing)."""
        return None

    def step_body(
        self, run: Run, step: Step, *, max_lines: int | None, cli: bool
    ) -> list[RenderableType] | None:
        """What a step's detail shows below its heading, instead of the common sections
        (text, input, output, fields); None: the common sections.

        Args:
            run: The run the step belongs to.
            step: The step.
            max_lines: Cut long values to this many lines (None: whole).
            cli: For ``trajtui show`` (hints name commands), else for the TUI (hints name
                panes).
        """
        return None

    def has_pane(self, run: Run, pane: str) -> bool:
        """Whether ``run`` has something to show in its extra pane ``pane``."""
        return False

    def segment_object(self, run: Run, word: str, key: str) -> Any:
        """What ``RUN/WORD:KEY`` names, as in the file (``show --json``, ``r``, ``y``); None
        when the run has no such thing."""
        return None

    def segment_text(self, run: Run, word: str, key: str) -> str | None:
        """The text of what ``RUN/WORD:KEY`` names, when it has one (what ``y`` copies)."""
        return None

    def render_segment(
        self, run: Run, word: str, key: str, *, ref: str | None = None, max_lines: int | None = None
    ) -> RenderableType:
        """What ``RUN/WORD:KEY`` names, rendered for reading (``ref``: its title)."""
        what = f"{visible(run.ref, keep_newlines=False)} has nothing called "
        return Text(what + visible(f"{word}:{key}", keep_newlines=False), style="dim")

    def mentions(self, run: Run) -> dict[str, str]:
        """Words of a detail that lead somewhere (``[``, ``]``, ``enter``), with the key each
        leads to in the pane that lists them."""
        return {}

    def validate(self, source: Source) -> Iterator[Checked]:
        """Judge every input of ``source`` (after reading it whole), in file order.

        Raises:
            NotImplementedError: The format does not validate (:attr:`validates` is False).
        """
        raise NotImplementedError(f"{source.format.name} inputs are not validated")


def field_value(run: Run, label: str) -> Any:
    """The value of the run's field ``label``, or None."""
    for field in run.fields:
        if field.label == label:
            return field.value
    return None


class EvalResultsView(View):
    """Eval results: accuracy as ``correct/total`` and the method/model/k in the header; the
    confusion table of verdict against ground truth in the detail."""

    def headline(self, run: Run) -> str | None:
        correct, total = field_value(run, "correct"), field_value(run, "total")
        parts = []
        if isinstance(correct, int) and isinstance(total, int) and not isinstance(correct, bool):
            parts.append(f"{correct}/{total} correct" if total else "0 of 0 graded")
        for label in ("method", "model", "k"):
            value = field_value(run, label)
            if value is not None:
                parts.append(f"{label} {visible(str(value), keep_newlines=False)}")
        return " · ".join(parts) or None

    def run_block(self, run: Run) -> RenderableType | None:
        return confusion_table(run)


class UltraplanView(View):
    """ultraplan: the validation verdicts of a plan's results in the header; INVALID and
    VALID_WITH_WARNINGS results marked on the timeline (from the step's judgement)."""

    def headline(self, run: Run) -> str | None:
        validation = field_value(run, "validation")
        return (
            f"validation: {visible(str(validation), keep_newlines=False)}" if validation else None
        )

    validates = True

    def step_badge(self, step: Step) -> str | None:
        judgement = step.detail
        if isinstance(judgement, Judgement) and judgement.verdict is not Verdict.VALID:
            return judgement.verdict.value
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


class ForecastView(View):
    """forecast-agent runs: the message pool and the source board in panes of their own,
    their messages (``RUN/msg:KEY``) and web sources (``RUN/src:SID``), and the context of
    each model call in its detail (:mod:`trajtui.render.forecast`)."""

    panes = ("messages", "sources")
    pane_segments = {"messages": forecast_render.MESSAGE, "sources": forecast_render.SOURCE}
    runs_name = "forecast runs"
    commands = (
        ViewCommand(
            "next-mention",
            "right_square_bracket",
            "next_mention",
            "Next mention",
            "Select the next source mention in the detail pane",
            "Move",
            screen_binding=False,
        ),
        ViewCommand(
            "prev-mention",
            "left_square_bracket",
            "prev_mention",
            "Previous mention",
            "Select the previous source mention in the detail pane",
            "Move",
            screen_binding=False,
        ),
        ViewCommand(
            "messages", "M", "show_messages", "Message pool", "Show the message pool", "Panes"
        ),
        ViewCommand(
            "sources", "B", "show_sources", "Source board", "Show the source board", "Panes"
        ),
        ViewCommand(
            "pool",
            "p",
            "toggle_pool",
            "Whole pool",
            "Message pool: the step's context or every message",
            "View",
        ),
    )

    def objects(self, run: Run) -> ForecastRun:
        """The run's message pool and source board (for the forecast panes' widgets)."""
        return forecast_run(run)

    def has_pane(self, run: Run, pane: str) -> bool:
        objects = forecast_run(run)
        if pane == "messages":
            return objects.pool is not None
        if pane == "sources":
            return objects.board is not None
        return False

    def step_body(
        self, run: Run, step: Step, *, max_lines: int | None, cli: bool
    ) -> list[RenderableType] | None:
        return forecast_render.step_body(run, step, max_lines=max_lines, cli=cli)

    def segment_object(self, run: Run, word: str, key: str) -> Any:
        return forecast_render.segment_object(run, word, key)

    def segment_text(self, run: Run, word: str, key: str) -> str | None:
        return forecast_render.segment_text(run, word, key)

    def render_segment(
        self, run: Run, word: str, key: str, *, ref: str | None = None, max_lines: int | None = None
    ) -> RenderableType:
        return forecast_render.render_segment(run, word, key, ref=ref, max_lines=max_lines)

    def mentions(self, run: Run) -> dict[str, str]:
        board = forecast_run(run).board
        return {} if board is None else {sid: sid for sid in board.board_source_ids()}


class AtifView(View):
    """Harbor trials: the verifier's tests (why the reward is what it is), the other
    attempts of the task with pass@k over them, and the job's own figures beside trajtui's
    (:mod:`trajtui.render.atif`)."""

    def headline(self, run: Run) -> str | None:
        return atif_render.headline(run)

    def run_block(self, run: Run) -> RenderableType | None:
        return atif_render.run_block(run)


PLAIN = View()
FORECAST_VIEW = ForecastView()

VIEWS: dict[str, View] = {
    RESULTS.id: EvalResultsView(),
    ULTRAPLAN.id: UltraplanView(),
    FORECAST_EVAL.id: FORECAST_VIEW,
    FORECAST_RUN.id: FORECAST_VIEW,
    ATIF.id: AtifView(),
}
"""The view of each format id that adds something to the screen."""


def view_of(format_id: str) -> View:
    """The view of a format (the plain view when it adds nothing)."""
    return VIEWS.get(format_id, PLAIN)


def run_view(run: Run) -> View:
    """The view of a run's format."""
    return view_of(run.summary.format)


def validating_formats() -> list[str]:
    """The names of the formats ``trajtui validate`` judges, in registry order."""
    return [info.name for fmt_ in FORMATS for info in fmt_.infos if view_of(info.id).validates]


def headline(run: Run) -> str | None:
    """The run's format's header line."""
    return view_of(run.summary.format).headline(run)


def detail(run: Run) -> RenderableType | None:
    """The run's format's block in the run detail."""
    return view_of(run.summary.format).run_block(run)


def _label(value: str | None) -> str:
    return "null" if value is None else visible(str(value), keep_newlines=False)


def confusion_table(run: Run) -> RenderableType | None:
    """The confusion table of an eval run (rows: ground truth, columns: verdict)."""
    table_data = confusion(run)
    if not table_data.total:
        return None
    table = Table(title=None, box=None, padding=(0, 1), show_edge=False, header_style="bold")
    table.add_column("gt \\ verdict", style="bold")
    for verdict in table_data.verdict_labels:
        table.add_column(_label(verdict), justify="right")
    table.add_column("total", justify="right", style="dim")
    for gt in table_data.gt_labels:
        cells = []
        row_total = 0
        for verdict in table_data.verdict_labels:
            n = table_data.count(gt, verdict)
            row_total += n
            style = "green" if gt == verdict and gt is not None else ("red" if n else "dim")
            cells.append(Text(fmt.count(n) if n else "·", style=style))
        table.add_row(_label(gt), *cells, Text(fmt.count(row_total)))
    parts: list[RenderableType] = [
        Text("confusion: ground truth (rows) against verdict (columns)", style="bold"),
        table,
    ]
    if None in table_data.gt_labels or None in table_data.verdict_labels:
        parts.append(
            Text("null: the file has no value (failed samples have no verdict)", style="dim")
        )
    return Group(*parts)
