"""The stats screen (a key from the run list): the figures of ``trajtui stats`` over the
runs the run list shows, with bars; enter on a figure goes back to the run list narrowed
to the runs behind it.

Runs are read and counted in a worker thread (never on the UI thread); the screen shows
the progress while it reads, and a later grouping (``b``) is computed in a worker too.
Opened while the files are still being read, the figures are of the runs listed so far: the
title says so (``partial``), and the figures are brought up to date as more runs are listed
(the runs counted already are not read again), until every file is read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from trajtui.core.io import remote
from trajtui.core.io.text import visible
from trajtui.core.stats.collect import collect, grouped
from trajtui.core.stats.facts import RunFacts
from trajtui.core.stats.figures import Figures, Line, Pick
from trajtui.core.units import share
from trajtui.core.workspace import Workspace
from trajtui.formats.registry import figures
from trajtui.ui.host import host
from trajtui.ui.literal import literal

BAR = 24
"""Cells of a full bar."""
UPDATE_EVERY = 2.0
"""Seconds between looks at the run list while the figures are partial."""

Listing = Callable[[bool], tuple[int, list[Pick] | None, bool]]
"""The run list now: ``(rows shown, the runs shown, every file read and counted)``; the
runs only when asked (True), as listing them walks every row."""
_EIGHTHS = " ▏▎▍▌▋▊▉"


def bar(share: float | None, width: int = BAR) -> str:
    """A horizontal bar of ``share`` (0 to 1) in ``width`` cells, in eighths of a cell
    (blank when there is no share)."""
    if share is None or share != share:
        return " " * width
    share = min(1.0, max(0.0, share))
    eighths = round(share * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + (_EIGHTHS[part] if part else "")
    return text.ljust(width)


@dataclass(frozen=True, slots=True)
class StatsChoice:
    """The runs behind the figure picked, and what the figure is."""

    picks: tuple[Pick, ...]
    label: str


class StatsScreen(Screen[StatsChoice | None]):
    """The figures of the listed runs: outcomes, scores, pass@k by k, durations, tools,
    per-format figures and groups, each a row with its bar; ⏎ opens the runs behind a
    row in the run list, ``b`` groups by the next field, esc goes back."""

    BINDINGS = [
        Binding("escape,q,h", "back", "Back"),
        Binding("enter,l", "pick", "Open runs"),
        Binding("b", "group", "Group by"),
        Binding("x", "export", "Export"),
        Binding("j", "cursor_down", show=False),
        Binding("k", "cursor_up", show=False),
    ]

    DEFAULT_CSS = """
    StatsScreen > Vertical { height: 1fr; }
    StatsScreen #stats-title { height: 1; background: $boost; padding: 0 1; }
    StatsScreen #stats-note { height: auto; color: $text-muted; padding: 0 1; }
    StatsScreen OptionList { height: 1fr; border: none; }
    """

    def __init__(
        self, ws: Workspace, picks: list[Pick], what: str, listing: Listing | None = None
    ) -> None:
        """``listing`` gives the runs the run list shows now and whether every file is read
        (and counted): given while they are not, the figures are partial and kept up to
        date."""
        super().__init__()
        self.ws = ws
        self.picks = picks
        self.what = what
        self.listing = listing
        self.partial = listing is not None and not listing(False)[2]
        """The figures are of the runs listed so far: the files are still being read."""
        self.facts: list[RunFacts] | None = None
        self.by: str | None = None
        self.groups: list[Figures] = []
        self._lines: dict[str, Line] = {}
        self._counted: dict[Pick, RunFacts] = {}
        self._shown: int | None = None  # rows the run list showed at the last look
        self._problems = 0
        self._reading = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(literal(self._title()), id="stats-title")
            yield Static(literal("reading runs…"), id="stats-note")
            yield OptionList(id="stats-rows")

    def _title(self) -> str:
        title = f"Stats · {len(self.picks):,} runs {self.what}"
        if self.partial:
            title += " so far · partial: the files are still being read (updates as they are)"
        return title

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()
        self._start_read()
        if self.partial:
            self.set_interval(UPDATE_EVERY, self._update)

    # -- workers ---------------------------------------------------------------------------

    def _start_read(self, picks: list[Pick] | None = None, done: bool = False) -> None:
        """Read the runs of ``picks`` (the runs first listed) not counted yet, in a worker;
        ``done``: they are all the runs (every file read)."""
        self._reading = True
        self._read(list(self.picks if picks is None else picks), dict(self._counted), self.by, done)

    def _update(self) -> None:
        """While partial: count the runs listed since, and say when every file is read."""
        if not self.partial or self._reading or self.listing is None:
            return
        shown, _picks, done = self.listing(False)
        if shown == self._shown and not done:
            return  # nothing listed since (asked without walking the rows)
        self._shown = shown
        _shown, picks, done = self.listing(True)
        if picks is None or (picks == self.picks and not done):
            return
        more = sum(1 for p in picks if p not in self._counted)
        if more:
            note = f"partial: {len(self._counted):,} runs read so far · reading {more:,} more…"
            self.query_one("#stats-note", Static).update(literal(note))
        self._start_read(picks, done)  # the figures shown stay until these are counted

    @work(thread=True, exclusive=True, group="stats", exit_on_error=False)
    def _read(
        self, picks: list[Pick], counted: dict[Pick, RunFacts], by: str | None, done: bool
    ) -> None:
        worker = get_current_worker()

        def progress(done: int, total: int) -> None:
            if not worker.is_cancelled:
                self.app.call_from_thread(self._progress, done, total)

        got = collect(
            self.ws.sources,
            self.ws.ref,
            picks=[p for p in picks if p not in counted],
            progress=progress,
            stopped=lambda: worker.is_cancelled,
            parts=figures(),
        )
        if worker.is_cancelled:
            return
        counted.update((f.pick, f) for f in got.runs)
        facts = [counted[p] for p in sorted(picks) if p in counted]
        groups = grouped(facts, by, figures())
        problems = len(got.problems)
        self.app.call_from_thread(self._read_done, picks, done, counted, facts, groups, problems)

    def _read_done(
        self,
        picks: list[Pick],
        done: bool,
        counted: dict[Pick, RunFacts],
        facts: list[RunFacts],
        groups: list[Figures],
        problems: int,
    ) -> None:
        self._reading = False
        self._counted = counted
        if picks != self.picks or (done and self.partial):  # an update: say what is counted
            self.picks = picks
            self.partial = self.partial and not done
            self.query_one("#stats-title", Static).update(literal(self._title()))
        self._problems += problems
        self._show(facts, groups, self._problems)

    @work(thread=True, exclusive=True, group="stats", exit_on_error=False)
    def _regroup(self, by: str | None) -> None:
        facts = self.facts or []
        groups = grouped(facts, by, figures())
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show, facts, groups, self._problems)

    # -- drawing ---------------------------------------------------------------------------

    def _progress(self, done: int, total: int) -> None:
        if self.facts is None:  # (an update keeps the figures shown until it is done)
            note = f"reading runs {done:,}/{total:,}…"
            self.query_one("#stats-note", Static).update(literal(note))

    def _show(self, facts: list[RunFacts], groups: list[Figures], problems: int | None) -> None:
        self.facts = facts
        self.groups = groups
        note = "⏎ opens the runs behind a row · b groups by a field · esc back"
        if self.by:
            note = f"grouped by {self.by} · " + note
        if problems:
            note = f"{problems:,} runs could not be read whole (counted from their rows) · " + note
        if self.partial:
            note = f"partial: {len(facts):,} runs read so far · " + note
        if not facts:
            note = (
                "no runs read yet: the files are still being read"
                if self.partial
                else "no runs to count (the run list shows none)"
            )
        self.query_one("#stats-note", Static).update(literal(note))
        options = self.query_one(OptionList)
        highlighted = options.highlighted
        options.clear_options()
        self._lines.clear()
        if not groups:
            return
        width = max(
            (
                len(visible(ln.label, keep_newlines=False))
                for s in groups[0].sections
                for ln in s.lines
            ),
            default=8,
        )
        width = min(max(width, 8), 28)
        items: list[Option] = []
        if self.by is not None and len(groups) > 1:
            items.append(
                self._header(f"groups by {self.by}", "share of the group's runs that passed")
            )
            for n, g in enumerate(groups[1:]):
                outcome = g.data["outcomes"]["pass"]
                label = g.name
                line = Line(
                    label,
                    share(outcome["value"]),
                    f"({outcome['num']:,}/{outcome['den']:,} runs passed)",
                    outcome["value"],
                    tuple(r.pick for r in g.runs),
                )
                oid = f"group:{n}"
                self._lines[oid] = Line(
                    f"{self.by} {label}", line.value, line.detail, line.share, line.picks
                )
                items.append(Option(self._row(line, width), id=oid))
        for section in groups[0].sections:
            items.append(self._header(section.title, section.note))
            for n, line in enumerate(section.lines):
                oid = f"{section.title}:{n}"
                self._lines[oid] = line
                items.append(Option(self._row(line, width), id=oid))
        options.add_options(items)
        if highlighted is not None and highlighted < options.option_count:
            options.highlighted = highlighted
        elif options.option_count:
            options.highlighted = 1

    @staticmethod
    def _header(title: str, note: str) -> Option:
        text = Text(
            visible(title, keep_newlines=False), style="bold", no_wrap=True, overflow="ellipsis"
        )
        if note:
            text.append("  " + visible(note, keep_newlines=False), style="dim")
        return Option(text, disabled=True)

    @staticmethod
    def _row(line: Line, width: int) -> Text:
        label = visible(line.label, keep_newlines=False)
        if len(label) > width:
            label = label[: width - 1] + "…"
        text = Text(f"  {label:<{width}} {line.value:>9} ", no_wrap=True, overflow="ellipsis")
        text.append(bar(line.share), style="green")
        text.append(" " + visible(line.detail, keep_newlines=False), style="dim")
        return text

    # -- actions ---------------------------------------------------------------------------

    def action_back(self) -> None:
        self.workers.cancel_group(self, "stats")
        self.dismiss(None)

    def action_cursor_down(self) -> None:
        self.query_one(OptionList).action_cursor_down()

    def action_cursor_up(self) -> None:
        self.query_one(OptionList).action_cursor_up()

    def action_pick(self) -> None:
        options = self.query_one(OptionList)
        if options.highlighted is None:
            return
        self._open(options.get_option_at_index(options.highlighted).id)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self._open(event.option.id)

    def _open(self, oid: str | None) -> None:
        line = self._lines.get(oid or "")
        if line is None:
            return
        if not line.picks:
            self.app.notify("no runs behind this row", timeout=2)
            return
        self.dismiss(StatsChoice(line.picks, line.label))

    def action_export(self) -> None:
        """``x``: the figures as shown (grouped or not) as one HTML page or Markdown, to a
        file the user names."""
        from trajtui.ui.screens.export import ExportChoice, ExportScreen

        groups, by = self.groups, self.by
        if not groups or not groups[0].runs:
            self.app.notify("nothing to export yet", timeout=3)
            return
        opened = [*host(self).paths, *(s.path for s in self.ws.sources)]
        title = f"{len(self.picks):,} runs {self.what}".strip()
        label = f"the stats of {title}" + (f", by {by}" if by else "")

        sources = self.ws.sources
        name = remote.shown(sources[0].path) if len(sources) == 1 else f"{len(sources)} sources"
        heading = name if self.what == "listed" else f"{name} · {self.what}"

        def done(choice: ExportChoice | None) -> None:
            if choice is not None:
                self._write_export(choice.path, choice.form, groups, by, heading)

        self.app.push_screen(ExportScreen("stats", label, ("html", "markdown"), opened), done)

    @work(thread=True, group="export", exit_on_error=False)
    def _write_export(
        self, path: str, form: str, groups: list[Figures], by: str | None, what: str
    ) -> None:
        from trajtui.render.stats import stats_html, stats_markdown
        from trajtui.ui.exporting import write_export_file

        render = stats_html if form == "html" else stats_markdown
        write_export_file(self.app, path, lambda: render(groups, by, what))

    def fields(self) -> list[str | None]:
        """The fields ``b`` cycles through: none, format, source, then every metadata key
        of the runs counted (most common first)."""
        keys: dict[str, int] = {}
        for f in self.facts or []:
            for k, _ in f.metadata:
                keys[k] = keys.get(k, 0) + 1
        return [None, "format", "source", *sorted(keys, key=lambda k: (-keys[k], k))]

    def action_group(self) -> None:
        if self.facts is None or self._reading:
            return
        fields = self.fields()
        pos = fields.index(self.by) if self.by in fields else 0
        self.by = fields[(pos + 1) % len(fields)]
        self._regroup(self.by)
