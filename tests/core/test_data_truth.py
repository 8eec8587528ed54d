"""What the file says, named for what it is (issue 8, "wrong or missing data"): pass shares
of trials, timeouts, durations, runs with no samples, tool calls and tool errors, ultraplan
problems and plans without results, and what a forecast model call saw. Core and CLI here;
what the TUI shows is in test_ui_data_truth.py."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner, Result

from tests.formats.acp.builders import capture, summary, trials, write_jsonl
from tests.formats.forecast import builders as fc
from tests.formats.ultraplan.builders import log, result, write_result
from tests.helpers.shapes import (
    empty_run_tree,
    planned_project,
    timed_out,
    tool_calls_capture,
    trials_file,
)
from tests.helpers.workspace import open_paths
from trajtui.cli import cli
from trajtui.core.model import Outcome, Problem, RunSummary, Severity
from trajtui.core.source import Source
from trajtui.core.stats.passk import PassTally, tally
from trajtui.core.workspace import Workspace
from trajtui.ui.store import RunStore


def scanned(*paths: Path) -> Workspace:
    ws = open_paths([str(p) for p in paths])
    for _ in ws.scan():
        pass
    return ws


def entries(source: Source) -> list[RunSummary | Problem]:
    return [source.entry(i) for i in range(len(source))]


def runs(source: Source) -> dict[str, RunSummary]:
    return {e.ref: e for e in entries(source) if isinstance(e, RunSummary)}


def title_of(ws: Workspace) -> str:
    for source in ws.sources:
        for i in range(len(source)):
            source.entry(i)
    store = RunStore(ws)
    store.count_new()
    return store.summary_line()


def cli_run(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def ls_json(path: Path) -> list[dict[str, object]]:
    out = cli_run("ls", "--json", str(path))
    return [json.loads(line) for line in out.stdout.splitlines()]


# -- 1. pass shares of trials ----------------------------------------------------------------


def test_trials_title_names_pass_at_1_pass_at_k_and_pass_hat_k(tmp_path: Path) -> None:
    ws = scanned(trials_file(tmp_path / "trials.jsonl"))
    # By hand (builders_shapes.PASS_TABLE): 6/12 trials, 3/4 prompts any, 1/4 prompts all.
    assert title_of(ws) == "4 runs · pass@1 50.0% · pass@3 75.0% · pass^3 25.0%"


def test_pass_tally_counts_trials_and_prompts(tmp_path: Path) -> None:
    ws = scanned(trials_file(tmp_path / "trials.jsonl"))
    t = tally(list(runs(ws.sources[0]).values()))
    assert (t.trials, t.passed, t.prompts) == (12, 6, 4)
    # k = n = 3 for every prompt: Chen's pass@3 is the share of prompts with a pass (3/4),
    # pass^3 the share where all passed (1/4)
    assert (t.pass_at_1, t.pass_at_k, t.pass_hat_k) == (0.5, 0.75, 0.25)
    assert t.labels() == ("pass@3", "pass^3")


def test_pass_tally_with_different_k_and_ungraded_trials(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "t.jsonl",
        [
            trials("a", [True, False]),  # k=2: 1 of 2 pass
            trials("b", [True, True, True, True]),  # k=4: all pass
            trials("c", [None, None, None], with_rates=False),  # no grader ran: not counted
        ],
    )
    t = tally(list(runs(scanned(path).sources[0]).values()))
    assert (t.trials, t.passed, t.prompts) == (6, 5, 2)
    # k differs: the title's k is the fewest trials of a prompt (2), so it counts every
    # prompt. pass@1 = mean(1/2, 4/4) = 75%; pass@2: a 1 - C(1,2)/C(2,2) = 1, b 1 -> 100%;
    # pass^2: a C(1,2)/C(2,2) = 0, b 1 -> 50%
    assert t.labels() == ("pass@2", "pass^2") and t.k is None
    empty = PassTally()
    assert empty.pass_at_1 is None and empty.pass_at_k is None and empty.pass_hat_k is None
    assert title_of(scanned(path)) == "3 runs · pass@1 75.0% · pass@2 100.0% · pass^2 50.0%"


def test_a_capture_pass_share_says_of_which_runs(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [
            capture("p", score={"pass": True, "score": 1}),
            capture("f", score={"pass": False, "score": 0}),
            capture("d"),
        ],
    )
    assert title_of(scanned(path)) == "3 runs · 50.0% pass (1 of 2 graded)"


def test_ls_json_of_trials_carries_the_files_rates(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "t.jsonl",
        [trials("rated", [True, False]), trials("bare", [True, False], with_rates=False)],
    )
    rated, bare = ls_json(path)
    assert (rated["passRate"], rated["passAtK"], rated["passExpK"]) == (0.5, 0.75, 0.25)
    assert (rated["attempts"], rated["graded"], rated["passes"]) == (2, 2, 1)
    assert not {"passRate", "passAtK", "passExpK"} & set(bare)


# -- 2. timeouts ---------------------------------------------------------------------------------


def test_a_timed_out_run_is_a_timeout_whatever_its_score(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "c.jsonl",
        [
            timed_out("killed-fail", passed=False),
            timed_out("killed-pass", passed=True, score=0.9),
            capture(
                "said-so",
                score={"pass": False, "score": 0.1},
                errors=["Request timed out after 60000ms"],
            ),
            capture("ok", score={"pass": True, "score": 1.0}),
        ],
    )
    ws = scanned(path)
    s = runs(ws.sources[0])
    assert [(r.status, r.outcome) for r in s.values()] == [
        ("timeout", Outcome.TIMEOUT),
        ("timeout", Outcome.TIMEOUT),
        ("timeout", Outcome.TIMEOUT),
        ("pass", Outcome.PASS),
    ]
    assert s["killed-pass"].score == 0.9 and s["killed-pass"].passed is True  # still shown
    # every run is graded (each has score.pass), the three timeouts too: 2 of 4 passed
    # (issue 22: a graded run is in the share's denominator, whatever else it is)
    assert title_of(ws) == "4 runs · 50.0% pass (2 of 4 graded) · 3 timeout · 2 flagged toolErrors"
    rows = {line.split()[0]: line for line in cli_run("ls", str(path)).stdout.splitlines()}
    assert "◷ timeout" in rows["killed-fail"] and "✗ fail" not in rows["killed-fail"]


# -- 3. durations --------------------------------------------------------------------------------


def test_a_trials_record_lasts_the_sum_of_its_trials(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "t.jsonl", [trials("s", [True, False, True])])
    (s,) = runs(scanned(path).sources[0]).values()
    assert s.duration_ms == 1000 + 2000 + 3000
    assert s.duration_label == "sum of 3 trials"
    (obj,) = ls_json(path)
    assert obj["duration_ms"] == 6000 and obj["duration_label"] == "sum of 3 trials"
    shown = " ".join(cli_run("show", str(path), "s").stdout.split())
    assert "duration (sum of 3 trials) 6.0s" in shown
    half = trials("h", [True, False])
    del half["trials"][0]["duration"]
    (h,) = runs(scanned(write_jsonl(tmp_path / "h.jsonl", [half])).sources[0]).values()
    assert (h.duration_ms, h.duration_label) == (2000, "sum of 1 of 2 trials")


def test_a_forecast_run_lasts_what_its_message_timestamps_span(tmp_path: Path) -> None:
    root = fc.run_dir(tmp_path / "fed")
    (s,) = runs(scanned(root).sources[0]).values()
    assert s.duration_ms == 3500.0  # fed_run: first message at T0, last at T0 + 3.5 s
    assert s.duration_label == "span of message timestamps"
    row = cli_run("ls", str(root)).stdout.splitlines()[1]
    assert "3.5s" in row


def test_an_eval_run_lasts_the_sum_of_its_sample_latencies(tmp_path: Path) -> None:
    from tests.formats.eval_results import builders as be

    path = be.write_json(
        tmp_path / "r" / "results.json",
        be.results_doc(
            [
                be.sample("a", "A", latency_ms=1500.0),
                be.sample("b", "B", latency_ms=2500.0),
                be.sample("c", "C"),
            ]
        ),
    )
    (s,) = runs(scanned(path).sources[0]).values()
    assert (s.duration_ms, s.duration_label) == (4000.0, "sum of latency_ms over 2 of 3 samples")


# -- 4. runs that processed nothing ---------------------------------------------------------------


def test_runs_with_no_samples_are_listed_as_such(tmp_path: Path) -> None:
    tree = empty_run_tree(tmp_path)
    ws = scanned(tree)
    (source,) = ws.sources
    s = runs(source)
    assert len(s) == 4 and not [e for e in entries(source) if isinstance(e, Problem)]
    empty = [r for r in s.values() if r.steps == 0]
    assert len(empty) == 3 and all(r.status == "empty" for r in empty)
    out = cli_run("ls", str(tree))
    assert out.exit_code == 0
    assert "20260118_110000_G1_allergy_V2" in out.stdout
    assert "20260118_120000_allergy_test" in out.stdout
    assert "20260118_130000_allergy_test" in out.stdout
    # and a single file opened on its own
    single = tree / "dev" / "20260118_110000_G1_allergy_V2" / "results.json"
    (one,) = ls_json(single)
    assert (one["status"], one["steps"]) == ("empty", 0)


def test_a_run_results_file_of_another_kind_is_a_warning_row(tmp_path: Path) -> None:
    from tests.formats.eval_results import builders as be

    tree = empty_run_tree(tmp_path)
    be.write_json(tree / "dev" / "20260118_140000_other" / "results.json", {"results": "n/a"})
    (source,) = scanned(tree).sources
    (problem,) = [e for e in entries(source) if isinstance(e, Problem)]
    assert problem.severity is Severity.WARNING and "20260118_140000_other" in problem.path
    assert "not an eval results file" in problem.message


# -- 5. tool calls and tool errors ----------------------------------------------------------------


def test_tool_calls_and_tool_errors_have_one_name_and_one_meaning(tmp_path: Path) -> None:
    path = tool_calls_capture(tmp_path / "c.jsonl")
    s = runs(scanned(path).sources[0])
    assert (s["calls-1"].tool_calls, s["calls-1"].failed_tool_calls) == (2, 1)
    assert (s["flagged"].tool_calls, s["flagged"].failed_tool_calls) == (1, 0)
    calls, flagged = ls_json(path)
    assert (calls["tool_calls"], calls["tool_errors"], calls["toolErrors"]) == (2, 1, False)
    assert (flagged["tool_calls"], flagged["tool_errors"], flagged["toolErrors"]) == (1, 0, True)
    lines = cli_run("ls", str(path)).stdout.splitlines()
    assert lines[0].split()[:6] == ["REF", "STATUS", "STEPS", "CALLS", "TOOL", "ERR"]
    assert lines[1].split()[3:6] == ["3", "2", "1"]  # steps, tool calls, tool errors
    # none failed, and the file flags it: the row says so (issue 22), not a bare 0
    assert lines[2].split()[3:6] == ["1", "1", "flagged"]
    shown = " ".join(cli_run("show", str(path), "calls-1").stdout.split())
    assert "tool calls 2 · tool errors 1" in shown


def test_tool_calls_of_every_format_that_has_them(tmp_path: Path) -> None:
    summ = write_jsonl(tmp_path / "s.jsonl", [summary("a", ["Read", "Edit"])])
    (a,) = runs(scanned(summ).sources[0]).values()
    assert (a.tool_calls, a.failed_tool_calls) == (2, None)  # the format has no statuses
    tri = write_jsonl(tmp_path / "t.jsonl", [trials("t", [True, False])])
    (t,) = runs(scanned(tri).sources[0]).values()
    assert (t.tool_calls, t.failed_tool_calls) == (2, 0)  # one paired call per trial
    nba = fc.run_dir(tmp_path / "nba", fc.nba_run())
    (n,) = runs(scanned(nba).sources[0]).values()
    assert (n.tool_calls, n.failed_tool_calls) == (2, 1)
    from tests.formats.eval_results import builders as be

    ev = be.write_json(tmp_path / "r" / "results.json", be.results_doc([be.sample("a", "A")]))
    (e,) = runs(scanned(ev).sources[0]).values()
    assert (e.tool_calls, e.failed_tool_calls) == (None, None)  # absent, not 0


# -- 6. ultraplan problems -----------------------------------------------------------------------


def test_an_unreadable_result_is_a_problem_row_and_its_task_says_so(tmp_path: Path) -> None:
    root = planned_project(tmp_path / "proj")
    write_result(root, "03-01-task-01-success.yaml", log(result()))
    write_result(root, "03-01-task-02-success.yaml", "plan_id: 03-01\nresult: [unclosed\n")
    ws = scanned(root)
    (source,) = ws.sources
    rows = entries(source)
    (problem,) = [e for e in rows if isinstance(e, Problem)]
    assert problem.path.endswith("03-01-task-02-success.yaml") and problem.line
    assert problem.severity is Severity.ERROR and problem.ref == "03-01"
    run = source.run(source.find("03-01") or 0)
    tasks = next(f.value for f in run.fields if f.label == "tasks")
    assert tasks[1].startswith("[ ] Task 2: Add execution protocol — result file ")
    assert f"03-01-task-02-success.yaml not read line {problem.line}: invalid YAML" in tasks[1]
    assert problem in run.problems
    assert title_of(ws).endswith("1 problem")


# -- 7. plans without result logs ----------------------------------------------------------------


def test_plans_without_result_logs_are_runs_with_their_tasks(tmp_path: Path) -> None:
    root = planned_project(tmp_path / "proj")
    (source,) = scanned(root).sources
    assert [
        (e.ref, e.status, e.steps) if isinstance(e, RunSummary) else e for e in entries(source)
    ] == [
        ("03-01", "summarized", 0),
        ("03-02", "planned", 0),
    ]
    assert not source.problems()
    run = source.run(0)
    f = {x.label: x.value for x in run.fields}
    assert f["tasks"] == [
        "[x] Task 1: Create executor agent (completed 2026-01-26) — no result",
        "[ ] Task 2: Add execution protocol — no result",
        "- Task 3: Write the tests — no result",
    ]
    assert f["summary file"] == ".planning/phases/03-exec/03-01-SUMMARY.md"
    assert f["summary frontmatter"]["duration"] == "4min"
    assert "The executor agent exists." in f["summary"]
    assert "summary" not in {x.label for x in source.run(1).fields}
    out = cli_run("ls", str(root))
    assert out.exit_code == 0 and "no plans to show" not in out.stderr
    assert [line.split()[:3] for line in out.stdout.splitlines()[1:]] == [
        ["03-01", "•", "summarized"],
        ["03-02", "·", "planned"],
    ]


def test_a_plan_with_results_and_one_without(tmp_path: Path) -> None:
    root = planned_project(tmp_path / "proj")
    write_result(root, "03-02-task-01-success.yaml", log(result(), plan_id="03-02"))
    (source,) = scanned(root).sources
    assert [
        (e.ref, e.status, e.steps) if isinstance(e, RunSummary) else e for e in entries(source)
    ] == [
        ("03-01", "summarized", 0),
        ("03-02", "success", 1),
    ]


# -- 9. what a forecast model call saw ---------------------------------------------------------


def test_show_of_a_forecast_step_lists_the_keys_it_saw_and_what_changed(tmp_path: Path) -> None:
    root = fc.run_dir(tmp_path / "fed")
    out = cli_run("show", str(root), "fed/step-3").stdout
    lines = [line.rstrip() for line in out.splitlines()]
    assert "saw 6 messages  S0 U0 S3 U1 A1 T1" in lines
    assert "  added since step 2  S3 U1 A1 T1" in lines
    assert "  dropped since step 2  S2 A0 T0" in lines
    # the keys come before the message the model produced
    assert lines.index("saw 6 messages  S0 U0 S3 U1 A1 T1") < lines.index("A2 assistant")
    first = cli_run("show", str(root), "fed/step-1").stdout
    assert "saw 3 messages  S0 U0 S1" in first and "dropped since" not in first


def test_a_per_sample_run_lasts_what_its_usage_summary_says(tmp_path: Path) -> None:
    from tests.formats.eval_results import builders as be

    doc = be.per_sample_doc(
        [be.per_sample_item("i1", "Low Risk", True)], accuracy=1.0, correct=1, total=1
    )
    path = be.write_json(tmp_path / "r" / "results.json", doc)
    (s,) = runs(scanned(path).sources[0]).values()
    assert (s.duration_ms, s.duration_label) == (9000, "usage_summary.total_latency_ms")


def test_an_errored_trial_that_timed_out_is_a_timeout(tmp_path: Path) -> None:
    rec = trials("t", [True])
    rec["trials"].append(
        {
            "trialNum": 2,
            "output": "",
            "trajectory": [],
            "pass": False,
            "reasoning": "Error: Request timed out after 60000ms",
            "duration": 60001,
        }
    )
    source = scanned(write_jsonl(tmp_path / "t.jsonl", [rec])).sources[0]
    assert [(a.status, a.outcome) for a in source.run(0).attempts] == [
        ("pass", Outcome.PASS),
        ("timeout", Outcome.TIMEOUT),
    ]
