"""Hand-made pairs for comparing, whose right answer is obvious: an inserted step, a changed
tool input, a run that stops early; and two sources whose prompts flip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.formats.acp.builders import capture, step_message, step_thought, step_tool, write_jsonl


def think() -> dict[str, Any]:
    return step_thought("I will look up the CEO of Anthropic.", 100)


def search() -> dict[str, Any]:
    return step_tool(
        "WebSearch", "completed", 200, input={"query": "anthropic ceo"}, output="Dario Amodei"
    )


def fetch(url: str = "https://anthropic.com/company") -> dict[str, Any]:
    return step_tool("WebFetch", "completed", 300, input={"url": url}, output="<html>team</html>")


def answer() -> dict[str, Any]:
    return step_message("The CEO of Anthropic is Dario Amodei.", 400)


def read_notes() -> dict[str, Any]:
    return step_tool("Read", "completed", 250, input={"path": "notes.md"}, output="...")


def pairs_fixture(directory: Path) -> Path:
    """base; inserted (a Read after the search); changed (another URL); early (stops after
    the search); and a run whose id tries markup."""
    return write_jsonl(
        directory / "pairs.jsonl",
        [
            capture("base", [think(), search(), fetch(), answer()], score={"pass": True}),
            capture("inserted", [think(), search(), read_notes(), fetch(), answer()]),
            capture(
                "changed",
                [think(), search(), fetch("https://anthropic.com/team"), answer()],
                score={"pass": False},
            ),
            capture("early", [think(), search()], output="", duration=400),
        ],
    )


def sources_fixture(directory: Path) -> tuple[Path, Path]:
    """Four prompts run before and after: p1 flips pass to fail, p2 fail to pass, p3 the
    same, p4 only before; p5 only after."""

    def rec(rid: str, passed: bool, score: float, steps: list[Any] | None = None) -> Any:
        return capture(rid, steps, score={"pass": passed, "score": score})

    before = write_jsonl(
        directory / "before.jsonl",
        [
            rec("p1", True, 0.9, [think(), search(), answer()]),
            rec("p2", False, 0.2),
            rec("p3", True, 0.8),
            rec("p4", True, 1.0),
        ],
    )
    after = write_jsonl(
        directory / "after.jsonl",
        [
            rec("p1", False, 0.1, [think(), search()]),
            rec("p2", True, 0.7),
            rec("p3", True, 0.8),
            rec("p5", True, 1.0),
        ],
    )
    return before, after
