"""Every command of the TUI, defined once.

This one table feeds the key bindings of the main screen, the footer, the ``?`` help
screen and the command palette (ctrl+p), so a key can never be documented in one place
and missing from another. Movement keys are bound by the list widgets themselves (they
act on the focused list); they are listed here so help and the palette know them, and the
palette runs them on the pane that had focus.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType

from trajtui.formats.registry import views
from trajtui.render.view import ViewCommand


@dataclass(frozen=True, slots=True)
class Command(ViewCommand):
    """One command of the TUI: the fields of a :class:`ViewCommand` (the common commands
    are written here, a format's view declares its own), and how people read its keys."""

    @property
    def key_label(self) -> str:
        """Keys for people: ``j / ↓``."""
        names = {
            "down": "↓",
            "up": "↑",
            "left": "←",
            "right": "→",
            "enter": "⏎",
            "escape": "esc",
            "question_mark": "?",
            "slash": "/",
            "colon": ":",
            "shift+tab": "⇧tab",
            "left_square_bracket": "[",
            "right_square_bracket": "]",
            "apostrophe": "'",
        }
        return " / ".join(names.get(k, k) for k in self.keys.split(","))


BASE_COMMANDS: tuple[Command, ...] = (
    # Move
    Command(
        "down",
        "j,down",
        "cursor_down",
        "Next row",
        "Move down in the focused pane",
        "Move",
        screen_binding=False,
    ),
    Command(
        "up",
        "k,up",
        "cursor_up",
        "Previous row",
        "Move up in the focused pane",
        "Move",
        screen_binding=False,
    ),
    Command(
        "first",
        "g,home",
        "first",
        "First row",
        "Go to the first row of the focused pane",
        "Move",
        screen_binding=False,
    ),
    Command(
        "last",
        "G,end",
        "last",
        "Last row",
        "Go to the last row of the focused pane",
        "Move",
        screen_binding=False,
    ),
    Command(
        "page-down",
        "pagedown,ctrl+d,ctrl+f,space",
        "page_down",
        "Page down",
        "Move a page down",
        "Move",
        screen_binding=False,
    ),
    Command(
        "page-up",
        "pageup,ctrl+u,ctrl+b",
        "page_up",
        "Page up",
        "Move a page up",
        "Move",
        screen_binding=False,
    ),
    Command(
        "drill",
        "enter,l",
        "drill",
        "Open",
        "Drill in: run → steps → step detail; follow a source mention",
        "Move",
        footer="open",
    ),
    Command(
        "back",
        "escape,h",
        "back",
        "Back",
        "Back out one level (or close search/filter)",
        "Move",
        footer="back",
    ),
    Command(
        "next-pane", "tab", "next_pane", "Next pane", "Focus the next pane", "Panes", footer="pane"
    ),
    Command(
        "prev-pane", "shift+tab", "prev_pane", "Previous pane", "Focus the previous pane", "Panes"
    ),
    Command(
        "prev-run",
        "H",
        "prev_run",
        "Previous run",
        "Show the previous run (from any pane)",
        "Panes",
    ),
    Command("next-run", "L", "next_run", "Next run", "Show the next run (from any pane)", "Panes"),
    # Find
    Command(
        "search",
        "slash",
        "search",
        "Search",
        "Search the focused pane (the run list: every text of every run); n / N: next / previous",
        "Find",
        footer="search",
    ),
    Command(
        "grep",
        "ctrl+g",
        "grep",
        "Search all runs",
        "Search every text of every run, hits as they are found; enter opens one, n / N the next",
        "Find",
    ),
    Command("next-match", "n", "next_match", "Next match", "Go to the next search match", "Find"),
    Command(
        "prev-match", "N", "prev_match", "Previous match", "Go to the previous search match", "Find"
    ),
    Command(
        "goto",
        "colon",
        "goto",
        "Go to reference",
        "Go to any run, trial, step, message or source by its reference",
        "Find",
        footer="go to",
    ),
    Command(
        "filter",
        "f",
        "filter",
        "Filter runs or steps",
        "Narrow the run list by a query (status:fail score<0.5 tool:Bash), or in the timeline"
        " its steps (tool:Bash is:error); ? lists the fields",
        "Find",
    ),
    Command(
        "sort",
        "s",
        "sort",
        "Sort runs",
        "Sort the run list by the next column (S reverses)",
        "Find",
    ),
    Command(
        "sort-reverse", "S", "sort_reverse", "Reverse sort", "Reverse the run list's order", "Find"
    ),
    Command(
        "sort-by",
        "O",
        "sort_by",
        "Sort by column…",
        "Pick the column to sort the run list by, in one key (0-8)",
        "Find",
    ),
    # View
    Command(
        "follow",
        "F",
        "toggle_follow",
        "Follow",
        "Show new records and files as they are written, keeping the view at the end (as less +F)",
        "View",
    ),
    Command("raw", "r", "toggle_raw", "Raw JSON", "Show the object as it is in the file", "View"),
    Command(
        "unfold",
        "o",
        "toggle_fold",
        "Unfold",
        "Show long values in full (o again folds them)",
        "View",
    ),
    Command(
        "merge",
        "m",
        "toggle_merge",
        "Merge chunks",
        "Merge adjacent streamed message chunks in the timeline",
        "View",
    ),
    # Data
    Command(
        "copy",
        "y",
        "copy",
        "Copy",
        "Copy the current object's text (OSC 52: works over SSH and in tmux)",
        "Data",
        footer="copy",
    ),
    Command(
        "copy-ref", "Y", "copy_ref", "Copy reference", "Copy the current object's reference", "Data"
    ),
    Command("pager", "e", "pager", "Open in pager", "Open the current object in $PAGER", "Data"),
    Command(
        "export",
        "x",
        "export",
        "Export",
        "Write the run table as listed, or the current run or step, to a file (csv, jsonl, "
        "markdown, html)",
        "Data",
    ),
    Command(
        "stats",
        "a",
        "stats",
        "Stats",
        "Stats across the runs listed: outcomes, pass@k, time, cost, tools (⏎ on a row lists its runs)",
        "Data",
    ),
    Command(
        "sql",
        "Q",
        "sql",
        "SQL query",
        "SQL over the runs, steps, tool_calls and trials tables of what is open (as trajtui sql);"
        " ⏎ on a row with a ref opens its run or step",
        "Data",
    ),
    Command(
        "reload",
        "R",
        "reload",
        "Reload",
        "Read the files again (after they changed on disk)",
        "Data",
    ),
    # Marks
    Command(
        "bookmark",
        "b",
        "bookmark",
        "Bookmark",
        "Bookmark the run, trial or step under the cursor (b again removes it)",
        "Marks",
    ),
    Command(
        "note",
        "A",
        "note",
        "Note…",
        "Write a short note on the run, trial or step under the cursor (empty clears it)",
        "Marks",
    ),
    Command(
        "bookmarks",
        "apostrophe",
        "bookmarks",
        "Bookmarks",
        "List the bookmarks and notes of every open source; enter goes to one",
        "Marks",
    ),
    # Compare
    Command(
        "compare",
        "c",
        "compare",
        "Mark / compare",
        "Mark the run (or the trial under the cursor) as A; c on another compares the two "
        "step by step (n / N: next / previous difference, enter: the two steps)",
        "Compare",
    ),
    Command(
        "compare-marked",
        "c",
        "compare_marked",
        "Compare with marked",
        "Compare the run (or trial) under the cursor with the one marked as A",
        "Compare",
        screen_binding=False,
    ),
    Command(
        "compare-sources",
        "C",
        "compare_sources",
        "Compare sources",
        "Two open sources' runs paired by prompt: flips first, pass rates, paired score "
        "difference; enter compares a prompt's two runs",
        "Compare",
    ),
    # App
    Command("help", "question_mark", "help", "Help", "Show every key", "App", footer="help"),
    Command(
        "palette",
        "ctrl+p",
        "app.command_palette",
        "Commands",
        "Open the command palette",
        "App",
        screen_binding=False,
    ),
    Command(
        "theme",
        "T",
        "toggle_dark",
        "Dark / light",
        "Switch between the dark and the light theme",
        "App",
    ),
    Command("quit", "q", "app.quit", "Quit", "Quit trajtui", "App", footer="quit"),
)
"""The commands every run has."""


def _view_commands() -> tuple[Command, ...]:
    """The commands the formats' views add (their panes' keys, their own), once each,
    saying which runs they apply to."""
    out: dict[str, Command] = {}
    for view in views():
        for c in view.all_commands():
            if c.id not in out:
                help_text = f"{c.help} ({view.runs_name})" if view.runs_name else c.help
                out[c.id] = Command(
                    c.id,
                    c.keys,
                    c.action,
                    c.title,
                    help_text,
                    c.group,
                    c.footer,
                    c.screen_binding,
                )
    return tuple(out.values())


COMMANDS: tuple[Command, ...] = BASE_COMMANDS + _view_commands()
"""Every command: the common ones, then those the formats' views add."""


def widget_bindings(actions: dict[str, str]) -> list[BindingType]:
    """Bindings of a widget for the commands the lists bind (``screen_binding=False``),
    from the table: ``actions`` maps a command's action to the widget's action for it."""
    return [
        Binding(c.keys, actions[c.action], c.title, show=False)
        for c in COMMANDS
        if not c.screen_binding and c.action in actions
    ]


def bindings() -> list[Binding]:
    """The main screen's bindings, from the table."""
    return [
        Binding(c.keys, c.action, c.footer or c.title, show=c.footer is not None, id=c.id)
        for c in COMMANDS
        if c.screen_binding
    ]
