"""What a format adds to the screens: the :class:`View` contract, and its panes as data
(:class:`PaneSpec`).

A format's view lives in its own package (``trajtui/formats/<name>/view.py``) and is named
by its :class:`~trajtui.core.format_api.Format` (``Format.view``), so it is imported only
when one of its runs is shown: ``trajtui ls`` never imports Rich. Shared code asks the run's
view (:func:`trajtui.formats.registry.view_of`) and never tests a format id; a format
without a view gets :data:`PLAIN`.

A view says what its runs add to the common screens: a line in the run header, a block in
the run detail, a badge on timeline lines, a step's own detail, how its reference segments
(``RUN/WORD:KEY``) are shown, words of a detail that lead somewhere, extra panes of the TUI
(:class:`PaneSpec`: one generic pane draws each), its keys, and whether ``trajtui validate``
judges its inputs. Everything comes from the run's own fields or from the typed objects the
format keeps for its view (``Run.detail``, ``Step.detail``): nothing is parsed back from
display strings, and nothing here reads files.

This module imports Rich only to build what the base class shows, when it shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from trajtui.core.io.text import visible
from trajtui.core.model import Run, Step
from trajtui.core.source import Source

if TYPE_CHECKING:
    from rich.console import RenderableType
    from rich.style import Style
    from rich.text import Text


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

    The actions a view may name are the TUI's generic ones: ``show_pane('NAME')`` and
    ``toggle_pane('NAME')`` for its panes, ``next_mention`` and ``prev_mention`` in a detail,
    ``open_link`` (the run the selected step leads to: :meth:`View.step_link`) and
    ``link_back`` (the step it was opened from).

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


class Tone(StrEnum):
    """How a badge on a timeline line is coloured."""

    ERROR = "error"
    """Something is wrong (an INVALID result)."""
    WARNING = "warning"
    """Worth a look (a result valid with warnings, a call never completed)."""


@dataclass(frozen=True, slots=True)
class Badge:
    """A short word on a timeline line (on its right, where a cut title cannot hide it).

    Attributes:
        text: The word, as the view spells it.
        tone: Its colour.
    """

    text: str
    tone: Tone = Tone.WARNING


class RowStyle(StrEnum):
    """The looks a pane's row may use (the pane's theme colours them)."""

    NEW = "new"
    """Added, or on (bold, in the success colour)."""
    GONE = "gone"
    """Dropped (struck through, in the error colour)."""
    STRONG = "strong"
    """What matters most in the list (bold, in the accent colour)."""
    KEY = "key"
    """A row's key (the accent colour)."""
    DIM = "dim"
    """Secondary words (muted)."""


Styles = Callable[[RowStyle], "Style"]
"""The style of each look, as the pane drawing the row resolves it."""


@dataclass(frozen=True, slots=True)
class PaneRow:
    """One row of a pane: what it names and how it is marked.

    Attributes:
        key: Its key: the row is ``RUN/WORD:KEY`` of the pane's segment word.
        mark: A sign the view puts before it (``+`` added, ``-`` dropped...), or a space.
    """

    key: str
    mark: str = " "


@dataclass(frozen=True, slots=True)
class PaneSpec:
    """An extra pane of the TUI beside Detail, as data: a list of the run's objects (of
    one reference segment word) and a preview of the one under the cursor (what
    ``RUN/WORD:KEY`` shows: :meth:`View.render_segment`, the same as ``trajtui show``).

    Attributes:
        name: Stable name (its tab and list are named after it).
        title: The tab's title.
        key: The key that shows it (the command's id is ``name``).
        command: The command's name in the palette and the help.
        help: What the key does, one line.
        word: The reference segment word its rows name (``msg``).
        absent: What the key says on a run of the format that has none.
        empty: What the list says with no rows.
        has: Whether a run has something to show in it.
        rows: Its rows for a run and the step selected there (its number; None: no step,
            or every row: :attr:`follows_step`).
        line: Draws a row (for a run, with the pane's styles); text from the data goes
            through :func:`~trajtui.core.io.text.visible` into ``Text``, never markup.
        text: What ``/`` searches in a row.
        follows_step: Its rows are the selected step's (the step's detail leads to it with
            ``enter``; ``toggle_pane`` shows every row instead); else they are the run's.
        caption: A line over the list, from the step shown (None: every row) and the rows
            listed; None for no line.
        mentions: Words of a detail (:meth:`View.mentions`) lead to rows of this pane.
    """

    name: str
    title: str
    key: str
    command: str
    help: str
    word: str
    absent: str
    empty: str
    has: Callable[[Run], bool]
    rows: Callable[[Run, int | None], Sequence[PaneRow]]
    line: Callable[[Run, PaneRow, Styles], Text]
    text: Callable[[Run, PaneRow], str]
    follows_step: bool = False
    caption: Callable[[int | None, int], str] | None = None
    mentions: bool = False

    def as_command(self) -> ViewCommand:
        """The command that shows the pane."""
        return ViewCommand(
            self.name, self.key, f"show_pane('{self.name}')", self.command, self.help, "Panes"
        )


class View:
    """The plain view: nothing beyond the common screens. Subclass and override.

    Attributes:
        panes: Extra panes of the TUI beside Detail (their keys are commands too).
        validates: ``trajtui validate`` judges this format's inputs (:meth:`validate`).
        validation: What ``validate`` reads of the format and the verdicts it gives, for
            its help (one sentence).
        commands: Other keys the view adds to the TUI (its own moves, a pane's toggle).
        runs_name: What its runs are called in help texts (``forecast runs``).
        link_name: What a step's link leads to (``subagent``: :meth:`step_link`); empty
            when no step of the format leads to another run.
    """

    panes: tuple[PaneSpec, ...] = ()
    link_name = ""
    validates = False
    validation = ""
    commands: tuple[ViewCommand, ...] = ()
    runs_name = ""

    def pane(self, name: str) -> PaneSpec | None:
        """The pane called ``name``, when the view has it."""
        return next((p for p in self.panes if p.name == name), None)

    def pane_of(self, word: str) -> PaneSpec | None:
        """The pane whose rows are reference segments ``word``."""
        return next((p for p in self.panes if p.word == word), None)

    def all_commands(self) -> tuple[ViewCommand, ...]:
        """Every key the view adds: its panes', then its own."""
        return (*(p.as_command() for p in self.panes), *self.commands)

    def headline(self, run: Run) -> str | None:
        """One line for the run header, beyond the common facts (None: nothing)."""
        return None

    def run_block(self, run: Run) -> RenderableType | None:
        """A block for the run detail, after its fields (None: nothing)."""
        return None

    def step_badge(self, step: Step) -> Badge | None:
        """A short word for a timeline line (None: nothing)."""
        return None

    def step_link(self, step: Step) -> str | None:
        """The reference of the run ``step`` leads to, in the same folder (a subagent's,
        which an agent call started): the ``open_link`` key goes there, ``link_back``
        returns. None: it leads nowhere."""
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
        from rich.text import Text

        what = f"{visible(run.ref, keep_newlines=False)} has nothing called "
        return Text(what + visible(f"{word}:{key}", keep_newlines=False), style="dim")

    def mentions(self, run: Run) -> dict[str, str]:
        """Words of a detail that lead somewhere (``[``, ``]``, ``enter``), with the key each
        leads to in the pane that lists them (:attr:`PaneSpec.mentions`)."""
        return {}

    def validate(self, source: Source) -> Iterator[Checked]:
        """Judge every input of ``source`` (after reading it whole), in file order.

        Raises:
            NotImplementedError: The format does not validate (:attr:`validates` is False).
        """
        raise NotImplementedError(f"{source.format.name} inputs are not validated")


PLAIN = View()
"""The view of a format that adds nothing to the screens."""
