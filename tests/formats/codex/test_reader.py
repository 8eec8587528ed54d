"""The Codex reader on our own fixtures: every line type the notes name, in the shapes of
0.20 (flat), 0.60 and 0.171, read into the run-list row (the fold) and the timeline."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.formats.codex import builders as b
from tests.helpers.workspace import open_paths
from trajtui.core.model import Kind, Outcome, RunSummary, Step
from trajtui.formats.codex.fold import Facts, Fold
from trajtui.formats.codex.lines import normalise
from trajtui.formats.codex.timeline import answers_of, steps_of


def read(raws: list[Any]) -> tuple[Facts, list[Step]]:
    lines = [normalise(r) for r in raws]
    fold = Fold()
    for line in lines:
        fold.feed(line)
    facts = fold.facts()
    steps = steps_of(
        zip(lines, raws, strict=True), "R", start=facts.first_time, answers=answers_of(lines)
    )
    assert len(steps) == facts.steps
    return facts, steps


def titles(steps: list[Step]) -> list[str]:
    return [s.title for s in steps]


def test_v060_counts_and_tokens_are_the_files() -> None:
    facts, steps = read(b.session_v060().lines)
    assert (facts.turns, facts.tool_calls, facts.tool_errors) == (1, 4, 1)
    assert facts.tools == ("apply_patch", "shell_command")
    # the last cumulative total, not a sum of the repeated events
    assert facts.tokens is not None
    assert (facts.tokens.input, facts.tokens.output, facts.tokens.cached_input) == (9000, 400, 4500)
    assert (facts.status, facts.outcome) == ("completed", Outcome.DONE)
    assert facts.thread_id == b.THREAD_060 and facts.cwd == "/home/dev/proj"
    assert facts.models == ("gpt-5-codex",)
    assert facts.duration_label == "span of line timestamps"
    # when and where it started, then the first prompt
    assert facts.title == "2026-11-20 09:00Z · /home/dev/proj · Fix the failing test in parser.py"
    assert dict(facts.meta)["date"] == "2026-11-20"


def test_text_recorded_twice_is_shown_once() -> None:
    _, steps = read(b.session_v060().lines)
    texts = [s.text for s in steps if s.text]
    assert texts.count("Running the tests first.") == 1
    assert texts.count("Fix the failing test in parser.py") == 1
    assert texts.count("**Looking at the tests**") == 1
    assert texts.count("Fixed: the parser test passes.") == 1
    _, steps = read(b.session_v0171().lines)
    texts = [s.text for s in steps if s.text]
    assert texts.count("Add a health endpoint") == 1
    assert texts.count("The endpoint is added; one test fails.") == 1


def test_v060_timeline_kinds_and_calls() -> None:
    _, steps = read(b.session_v060().lines)
    kinds = [s.kind for s in steps]
    assert kinds == [
        Kind.OTHER,  # session
        Kind.OTHER,  # environment context
        Kind.MESSAGE,  # the prompt
        Kind.THOUGHT,
        Kind.MESSAGE,
        Kind.TOOL_CALL,
        Kind.TOOL_CALL,
        Kind.TOOL_CALL,
        Kind.TOOL_CALL,
        Kind.MESSAGE,
    ]
    assert steps[1].title == "user context: environment_context"
    assert steps[2].title == "turn 1 · Fix the failing test in parser.py"
    calls = [s for s in steps if s.kind is Kind.TOOL_CALL]
    assert [c.status for c in calls] == ["completed", "failed", "completed", "completed"]
    assert calls[1].input == {"command": "cat missing.txt"}
    assert calls[1].output == b.shell_out(2, "cat: missing.txt: No such file\n")
    assert calls[1].stored_id == "call_a2"
    patch = calls[2]
    assert patch.tools == ("apply_patch",) and patch.title == "apply_patch Add File: notes.txt"
    assert patch.input.startswith("*** Begin Patch")  # freeform, not JSON
    assert patch.output == "Success. Updated the following files:\nA notes.txt\n"
    assert calls[0].duration_ms is not None and calls[0].offset_ms is not None
    # the reasoning's opaque blob is not shown or searched
    assert all("gAAAA" not in (s.text or "") for s in steps)


def test_v0171_turns_statuses_and_durations() -> None:
    facts, steps = read(b.session_v0171().lines)
    assert (facts.turns, facts.tool_calls, facts.tool_errors) == (1, 2, 1)
    assert facts.duration_ms == 2500 and facts.duration_label == "sum of 1 turn duration_ms"
    assert facts.tokens is not None and (facts.tokens.input, facts.tokens.output) == (7000, 300)
    assert dict(facts.meta)["cli_version"] == "0.171.0"
    assert facts.models == ("gpt-5.2-codex",)
    assert titles(steps)[1] == "developer context: permissions instructions"
    # base_instructions (the system prompt) is no message
    assert not any("You are Codex." in (s.text or "") for s in steps)
    calls = [s for s in steps if s.kind is Kind.TOOL_CALL]
    assert [(c.title, c.status) for c in calls] == [
        ("exec_command ls src", "completed"),
        ("exec_command python -m pytest", "failed"),
    ]


def test_v020_flat_rollout() -> None:
    facts, steps = read(b.session_v020())
    assert facts.thread_id == b.THREAD_020
    assert (facts.turns, facts.tool_calls, facts.tool_errors) == (1, 2, 1)
    assert facts.tokens is None  # 0.20 writes no token counts: unknown, never 0
    assert facts.duration_ms is None
    assert titles(steps) == [
        f"session · {b.THREAD_020}",
        "turn 1 · List the files and count them",
        "**Listing**",
        "shell ls",
        "shell wc -l nope",
        "There are 2 files.",
    ]
    assert [s.status for s in steps if s.kind is Kind.TOOL_CALL] == ["completed", "failed"]
    assert steps[4].output == "wc: nope: No such file\n"


def test_interrupted_call_is_shown_never_completed() -> None:
    r = b.Rollout().meta("t-1", "/w", "0.60.1").context()
    r.item(b.message("user", "run the slow thing"))
    r.item(b.call("call_s", "shell_command", command="sleep 100"))
    r.event("turn_aborted", reason="interrupted")
    facts, steps = read(r.lines)
    call = next(s for s in steps if s.kind is Kind.TOOL_CALL)
    assert call.status == "pending" and call.output is None and call.pair is None
    assert facts.tool_calls == 1 and facts.never_completed == 1 and facts.tool_errors == 0
    assert (facts.status, facts.outcome) == ("interrupted", Outcome.ERROR)
    assert steps[-1].title == "turn aborted: interrupted" and steps[-1].error == "interrupted"


def test_file_ending_inside_a_turn_has_no_status() -> None:
    r = b.Rollout(ordinals=True).meta("t-2", "/w", "0.171.0")
    r.event("task_started", turn_id="x").item(b.message("user", "go"))
    r.item(b.message("assistant", "working on it", phase="commentary"))
    facts, _ = read(r.lines)
    assert (facts.status, facts.outcome) == (None, Outcome.NONE)


def test_compacted_line_and_web_search() -> None:
    r = b.Rollout().meta("t-3", "/w", "0.60.1").context()
    r.item(b.message("user", "look it up"))
    r.item(
        {
            "type": "web_search_call",
            "status": "completed",
            "action": {"type": "search", "query": "codex rollout format"},
        }
    )
    history = [b.message("user", "look it up"), b.message("assistant", "old answer")]
    r.add(
        "compacted",
        {"message": "Summary: the user asked for a lookup.", "replacement_history": history},
    )
    r.event("context_compacted")
    facts, steps = read(r.lines)
    search = next(s for s in steps if s.kind is Kind.TOOL_CALL)
    assert (search.title, search.status, search.tools) == (
        "web_search codex rollout format",
        "completed",
        ("web_search",),
    )
    assert facts.tool_calls == 1 and facts.tools == ("web_search",)
    compacted = [s for s in steps if s.title.startswith("compacted")]
    assert len(compacted) == 1
    assert compacted[0].title == "compacted: Summary: the user asked for a lookup."
    # the replacement history is not shown again as new steps
    assert sum(1 for s in steps if s.text == "old answer") == 0
    assert facts.turns == 1


def test_unknown_types_are_kept_verbatim() -> None:
    r = b.Rollout(ordinals=True).meta("t-4", "/w", "0.171.0")
    r.add("hologram_record", {"beam": 3})
    r.item({"type": "telepathy_call", "thought": "hi"})
    r.event("brand_new_event", detail="x")
    _, steps = read(r.lines)
    others = steps[1:]
    assert [s.kind for s in others] == [Kind.OTHER] * 3
    assert [s.raw for s in others] == r.lines[1:]
    assert titles(others) == ["hologram_record", "telepathy_call", "brand new event"]


def test_several_turns_are_numbered() -> None:
    r = b.Rollout().meta("t-5", "/w", "0.60.1").context()
    for n in range(3):
        r.item(b.message("user", f"question {n}")).item(b.message("assistant", f"answer {n}"))
    facts, steps = read(r.lines)
    assert facts.turns == 3
    assert [s.title for s in steps if s.title.startswith("turn ")] == [
        "turn 1 · question 0",
        "turn 2 · question 1",
        "turn 3 · question 2",
    ]


def test_fixture_lines_are_json() -> None:
    assert all(json.loads(x) for x in b.session_v0171().text().splitlines())


def test_ts_era_document_is_read_whole(tmp_path: Path) -> None:
    items = [
        b.message("user", "rename the module"),
        b.reasoning("**Renaming**"),
        {
            "type": "function_call",
            "name": "shell",
            "call_id": "c1",
            "arguments": json.dumps({"command": ["bash", "-lc", "git mv a.py b.py"]}),
        },
        b.output("c1", b.json_out(128, "fatal: not under version control\n")),
        b.message("assistant", "It is not a git repository."),
    ]
    doc = {
        "session": {
            "timestamp": "2025-05-02T10:00:00.000Z",
            "id": "ts-1",
            "instructions": "be brief",
        },
        "items": items,
    }
    path = tmp_path / "rollout-2025-05-02-ts-1.json"
    path.write_text(json.dumps(doc, indent=2))
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    source = ws.sources[0]
    row = source.entry(0)
    assert isinstance(row, RunSummary)
    assert (row.ref, row.tool_calls, row.failed_tool_calls, row.tokens_in) == ("ts-1", 1, 1, None)
    assert row.title == "2025-05-02 10:00Z · rename the module"
    steps = source.run(0).steps
    assert [s.title for s in steps] == [
        "session · ts-1",
        "turn 1 · rename the module",
        "**Renaming**",
        "shell git mv a.py b.py",
        "It is not a git repository.",
    ]
    assert steps[3].status == "failed"


def test_a_rollout_still_being_written_is_followed(tmp_path: Path) -> None:
    r = b.Rollout().meta("t-6", "/w", "0.60.1").context()
    r.item(b.message("user", "first question"))
    path = r.write(tmp_path / "rollout-live.jsonl")
    ws = open_paths([str(path)])
    source = ws.sources[0]
    for _ in source.scan():
        pass
    row = source.entry(0)
    assert isinstance(row, RunSummary) and row.status is None  # inside its first turn
    r.item(b.call("call_z", "shell_command", command="make"))
    r.item(b.output("call_z", b.shell_out(2, "error\n")))
    r.item(b.message("assistant", "make failed"))
    r.write(path)
    assert source.changed() is not None
    for _ in source.refresh():
        pass
    row = source.entry(0)
    assert isinstance(row, RunSummary)
    assert (row.status, row.tool_calls, row.failed_tool_calls) == ("completed", 1, 1)
    assert source.run(0).steps[-1].title == "make failed"
    ws.close()


def test_calls_of_every_item_type_and_failures_said_by_events_are_counted() -> None:
    """What the TUI writes besides the outputs: a command's end event with its exit code, a
    patch not applied, an MCP tool's error; an output written as content items; tool
    search and image generation calls."""
    r = b.Rollout().meta("t-events", "/w", "0.171.0").context()
    r.item(b.message("user", "go"))
    r.item(b.call("c1", "exec_command", cmd="make"))
    r.event("exec_command_end", call_id="c1", exit_code=2, aggregated_output="boom")
    r.item(b.output("c1", "Chunk ID: 1\nWall time: 0.1 seconds\nOutput:\nboom\n"))
    r.item(b.patch("c2", "a.txt"))
    r.event("patch_apply_end", call_id="c2", success=False, stdout="", stderr="no such file")
    r.item(b.output("c2", "apply_patch verification failed: no such file", custom=True))
    r.item(b.call("c3", "docs__search", query="x"))
    r.event("mcp_tool_call_end", call_id="c3", result={"Err": "server gone"})
    r.item(b.output("c3", "server gone"))
    r.item(b.call("c4", "exec_command", cmd="ls"))
    out = [{"type": "input_text", "text": "Process exited with code 3\nOutput:\n"}]
    r.item({"type": "function_call_output", "call_id": "c4", "output": out})
    r.item({"type": "tool_search_call", "call_id": "c5", "status": "completed", "arguments": {}})
    r.item({"type": "tool_search_output", "call_id": "c5", "status": "completed", "tools": []})
    r.item({"type": "image_generation_call", "id": "ig1", "status": "failed"})
    r.item(b.call("c6", "exec_command", cmd="true"))
    r.item(b.output("c6", b.exec_out(0, "")))
    facts, steps = read(r.lines)
    assert (facts.tool_calls, facts.tool_errors) == (7, 5)
    assert "tool_search" in facts.tools and "image_generation" in facts.tools
    states = {s.stored_id: s.status for s in steps if s.kind == Kind.TOOL_CALL}
    assert states["c1"] == states["c2"] == states["c3"] == states["c4"] == "failed"
    assert states["c6"] == "completed"
