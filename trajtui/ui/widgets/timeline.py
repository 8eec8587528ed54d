"""The step timeline of one run (or of every trial of a trials record).

One line per step: number, a glyph by kind, the title (tool name, first line of text),
a preview (a tool's input), status, time offset, duration and a duration bar scaled to the
run's longest step. With merging on (``m``), adjacent streamed message chunks show as one
line; a tool call's pending and completed halves name each other.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import overload

from rich.text import Text

from trajtui.core.io.text import one_line, visible
from trajtui.core.model import Attempt, Outcome, Run, Step
from trajtui.core.query import Facts, facts_of_step
from trajtui.core.steps import merge_chunks, never_completed
from trajtui.formats.registry import view_of
from trajtui.render import fmt
from trajtui.render.show import NO_COMPLETION, pair_text, step_preview
from trajtui.render.view import Badge, Tone
from trajtui.ui.widgets.vlist import VirtualList

BAR_WIDTH = 8
_EIGHTHS = " ▏▎▍▌▋▊▉█"


def bar(value: float | None, longest: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of ``value`` relative to ``longest``, in eighths of a cell."""
    if value is None or longest <= 0 or value <= 0:
        return " " * width
    eighths = max(1, round(value / longest * width * 8))
    full, part = divmod(eighths, 8)
    text = "█" * full + (_EIGHTHS[part] if part else "")
    return text[:width].ljust(width)


@dataclass(frozen=True, slots=True)
class TimelineRow:
    """One line of the timeline.

    Attributes:
        attempt: The trial the row belongs to (trials records), else None.
        first: Position (0-based) of the first step of the row; -1 for a trial header.
        last: Position of the last step (merged chunks span several).
        text: Merged text of a chunk group.
    """

    attempt: Attempt | None
    first: int
    last: int
    text: str | None = None

    @property
    def is_attempt(self) -> bool:
        """The row is a trial's header."""
        return self.first < 0


StepTest = Callable[[Step], bool]
"""Which steps a timeline shows (its filter)."""


class StepRows(Sequence[TimelineRow]):
    """A row a step, each made as it is asked for: the timeline of a run of hundreds of
    thousands of steps (a session's, read on demand) held an object and a number for each
    (about 100 bytes a step)."""

    def __init__(self, count: int) -> None:
        self._n = count

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, index: int) -> TimelineRow: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[TimelineRow]: ...
    def __getitem__(self, index: int | slice) -> TimelineRow | Sequence[TimelineRow]:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(self._n))]
        if not -self._n <= index < self._n:
            raise IndexError(index)
        k = index % self._n
        return TimelineRow(None, k, k)


def build_rows(run: Run, merge: bool, keep: StepTest | None = None) -> Sequence[TimelineRow]:
    """The timeline's rows for a run (``keep``: only the steps it accepts; a merged group
    of chunks when any of them is, a trial's header when any of its steps is)."""
    rows: list[TimelineRow] = []
    groups: list[tuple[Attempt | None, Sequence[Step]]]
    if run.attempts and not run.steps:
        groups = [(a, a.steps) for a in run.attempts]
    else:
        if not merge and keep is None:
            return StepRows(len(run.steps))
        groups = [(None, run.steps)]
    for attempt, steps in groups:
        if merge:
            group = [TimelineRow(attempt, g.first, g.last, g.text) for g in merge_chunks(steps)]
        else:
            group = [TimelineRow(attempt, k, k) for k in range(len(steps))]
        if keep is not None:
            group = [
                row for row in group if any(keep(steps[k]) for k in range(row.first, row.last + 1))
            ]
            if not group:
                continue
        if attempt is not None:
            rows.append(TimelineRow(attempt, -1, -1))
        rows.extend(group)
    return rows


class Timeline(VirtualList):
    """The steps of the run the run list points at."""

    COMPONENT_CLASSES = VirtualList.COMPONENT_CLASSES | {
        "timeline--dim",
        "timeline--bar",
        "timeline--attempt",
        "timeline--error",
        "timeline--running",
        "timeline--pass",
        "timeline--fail",
        "timeline--done",
        "timeline--mark",
    }

    DEFAULT_CSS = """
    Timeline {
        & > .timeline--dim { color: $text-muted; }
        & > .timeline--bar { color: $accent; }
        & > .timeline--attempt { color: $accent; text-style: bold; }
        & > .timeline--error { color: $error; }
        & > .timeline--running { color: $warning; }
        & > .timeline--pass { color: $success; }
        & > .timeline--fail { color: $error; }
        & > .timeline--done { color: $success; }
        & > .timeline--mark { color: $warning; }
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.run: Run | None = None
        self.rows: Sequence[TimelineRow] = []
        self.step_marks: dict[str, str] = {}
        """Reference of a trial or step -> the mark drawn on its row (★ ✎)."""
        self.merge = False
        self.keep: StepTest | None = None
        """The filter (``f`` in the timeline): only steps it accepts are shown."""
        self.filter_text = ""
        """The filter's query, as typed."""
        self.kept = 0
        """Steps the filter keeps (of :attr:`step_count`)."""
        self.step_count = 0
        """Steps of the run shown (all trials)."""
        self._facts: dict[int, Facts] = {}
        """What the filter reads of each step of the run shown, by ``id`` of the step (built
        once per step: typing a query judges the same steps again at every key)."""
        self._longest = 0.0
        self._has_status = self._has_offsets = self._has_durations = True
        self.empty_text = "no run selected"
        self.marked_trial: tuple[str, int] | None = None
        """``(run reference, trial number)`` of the trial marked as side A of a compare
        (``c``): its header row starts with ``A``."""

    def show_run(self, run: Run | None, *, keep_cursor: bool = False) -> None:
        """Show ``run``'s steps (None: nothing)."""
        old_rows, old = self.rows, self.cursor
        if run is not self.run:
            self._facts = {}
        self.run = run
        self.rows = self._build()
        steps = self._all_steps()
        durations = [s.duration_ms for s in steps if s.duration_ms is not None]
        self._longest = max(durations, default=0.0)
        # Columns no step has a value for take no room: the title gets it.
        self._has_durations = bool(durations)
        self._has_status = any(s.status for s in steps)
        self._has_offsets = any(s.offset_ms is not None for s in steps)
        if run is not None and not self.rows:
            self.empty_text = self._empty_text(steps)
        elif run is None:
            self.empty_text = "no run selected"
        cursor = 0
        if keep_cursor and old_rows and 0 <= old < len(old_rows):
            cursor = min(old, max(0, len(self.rows) - 1))
        self.reset(cursor=cursor)

    def fixed_width(self) -> int:
        """Cells a row takes besides its title (number, kind, status, offset, duration)."""
        indent = 2 if self.run is not None and self.run.attempts and not self.run.steps else 0
        return (
            16 + indent + 3 * self._has_status + 8 * self._has_offsets + 9 * self._has_durations + 1
        )

    def facts(self, step: Step) -> Facts:
        """What a query reads of ``step`` (a step of the run shown), made once."""
        found = self._facts.get(id(step))
        if found is None:
            found = self._facts[id(step)] = facts_of_step(step)
        return found

    def _build(self) -> Sequence[TimelineRow]:
        run = self.run
        if run is None:
            self.kept = self.step_count = 0
            return []
        rows = build_rows(run, self.merge, self.keep)
        steps = self._all_steps()
        self.step_count = len(steps)
        keep = self.keep
        self.kept = len(steps) if keep is None else sum(1 for s in steps if keep(s))
        return rows

    def _empty_text(self, steps: Sequence[Step]) -> str:
        if steps and self.keep is not None:
            return f"no steps match: {self.filter_text} · f, then esc, clears the filter"
        return "this run has no steps"

    def set_merge(self, merge: bool) -> None:
        """Turn merging of streamed chunks on or off, keeping the cursor on its step."""
        self.merge = merge
        self._rebuild()

    def set_filter(self, keep: StepTest | None, text: str = "") -> None:
        """Show only the steps ``keep`` accepts (None: every step), keeping the cursor on
        its step, or on the nearest shown after it."""
        self.keep, self.filter_text = keep, text
        self._rebuild()

    def _rebuild(self) -> None:
        step = self.current_step()
        self.rows = self._build()
        if self.run is not None and not self.rows:
            self.empty_text = self._empty_text(self._all_steps())
        target = 0
        if step is not None:
            attempt, pos = step
            if isinstance(self.rows, StepRows):
                self.reset(cursor=min(pos, max(0, len(self.rows) - 1)))
                return
            for k, row in enumerate(self.rows):
                if row.attempt is attempt and row.last >= pos:
                    target = k
                    break
                if row.attempt is attempt:
                    target = k
        self.reset(cursor=target)

    def _all_steps(self) -> Sequence[Step]:
        """Every step shown: the run's own sequence (a session's steps are read on demand:
        never copied whole, which held a 2 GB session's every line)."""
        if self.run is None:
            return ()
        if self.run.attempts and not self.run.steps:
            return [s for a in self.run.attempts for s in a.steps]
        return self.run.steps

    def steps_of(self, attempt: Attempt | None) -> Sequence[Step]:
        """Steps of ``attempt`` (or of the run)."""
        if attempt is not None:
            return attempt.steps
        return self.run.steps if self.run is not None else ()

    @property
    def row_count(self) -> int:
        return len(self.rows)

    def current_row(self) -> TimelineRow | None:
        """The row under the cursor."""
        if not self.rows:
            return None
        return self.rows[min(self.cursor, len(self.rows) - 1)]

    def current_step(self) -> tuple[Attempt | None, int] | None:
        """``(attempt, step position)`` under the cursor, or None on a trial header."""
        row = self.current_row()
        if row is None or row.is_attempt:
            return None
        return row.attempt, row.first

    def row_of_step(self, attempt_number: int | None, number: int) -> int | None:
        """Row showing step ``number`` (1-based) of trial ``attempt_number``."""
        if isinstance(self.rows, StepRows):  # a row a step, in order
            found = attempt_number is None and 0 < number <= len(self.rows)
            return number - 1 if found else None
        for k, row in enumerate(self.rows):
            if row.is_attempt:
                if number == 0 and row.attempt is not None and row.attempt.number == attempt_number:
                    return k
                continue
            a_num = row.attempt.number if row.attempt is not None else None
            if a_num == attempt_number and row.first <= number - 1 <= row.last:
                return k
        return None

    def row_of_attempt(self, number: int) -> int | None:
        """Row of trial ``number``'s header."""
        for k, row in enumerate(self.rows):
            if row.is_attempt and row.attempt is not None and row.attempt.number == number:
                return k
        return None

    def render_row(self, index: int, width: int) -> Text:
        row = self.rows[index]
        if row.is_attempt:
            a = row.attempt
            assert a is not None
            text = Text()
            run_ref = self.run.ref if self.run is not None else None
            mark = "A" if self.marked_trial == (run_ref, a.number) else self.step_marks.get(a.ref)
            if mark:
                text.append(mark, self.cstyle("timeline--mark"))
            text.append(
                f"{'' if mark else ' '}▾ trial {a.number} ", self.cstyle("timeline--attempt")
            )
            text.append(
                fmt.status(a.status, a.outcome) + "  ", self.cstyle(f"timeline--{_tone(a.outcome)}")
            )
            if a.score is not None:
                text.append(f"score {fmt.number(a.score)}  ", self.cstyle("timeline--dim"))
            text.append(
                f"{len(a.steps)} steps  {fmt.duration(a.duration_ms)}", self.cstyle("timeline--dim")
            )
            return text
        steps = self.steps_of(row.attempt)
        step = steps[row.first]
        indent = "  " if row.attempt is not None else ""
        dim = self.cstyle("timeline--dim")
        left = Text(indent)
        number = (
            f"{step.number}" if row.first == row.last else f"{step.number}–{steps[row.last].number}"
        )
        mark = self.step_marks.get(step.ref)
        if mark:
            left.append(mark, self.cstyle("timeline--mark"))
            left.append(f"{number:>4} ", dim)
        else:
            left.append(f"{number:>5} ", dim)
        left.append(fmt.KIND_GLYPH[step.kind] + " ")
        left.append(f"{fmt.KIND_LABEL[step.kind]:<7} ", dim)
        if row.text is not None:
            title = one_line(row.text) or "(empty)"
            left.append(title)
            left.append(f"  ({row.last - row.first + 1} chunks)", dim)
        else:
            left.append(visible(step.title, keep_newlines=False))
            preview = step_preview(step)
            if preview:
                left.append("  " + preview, dim)
            if step.pair is not None:
                left.append(f"  ({pair_text(step, steps)})", dim)
        right = Text()
        view = view_of(self.run.summary.format) if self.run is not None else None
        badge = view.step_badge(step) if view is not None and row.text is None else None
        if badge is None and row.text is None and never_completed(step):
            badge = Badge(NO_COMPLETION)
        if badge is not None and badge.text:  # on the right, where a cut title cannot hide it
            tone = "timeline--error" if badge.tone is Tone.ERROR else "timeline--running"
            right.append(f" {badge.text}", self.cstyle(tone))
        if step.status:
            right.append(
                f" {fmt.OUTCOME_GLYPH[step.outcome]} ",
                self.cstyle(f"timeline--{_tone(step.outcome)}"),
            )
        elif self._has_status:
            right.append("   ")
        if self._has_offsets:
            right.append(f"{fmt.offset(step.offset_ms):>8}", dim)
        duration = step.duration_ms if row.first == row.last else None
        if self._has_durations:
            right.append(f" {fmt.duration(duration) if duration is not None else '':>7} ")
            if self._longest > 0 and width >= 70:
                right.append(bar(duration, self._longest), self.cstyle("timeline--bar"))
        right.append(" ")
        room = max(10, width - right.cell_len)
        left.truncate(room, overflow="ellipsis", pad=True)
        return Text.assemble(left, right)

    def row_text(self, index: int) -> str:
        row = self.rows[index]
        if row.is_attempt:
            a = row.attempt
            assert a is not None
            return f"trial {a.number} {a.status or ''}"
        steps = self.steps_of(row.attempt)
        step = steps[row.first]
        parts = [step.title, step.status or "", step.ref]
        if row.text is not None:
            parts.append(row.text)
        elif step.text:
            parts.append(step.text[:2000])
        return " ".join(parts)


def _tone(outcome: Outcome) -> str:
    return {
        Outcome.ERROR: "error",
        Outcome.FAIL: "fail",
        Outcome.TIMEOUT: "error",
        Outcome.RUNNING: "running",
        Outcome.PASS: "pass",
        Outcome.DONE: "done",
    }.get(outcome, "dim")
