"""One number, one meaning, on every surface of the CLI (issue 22, items 4 to 6, 8, 10, 11):
tool calls and tool errors, the pass share of graded runs, intervals that stay in the
possible range, one spelling per quantity. Each figure is read from what a user reads: an
``ls`` row, ``ls --json``, ``show``, ``stats`` (text and ``--json``) and ``diff``. The TUI's
side is in test_ui_counts_agree.py."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.formats.acp.adapters import claude_steps, codex_capture, gemini_steps
from tests.formats.acp.builders import capture, step_tool, summary, trials, write_jsonl
from tests.formats.atif import builders as atif
from tests.helpers import forked
from trajtui.formats.acp.pairing import count_tool_calls, pair_tool_calls


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=120
    )


def ls_rows(path: Path, *more: str) -> dict[str, list[str]]:
    """``ls`` rows by reference, split on runs of spaces (status is glyph and word)."""
    out = run("ls", str(path), *more)
    assert out.returncode in (0, 1), out.stderr
    return {line.split()[0]: line.split() for line in out.stdout.splitlines()[1:]}


def ls_json(path: Path, *more: str) -> dict[str, dict[str, Any]]:
    out = run("ls", "--json", str(path), *more)
    assert out.returncode in (0, 1), out.stderr
    return {o["ref"]: o for o in map(json.loads, out.stdout.splitlines())}


def stats_json(*args: str) -> dict[str, Any]:
    out = run("stats", "--json", *args)
    assert out.returncode == 0, out.stderr
    first: dict[str, Any] = json.loads(out.stdout.splitlines()[0])
    return first


def stats_text(*args: str) -> list[str]:
    out = run("stats", *args)
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


def adapters_file(path: Path) -> Path:
    """A codex run (2 calls still running at the end, 3 completed ones: 5 calls), a gemini
    run (a pending google_web_search and 3 completions named by call ids: the first
    completes it, 2 were recorded once: 3 calls) and a claude-code run (1 call)."""
    return write_jsonl(
        path,
        [
            codex_capture("codex", 2, 3),
            capture("gemini", gemini_steps("google_web_search", 3)),
            capture("claude", claude_steps("WebSearch")),
        ],
    )


# -- 6. tool calls: one count --------------------------------------------------------------------


def test_tool_calls_are_one_count_in_ls_show_stats_and_diff(tmp_path: Path) -> None:
    path = adapters_file(tmp_path / "adapters.jsonl")
    want = {"codex": 5, "gemini": 3, "claude": 1}
    assert {ref: o["tool_calls"] for ref, o in ls_json(path).items()} == want
    rows = ls_rows(path)
    assert {ref: int(cells[4]) for ref, cells in rows.items()} == want  # the CALLS column
    for ref, calls in want.items():
        shown = " ".join(run("show", str(path), ref).stdout.split())
        assert f"tool calls {calls} " in shown
    tools = stats_json(str(path))["tools"]
    assert tools["all"]["calls"] == 9
    by_tool = {name: t["calls"] for name, t in tools["by_tool"].items()}
    # the gemini completions named by call ids are calls of google_web_search
    assert by_tool == {"(unnamed)": 5, "google_web_search": 3, "WebSearch": 1}
    text = stats_text(str(path))
    assert any(line.split()[:3] == ["all", "9", "calls"] for line in text)
    assert not any("google_web_search-" in line for line in text)
    diff = run("diff", str(path), "codex", "gemini").stdout.splitlines()
    (calls_line,) = [line for line in diff if line.startswith("tool calls")]
    assert calls_line.split()[2:7] == ["5", "(0", "failed)", "3", "(0"]


def test_tool_names_of_gemini_call_ids_are_the_tool(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "g.jsonl", [capture("g", gemini_steps("read_file", 2))])
    assert ls_json(path)["g"]["tools"] == ["read_file"]
    assert ls_rows(path, "--where", "tool:read_file")["g"]
    out = run("ls", str(path), "--where", "tool:read_file-*")
    assert out.returncode == 1  # no tool is named by a call id


def test_a_tool_whose_name_holds_a_comma_is_one_tool_everywhere(tmp_path: Path) -> None:
    """A step's tools are names, never a joined string split again: a tool named
    ``lookup, fast`` is one tool in ``ls --json``, ``stats`` by tool and ``tool:``."""
    steps = [
        step_tool("lookup, fast", "pending", 100),
        step_tool("toolu_01", "completed", 200),
    ]
    path = write_jsonl(tmp_path / "c.jsonl", [capture("c", steps)])
    assert ls_json(path)["c"]["tools"] == ["lookup, fast"]
    assert list(stats_json(str(path))["tools"]["by_tool"]) == ["lookup, fast"]
    assert run("ls", str(path), "--where", "tool:lookup").returncode == 1


# -- 4. tool errors: the file's flag, and unknown never counted as 0 ------------------------------


def flagged_file(path: Path) -> Path:
    """Four codex runs: two killed by the harness (flagged ``toolErrors``, no failed step),
    one with a failed call (flagged too), one clean."""
    return write_jsonl(
        path,
        [
            codex_capture("killed-1", 1, 2, timed_out=True, passed=False, score=0.2),
            codex_capture("killed-2", 2, 0, timed_out=True, passed=False, score=0.2),
            codex_capture("failed-call", 0, 3, failed=1, passed=True, score=0.9),
            codex_capture("clean", 0, 2, passed=True, score=0.95),
        ],
    )


def test_runs_the_file_flags_are_marked_queryable_and_counted(tmp_path: Path) -> None:
    path = flagged_file(tmp_path / "codex.jsonl")
    rows = ls_rows(path)
    # ref, glyph, status, steps, calls, tool err
    assert rows["killed-1"][5] == "flagged" and rows["killed-2"][5] == "flagged"
    assert rows["failed-call"][5] == "1" and rows["clean"][5] == "0"
    objs = ls_json(path)
    assert [objs[r]["toolErrors"] for r in objs] == [True, True, True, False]
    assert [objs[r]["tool_errors"] for r in objs] == [0, 0, 1, 0]  # failed calls
    # every field a record has is queryable by its own name
    assert set(ls_rows(path, "--where", "toolErrors:true")) == {
        "killed-1",
        "killed-2",
        "failed-call",
    }
    assert set(ls_rows(path, "--where", "toolErrors:false")) == {"clean"}
    assert set(ls_rows(path, "--where", "tool_errors>0")) == {"failed-call"}
    tools = stats_json(str(path))["tools"]
    assert tools["flagged"]["num"] == 3 and tools["flagged"]["den"] == 4
    assert sorted(tools["flagged"]["refs"]) == ["failed-call", "killed-1", "killed-2"]
    text = stats_text(str(path))
    (flag_line,) = [line for line in text if line.split()[:1] == ["toolErrors"]]
    assert "3/4 runs" in flag_line


def test_a_format_that_does_not_tell_failures_is_never_counted_as_zero(tmp_path: Path) -> None:
    # acp-harness summary records name their tool calls and say nothing of their outcome
    path = write_jsonl(
        tmp_path / "s.jsonl", [summary("a", ["Read", "Edit"]), summary("b", ["Bash"])]
    )
    assert [o["tool_errors"] for o in ls_json(path).values()] == [None, None]
    assert [cells[5] for cells in ls_rows(path).values()] == ["—", "—"]
    tools = stats_json(str(path))["tools"]
    assert tools["all"]["calls"] == 3
    assert tools["all"]["failures"]["value"] is None
    assert tools["all"]["untold_runs"] == 2
    (all_line,) = [line for line in stats_text(str(path)) if line.split()[:1] == ["all"]]
    assert " 0 failed" not in all_line and "not told" in all_line
    diff = run("diff", str(path), "a", "b").stdout.splitlines()
    (calls_line,) = [line for line in diff if line.startswith("tool calls")]
    assert "0 failed" not in calls_line and "— failed" in calls_line


# -- 5. the pass share: a run the file grades is in the denominator ------------------------------


def graded_file(path: Path, *, flip: bool = False) -> Path:
    """Five codex runs the grader graded (two timed out, graded fail) and one it did not:
    2 of the 5 graded runs passed (``flip``: the first timeout passes too)."""
    return write_jsonl(
        path,
        [
            codex_capture("t1", 1, 2, timed_out=True, passed=flip, score=0.9 if flip else 0.2),
            codex_capture("t2", 1, 0, timed_out=True, passed=False, score=0.2),
            codex_capture("p1", 0, 2, passed=True, score=0.9),
            codex_capture("p2", 0, 1, passed=True, score=0.8),
            codex_capture("f1", 0, 1, passed=False, score=0.4),
            codex_capture("ungraded", 0, 1),
        ],
    )


def test_a_graded_timeout_is_in_the_pass_share_of_stats_and_diff(tmp_path: Path) -> None:
    a = graded_file(tmp_path / "a.jsonl")
    graded = stats_json(str(a))["outcomes"]["graded"]
    assert (graded["num"], graded["den"]) == (2, 5)
    assert sorted(graded["refs"]) == ["p1", "p2"]
    (line,) = [x for x in stats_text(str(a)) if x.split()[:3] == ["pass", "of", "graded"]]
    assert line.split()[3:6] == ["40.0%", "(2/5", "graded"]
    b = graded_file(tmp_path / "b.jsonl", flip=True)
    out = run("diff", str(a), str(b)).stdout
    assert "A 40.0% (2/5) · B 60.0% (3/5)" in out
    assert "flips: pass→fail 0 · fail→pass 1" in out  # t1: a graded timeout that now passes


# -- 8. intervals stay inside what a share or a score can be ---------------------------------


def test_the_interval_of_a_mean_pass_rate_of_3_runs_stays_in_0_1(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "t.jsonl",
        [trials("a", [True, True, True]), trials("b", [False, False, False]), trials("c", [True])],
    )
    score = stats_json(str(path))["score"]["pass rate"]
    low, high = score["ci95"]
    assert score["interval"] == "wilson" and 0 <= low < score["mean"] < high <= 1
    (line,) = [x for x in stats_text(str(path)) if x.split()[:3] == ["mean", "pass", "rate"]]
    shown = line.split("[", 1)[1].split("]", 1)[0]
    assert all(0 <= float(v) <= 1 for v in shown.split(", ")) and "(wilson, n=3)" in line


def test_scores_beyond_0_1_keep_the_t_interval_and_say_so(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [capture(f"r{n}", score={"pass": True, "score": v}) for n, v in enumerate((2, 5, 9))],
    )
    score = stats_json(str(path))["score"]["score"]
    assert score["interval"] == "t"
    assert any("(t, n=3)" in x for x in stats_text(str(path)))


def test_the_paired_difference_of_two_sources_stays_in_minus_1_1(tmp_path: Path) -> None:
    a = write_jsonl(
        tmp_path / "a.jsonl",
        [capture(f"p{n}", score={"pass": False, "score": 0.0}) for n in range(2)],
    )
    b = write_jsonl(
        tmp_path / "b.jsonl",
        [
            capture("p0", score={"pass": True, "score": 1.0}),
            capture("p1", score={"pass": True, "score": 0.9}),
        ],
    )
    out = run("diff", "--json", str(a), str(b))
    paired = json.loads(out.stdout)["paired_score_difference"]
    # a normal interval of (1.0, 0.9) would be 0.95 ± 0.098: above 1, which no difference is
    assert paired["interval"] == "wilson" and -1 <= paired["ci95"][0] < paired["ci95"][1] <= 1


# -- 10, 11. one spelling, one name per quantity ----------------------------------------------------


def test_stats_durations_read_as_the_list_spells_them_and_totals_say_so(tmp_path: Path) -> None:
    path = graded_file(tmp_path / "c.jsonl")
    longest = ls_rows(path)["t1"][6]  # the DURATION cell: 3m 00s
    text = stats_text(str(path))
    (line,) = [x for x in text if x.split()[:2] == ["total", "duration"]]
    assert f"max {longest} " in line
    assert any(x.split()[:2] == ["total", "duration"] for x in text)
    by = stats_text(str(path), "--by", "agent")
    assert any(x.split()[:5] == ["duration,", "cost,", "tokens:", "total", "duration"] for x in by)


def test_trials_score_is_the_pass_rate_and_passes_are_named(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "t.jsonl",
        [trials("a", [True, True, False, True, False]), trials("b", [True] * 5)],
    )
    rows = ls_rows(path)
    objs = ls_json(path)
    for ref in ("a", "b"):
        assert rows[ref][7] == f"{objs[ref]['score']:g}"  # the SCORE cell is the score
        assert "/" not in rows[ref][7]
    shown = " ".join(run("show", str(path), "a").stdout.split())
    assert "pass rate 0.6 " in shown and "passes 3 of 5 graded" in shown
    assert set(ls_rows(path, "--where", "passRate<1")) == {"a"}  # the file's own, by name
    assert set(ls_rows(path, "--where", "passAtK>=0.99")) == {"b"}


def test_one_reward_of_two_harbor_jobs_is_one_figure(tmp_path: Path) -> None:
    for name, rewards in (("job-a", {"reward": 1.0}), ("job-b", {"reward": 0.0, "style": 0.5})):
        trial = f"fix-bug__{name[-1].upper() * 4}111"
        atif.write_trial(
            tmp_path / name / trial,
            atif.fix_bug(),
            atif.trial_result(trial, "fix-bug", rewards=rewards),
        )
    scores = stats_json(str(tmp_path / "job-a"), str(tmp_path / "job-b"))["score"]
    assert list(scores) == ["reward"] and scores["reward"]["n"] == 2
    text = stats_text(str(tmp_path / "job-a"), str(tmp_path / "job-b"))
    assert [x.split()[:2] for x in text if x.split()[:1] == ["mean"]] == [["mean", "reward"]]


def test_the_row_count_is_the_timeline_pairing_for_any_mix_of_halves() -> None:
    # the run-list row counts the real files' shapes in one pass: it must equal the
    # timeline's pairing (a completion paired is the other half of a call) for any mix
    name = st.sampled_from(
        [
            "WebSearch",
            "Read",
            "toolu_01abc",
            "toolu_02def",
            "item_1",
            "item_3",
            "google_web_search",
            "google_web_search-1770691532470-cc1f5be1acd028",
            "google_web_search-x",
            "",
        ]
    )
    status = st.sampled_from(["pending", "in_progress", "completed", "failed", None])

    @settings(max_examples=400, deadline=None)
    @given(st.lists(st.tuples(name, status), max_size=14))
    def check(steps: list[tuple[str, str | None]]) -> None:
        names = [n for n, _ in steps]
        statuses = [s for _, s in steps]
        pairs = pair_tool_calls(names, statuses)
        assert count_tool_calls(names, statuses)[0] == len(steps) - len(pairs) // 2

    check()


def test_a_harbor_trial_whose_results_do_not_tell_failures_is_unknown_everywhere(
    tmp_path: Path,
) -> None:
    job = atif.job(tmp_path / "job")
    objs = ls_json(job)
    assert objs["add-docs__CCCC333"]["tool_calls"] == 1
    assert objs["add-docs__CCCC333"]["tool_errors"] is None  # its result does not say
    assert ls_rows(job)["add-docs__CCCC333"][5] == "—"
    tools = stats_json(str(job))["tools"]
    told = [o for o in objs.values() if o["tool_errors"] is not None]
    assert tools["all"]["failures"]["den"] == sum(o["tool_calls"] for o in told)
    assert tools["all"]["untold_calls"] == sum(
        o["tool_calls"] or 0 for o in objs.values() if o["tool_errors"] is None
    )
    diff = run("diff", str(job), "add-docs__CCCC333", "fix-bug__AAAA111").stdout.splitlines()
    (calls_line,) = [line for line in diff if line.startswith("tool calls")]
    assert calls_line.split()[2:7] == ["1", "(—", "failed)", "3", "(1"]


def test_exports_of_the_run_table_mark_the_runs_the_file_flags(tmp_path: Path) -> None:
    path = flagged_file(tmp_path / "codex.jsonl")
    rows = {
        r["ref"]: r
        for r in map(json.loads, run("export", str(path), "-f", "jsonl").stdout.splitlines())
    }
    assert [rows[r]["toolErrors"] for r in rows] == [True, True, True, False]
    assert [rows[r]["failed_tool_calls"] for r in rows] == [0, 0, 1, 0]
    table = run("export", str(path), "-f", "markdown").stdout.splitlines()
    heads = [c.strip() for c in table[0].strip("|").split("|")]
    cells = {
        line.split("|")[1].strip(): [c.strip() for c in line.strip("|").split("|")]
        for line in table[2:]
    }
    at = heads.index("tool errors")
    assert [cells[r][at] for r in ("killed-1", "failed-call", "clean")] == ["flagged", "1", "0"]


def test_a_harbor_trial_that_timed_out_and_was_graded_is_in_the_pass_share(
    tmp_path: Path,
) -> None:
    job = atif.job(tmp_path / "job")
    objs = ls_json(job)
    # AgentTimeoutError, and the verifier's reward 0.0: a timeout the file grades (a fail)
    assert (objs["fix-bug__BBBB222"]["outcome"], objs["fix-bug__BBBB222"]["pass"]) == (
        "timeout",
        False,
    )
    graded = stats_json(str(job))["outcomes"]["graded"]
    # graded: AAAA111 (reward 1.0, pass), BBBB222 (0.0), CCCC333 (0.75, partial): 1 of 3
    assert (graded["num"], graded["den"]) == (1, 3)
