"""What Claude Code sessions add to the screens: the header line (project, model, tokens),
and which line of the file a step is on."""

from __future__ import annotations

from trajtui.core.model import Run, Step
from trajtui.formats.claude_code.steps import StepInfo
from trajtui.render.view import Badge, Tone, View


class ClaudeCodeView(View):
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
