"""What a Codex CLI rollout adds to the run header: the CLI version, model(s) and working
directory, its turns, the thread it was forked from (and its rollout, when in the folder
opened), and its tokens named for what they are (its own, from the ``token_count`` totals:
see :mod:`.tokens`; with the cached and reasoning parts the file gives).

Text from the file reaches the screen through :func:`~trajtui.core.io.text.visible`.
"""

from __future__ import annotations

from trajtui.core.io.text import visible
from trajtui.core.model import Run
from trajtui.formats.codex.detail import CodexRun
from trajtui.render.view import View


def _n(value: int) -> str:
    return f"{value:,}"


def _part(value: int | None, word: str) -> str:
    return f" ({_n(value)} {word})" if value is not None else ""


class CodexView(View):
    """The Codex view: a header line; steps show as the common screens draw them."""

    runs_name = "Codex sessions"

    def headline(self, run: Run) -> str | None:
        d = run.detail if isinstance(run.detail, CodexRun) else None
        if d is None:
            return None
        parts: list[str] = []
        if d.cli_version:
            parts.append(f"codex {d.cli_version}")
        if d.models:
            parts.append(d.models)
        if d.cwd:
            parts.append(d.cwd)
        if d.turns is not None:
            parts.append(f"{_n(d.turns)} turn{'s' if d.turns != 1 else ''}")
        if d.forked_from:
            where = f", {d.parent_label} in this folder" if d.parent_label else ""
            inherited = d.inherited_turns
            also = (
                f", {_n(inherited)} inherited turn{'s' if inherited != 1 else ''}"
                if inherited
                else ""
            )
            parts.append(f"fork of {d.forked_from}{where}{also}")
        if d.tokens_in is not None and d.tokens_out is not None:
            parts.append(
                f"tokens {_n(d.tokens_in)} in{_part(d.cached_in, 'cached')}"
                f" · {_n(d.tokens_out)} out{_part(d.reasoning_out, 'reasoning')}"
                " (its own, from the token_count totals)"
            )
        return visible(" · ".join(parts), keep_newlines=False) or None


VIEW = CodexView()
