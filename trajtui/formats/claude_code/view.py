"""What Claude Code sessions add to the screens: the header line (project, model, tokens),
and which line of the file a step is on."""

from __future__ import annotations

from trajtui.core.model import Run, Step
from trajtui.formats.claude_code.steps import StepInfo
from trajtui.render.view import Badge, Tone, View, ViewCommand


class ClaudeCodeView(View):
    """Claude Code sessions: the header line, a step's badge, and an agent call's
    subagent opened from its step (``i``; ``backspace`` returns)."""

    runs_name = "Claude Code sessions"
    link_name = "subagent"
    commands = (
        ViewCommand(
            "open-subagent",
            "i",
            "open_link",
            "Open subagent run",
            "Open the run the selected step started: an agent call's subagent, a compaction's worker",
            "Panes",
            footer="subagent",
        ),
        ViewCommand(
            "link-back",
            "backspace",
            "link_back",
            "Back to agent call",
            "Return to the step that run was opened from",
            "Panes",
            footer="back to call",
        ),
    )

    def step_link(self, step: Step) -> str | None:
        info = step.detail
        return info.subagent if isinstance(info, StepInfo) else None

    def headline(self, run: Run) -> str | None:
        meta = dict(run.summary.metadata)
        parts = [
            meta.get("project"),
            meta.get("model"),
            f"Claude Code {meta['version']}" if "version" in meta else None,
        ]
        turns = meta.get("turns")
        if turns:
            parts.append(f"{turns} model turns")
        return " · ".join(p for p in parts if p) or None

    def step_badge(self, step: Step) -> Badge | None:
        info = step.detail
        if not isinstance(info, StepInfo):
            return None
        if step.status == "no result":
            return Badge("no result", Tone.WARNING)
        if info.sidechain:
            return Badge("sidechain", Tone.WARNING)
        return None


VIEW = ClaudeCodeView()
