"""Capture records in the shapes the acp-harness adapters of real agents write (never copies
of the samples): how each adapter writes tool calls, timeouts and the ``toolErrors`` flag.

* codex (headless adapter): each call is an item named by its id (``item_3``); a call still
  running when the run ended stays ``in_progress`` with no completion, the others appear
  once, ``completed``; a run the harness killed has ``metadata.timedOut: true``, ``signal:
  SIGTERM`` and ``toolErrors: true`` though no step failed (the harness sets the flag when a
  tool call failed *or* the run timed out);
* gemini: a ``pending`` half named by the tool, completions named by a call id made of the
  tool's name, a millisecond timestamp and hex (``google_web_search-1770691532470-cc1f5``);
  a call recorded only by its completion is named by such an id alone;
* claude-code: a ``pending`` half named by the tool, a completion named ``toolu_…``.
"""

from __future__ import annotations

from typing import Any

from tests.formats.acp.builders import capture, step_message, step_tool


def codex_steps(opened: int, completed: int, *, failed: int = 0) -> list[dict[str, Any]]:
    """``opened`` calls left ``in_progress`` (never completed), ``completed`` calls written
    once each, ``failed`` of them ``failed``, then the answer."""
    steps: list[dict[str, Any]] = []
    n = 1
    for _ in range(opened):
        steps.append(step_tool(f"item_{n}", "in_progress", 90_000))
        n += 2
    for k in range(completed):
        status = "failed" if k < failed else "completed"
        steps.append(step_tool(f"item_{n}", status, 90_000, duration=0))
        n += 2
    steps.append(step_message("Here is what I found.", 90_001))
    return steps


def codex_capture(
    rid: str,
    opened: int,
    completed: int,
    *,
    timed_out: bool = False,
    passed: bool | None = None,
    score: float | None = None,
    failed: int = 0,
) -> dict[str, Any]:
    """A codex capture record (``toolErrors`` as the harness sets it: a failed call or a
    timeout)."""
    meta: dict[str, Any] = {"agent": "codex-headless", "trajectoryRichness": "full"}
    meta.update(exitCode=0, timedOut=timed_out)
    if timed_out:
        meta["signal"] = "SIGTERM"
    grade = None if passed is None else {"pass": passed, "score": score, "reasoning": "graded"}
    return capture(
        rid,
        codex_steps(opened, completed, failed=failed),
        output="" if timed_out else "Here is what I found.",
        tool_errors=timed_out or failed > 0,
        score=grade,
        metadata=meta,
        duration=180_000 if timed_out else 60_000,
    )


def gemini_call_id(tool: str, n: int) -> str:
    """A Gemini call id: the tool's name, a millisecond timestamp and hex digits."""
    return f"{tool}-{1770691532470 + n}-{0xCC1F5BE1ACD028 + n:x}"


def gemini_steps(tool: str, completions: int) -> list[dict[str, Any]]:
    """One ``pending`` call of ``tool`` then ``completions`` completions named by call ids
    (the first completes the pending call; the others were recorded only once)."""
    steps = [step_tool(tool, "pending", 17_000)]
    steps += [step_tool(gemini_call_id(tool, n), "completed", 17_000) for n in range(completions)]
    steps.append(step_message("The answer.", 17_001))
    return steps


def claude_steps(tool: str) -> list[dict[str, Any]]:
    """A ``pending`` call of ``tool`` completed by a ``toolu_`` id."""
    return [
        step_tool(tool, "pending", 100, input={"query": "q"}),
        step_tool("toolu_01Nh3harjsZnLSFd5YykFcjd", "completed", 900, duration=800),
        step_message("The answer.", 1000),
    ]
