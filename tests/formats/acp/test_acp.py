"""acp-harness capture, trials and summary records in every version the notes list."""

from __future__ import annotations

from pathlib import Path

from tests.formats.acp.builders import (
    START,
    capture,
    step_message,
    step_thought,
    step_tool,
    summaries,
    summary,
    trials,
    write_jsonl,
)
from tests.helpers.workspace import open_paths
from trajtui.core.jsonl.source import JsonlSource
from trajtui.core.model import Kind, Outcome, Problem, RunSummary, Severity
from trajtui.core.steps import merge_chunks


def open_one(path: Path) -> JsonlSource:
    ws = open_paths([str(path)])
    assert not ws.problems, ws.problems
    (source,) = ws.sources
    assert isinstance(source, JsonlSource)
    for _ in source.scan():
        pass
    return source


def test_capture_with_tool_errors_and_score(tmp_path: Path) -> None:
    recs = [
        capture("t-1", score={"pass": True, "score": 0.92, "reasoning": "ok"}),
        capture(
            "t-2",
            tool_errors=True,
            score={"pass": False, "score": 0.1},
            trajectory=[step_tool("Read", "failed", 10, error="ENOENT")],
        ),
        capture(
            "t-3",
            output="",
            trajectory=[],
            tool_errors=True,
            errors=["Request timed out after 60000ms"],
        ),
        capture(
            "t-4", metadata={"timedOut": True, "signal": "SIGTERM"}, tool_errors=True, trajectory=[]
        ),
        capture("t-5"),
    ]
    source = open_one(write_jsonl(tmp_path / "c.jsonl", recs))
    assert source.format.id == "acp-capture"
    s = summaries(source)
    assert [x.status for x in s] == ["pass", "fail", "timeout", "timeout", "done"]
    assert s[0].score == 0.92 and s[0].passed is True and s[0].steps == 3
    assert s[1].tool_errors is True and s[1].failed_tool_calls == 1
    assert s[2].steps == 0 and s[2].duration_ms == 1234
    assert s[4].outcome is Outcome.DONE and s[4].score is None


def test_legacy_status_field_instead_of_tool_errors(tmp_path: Path) -> None:
    recs = [
        capture(f"old-{i}", tool_errors=None, status=st)
        for i, st in enumerate(["passed", "failed", "error", "timeout"])
    ]
    source = open_one(write_jsonl(tmp_path / "old.jsonl", recs))
    s = summaries(source)
    assert [x.status for x in s] == ["pass", "fail", "error", "timeout"]
    assert [x.outcome for x in s] == [Outcome.PASS, Outcome.FAIL, Outcome.ERROR, Outcome.TIMEOUT]
    assert all(x.tool_errors is None for x in s)


def test_expected_or_hint_and_multi_turn_input(tmp_path: Path) -> None:
    recs = [
        capture("e-1", expected="should contain <button>"),
        capture("h-1", hint="A good answer names Dario", input=["first turn", "second turn"]),
    ]
    source = open_one(write_jsonl(tmp_path / "c.jsonl", recs))
    run0, run1 = source.run(0), source.run(1)
    assert ("expected", "should contain <button>") in [(f.label, f.value) for f in run0.fields]
    assert ("hint", "A good answer names Dario") in [(f.label, f.value) for f in run1.fields]
    assert run1.summary.title == "first turn"
    assert [f.value for f in run1.fields if f.label == "input"] == [["first turn", "second turn"]]


def test_step_refs_with_and_without_stored_step_id(tmp_path: Path) -> None:
    traj = [
        step_thought("plan", 100, stepId="test-001-step-1"),
        step_tool(
            "Write",
            "completed",
            150,
            input={"file_path": "a.tsx"},
            output="ok",
            duration=234,
            stepId="test-001-step-2",
        ),
        step_message("done", 500, stepId="custom-id-xyz"),
    ]
    source = open_one(
        write_jsonl(tmp_path / "c.jsonl", [capture("test-001", traj), capture("test-002")])
    )
    run = source.run(0)
    assert [s.ref for s in run.steps] == ["test-001-step-1", "test-001-step-2", "test-001-step-3"]
    assert run.steps[2].stored_id == "custom-id-xyz"
    assert source.resolve("test-001-step-2").step == 2
    # a stored stepId that differs from the synthesised one resolves too
    target = source.resolve("custom-id-xyz")
    assert (target.index, target.step, target.ref) == (0, 3, "test-001-step-3")
    # records without stepId get synthesised ids
    assert [s.ref for s in source.run(1).steps][1] == "test-002-step-2"


def test_relative_and_epoch_timestamps(tmp_path: Path) -> None:
    traj_rel = [step_message("a", 0), step_tool("X", "completed", 2500, duration=100)]
    traj_epoch = [step_message("a", START + 10), step_message("b", START + 4000)]
    source = open_one(
        write_jsonl(tmp_path / "c.jsonl", [capture("r", traj_rel), capture("e", traj_epoch)])
    )
    assert [s.offset_ms for s in source.run(0).steps] == [0, 2500]
    assert source.run(0).steps[1].duration_ms == 100
    assert [s.offset_ms for s in source.run(1).steps] == [10, 4000]


def test_tool_call_halves_are_paired(tmp_path: Path) -> None:
    traj = [
        step_message("Use web search", 1),
        step_tool("google_web_search", "pending", 2),  # gemini
        step_tool("google_web_search-1770691532470-cc1f5be1", "completed", 3),
        step_tool("WebSearch", "pending", 4, input={"query": "x"}),  # claude/droid
        step_tool("toolu_017kRDALm2xSSgq8", "completed", 5),
        step_tool("toolu_01MVCdv5yb4oQt5M", "completed", 6),  # no pending half: unpaired
        step_tool("item_1", "in_progress", 7),  # codex
        step_tool("item_3", "completed", 8),
        step_tool("item_1", "completed", 9),
    ]
    source = open_one(write_jsonl(tmp_path / "c.jsonl", [capture("p", traj)]))
    steps = source.run(0).steps
    pairs = {s.number: s.pair for s in steps if s.pair is not None}
    assert pairs == {2: 3, 3: 2, 4: 5, 5: 4, 7: 9, 9: 7}
    assert steps[1].outcome is Outcome.RUNNING and steps[2].outcome is Outcome.DONE


def test_streamed_chunks_merge_for_display(tmp_path: Path) -> None:
    traj = [
        step_message("Here", 1),
        step_message(" are", 1),
        step_message("", 1),
        step_message(" results", 2),
        step_tool("Read", "completed", 3),
        step_message("Bye", 4),
    ]
    source = open_one(write_jsonl(tmp_path / "c.jsonl", [capture("m", traj)]))
    steps = source.run(0).steps
    assert len(steps) == 6  # the file's steps stay as they are
    groups = merge_chunks(steps)
    assert [(g.first, g.last) for g in groups] == [(0, 3), (4, 4), (5, 5)]
    assert groups[0].text == "Here are results"
    assert steps[2].title == "(empty)"


def test_errored_capture_record(tmp_path: Path) -> None:
    rec = {
        "id": "x",
        "input": "q",
        "output": "",
        "trajectory": [],
        "metadata": {},
        "timing": {"start": START, "end": START + 60000},
        "toolErrors": True,
        "errors": ["Request timed out after 60000ms"],
    }
    source = open_one(write_jsonl(tmp_path / "c.jsonl", [rec]))
    (s,) = summaries(source)
    assert (s.status, s.steps, s.duration_ms, s.tool_errors) == ("timeout", 0, 60000, True)
    run = source.run(0)
    assert ("errors", ["Request timed out after 60000ms"]) in [
        (f.label, f.value) for f in run.fields
    ]


def test_trials_with_and_without_grader(tmp_path: Path) -> None:
    recs = [
        trials("s-1", [True, False, True]),
        trials("s-2", [None, None], with_rates=False),
        trials("s-3", [False, False]),
    ]
    errored = trials("s-4", [True])
    errored["trials"].append(
        {
            "trialNum": 2,
            "output": "",
            "trajectory": [],
            "pass": False,
            "reasoning": "Error: agent crashed",
            "duration": 5,
        }
    )
    errored["k"], errored["passRate"] = 2, 0.5
    recs.append(errored)
    source = open_one(write_jsonl(tmp_path / "t.jsonl", recs))
    assert source.format.id == "acp-trials"
    s = summaries(source)
    assert [x.status for x in s] == ["mixed", "done", "fail", "mixed"]
    assert (s[0].passes, s[0].attempts, s[0].steps) == (2, 3, 9)
    assert s[1].passes is None and s[1].score is None
    run = source.run(0)
    assert [a.ref for a in run.attempts] == ["s-1/trial-1", "s-1/trial-2", "s-1/trial-3"]
    assert [a.status for a in run.attempts] == ["pass", "fail", "pass"]
    assert run.attempts[0].steps[1].ref == "s-1/trial-1/step-2"
    assert run.attempts[0].steps[0].pair == 2
    assert source.run(3).attempts[1].status == "error"
    t = source.resolve("s-1/trial-2/step-3")
    assert (t.attempt, t.step) == (2, 3)


def test_summary_records(tmp_path: Path) -> None:
    source = open_one(
        write_jsonl(
            tmp_path / "s.jsonl", [summary("a", ["Write"]), summary("b", ["Read", "Edit"], 2567)]
        )
    )
    assert source.format.id == "acp-summary"
    s = summaries(source)
    assert [(x.steps, x.duration_ms, x.status) for x in s] == [(1, 1234, None), (2, 2567, None)]
    assert [st.title for st in source.run(1).steps] == ["Read", "Edit"]
    assert source.resolve("b-step-2").ref == "b-step-2"


def test_broken_lines_become_problems_and_good_records_load(tmp_path: Path) -> None:
    p = tmp_path / "broken.jsonl"
    p.write_bytes(
        b"\xef\xbb\xbf" + b'{"id":"a","input":"x","output":"","trajectory":[],"timing":{}}\r\n'
        b"\n"
        b"{not json\n"
        b"[1, 2, 3]\n"
        b'"just a string"\n'
        b'{"input":"no id","trajectory":[],"timing":{}}\n'
        b'{"id":"bad-utf8","input":"caf\xe9","trajectory":[],"timing":{}}\n'
        b'{"id":"b","input":"y","trajectory":[],"timing":{}}\n'
        b'{"id":"c","input":"tru'
    )
    source = open_one(p)
    entries = [source.entry(i) for i in range(len(source))]
    kinds = ["run" if isinstance(e, RunSummary) else "problem" for e in entries]
    assert kinds == ["run", "problem", "problem", "problem", "problem", "run", "run", "problem"]
    probs = {pr.line: pr for pr in source.problems()}
    assert probs[1].severity is Severity.WARNING and "byte-order mark" in probs[1].message
    assert "blank line" in probs[2].message
    assert "invalid JSON" in probs[3].message
    assert "found an array" in probs[4].message
    assert "found a string" in probs[5].message
    assert 'no "id"' in probs[6].message
    assert probs[7].severity is Severity.WARNING and "UTF-8" in probs[7].message
    assert "truncated last line" in probs[9].message
    assert str(probs[3]) == f"{p}:3: {probs[3].message}"
    assert [e.ref for e in entries if isinstance(e, RunSummary)] == ["a", "bad-utf8", "b"]
    assert isinstance(entries[1], Problem)


def test_kinds_and_titles(tmp_path: Path) -> None:
    traj = [
        step_thought("Thinking\nmore", 1),
        {"type": "plan", "entries": [{"content": "Search", "status": "pending"}], "timestamp": 2},
        step_tool("Read", "completed", 3, input={"file_path": "src/main.tf"}),
        {"type": "weird", "timestamp": 4},
        "not-an-object",
    ]
    source = open_one(write_jsonl(tmp_path / "c.jsonl", [capture("k", traj)]))
    steps = source.run(0).steps
    assert [s.kind for s in steps] == [
        Kind.THOUGHT,
        Kind.PLAN,
        Kind.TOOL_CALL,
        Kind.OTHER,
        Kind.OTHER,
    ]
    assert steps[0].title == "Thinking"
    assert steps[1].title == "1 entries: Search"
    assert steps[2].input == {"file_path": "src/main.tf"}
    assert steps[4].title.startswith("(not an object")


def test_a_record_still_being_written_is_read_again_when_it_is_finished(tmp_path: Path) -> None:
    import json

    p = tmp_path / "live.jsonl"
    p.write_text(json.dumps(capture("a")) + "\n" + json.dumps(capture("b"))[:40])
    source = open_one(p)
    assert isinstance(source.entry(1), Problem)
    with p.open("a") as f:
        f.write(json.dumps(capture("b"))[40:] + "\n" + json.dumps(capture("c")) + "\n")
    assert source.changed() == "appended"
    for _ in source.scan():
        pass
    assert [source.entry(i).ref for i in range(len(source))] == ["a", "b", "c"]
    assert source.resolve("b-step-1").index == 1


def test_call_ids_are_not_listed_as_tool_names() -> None:
    from trajtui.formats.acp.pairing import looks_like_call_id

    ids = [
        "toolu_017kRDALm2xSSgq8",
        "call_abc",
        "fc_1",
        "tooluse_x",
        "functions.search",
        "item_3",
        "item_\u0663",  # a decimal digit, as the pattern's \d reads it
        "0123456789abcdef-012a",
        "0123456789abcdef-012a\n",  # "$" matches before a final newline
    ]
    names = [
        "Read",
        "item_",
        "item_x",
        "item_\u00b2",  # a superscript is a digit but not a decimal one
        "google_web_search-17706-cc1f",
        "0123456789abcdef-01",  # 19: 20 characters is the least
        "0123456789ABCDEF-012a",
        "0123456789abcdef-012a\n\n",
        "",
    ]
    assert [n for n in ids if not looks_like_call_id(n)] == []
    assert [n for n in names if looks_like_call_id(n)] == []
