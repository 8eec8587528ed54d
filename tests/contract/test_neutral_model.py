"""The neutral model: facts that mean the same in every format (a step's tool and state, a
run's verdict and metadata), filled from what the file says and absent when it does not."""

from __future__ import annotations

from pathlib import Path

from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from tests.formats.atif import builders as ba
from tests.formats.eval_results import builders as be
from tests.formats.forecast import builders as fc
from tests.formats.ultraplan import builders as bu
from tests.helpers.workspace import open_paths
from trajtui.core.model import Attempt, Kind, Outcome, Run, RunSummary, Step, StepState, Verdict
from trajtui.formats.eval_results.reading import read_file
from trajtui.formats.eval_results.runs import Companions, build_run, summarize
from trajtui.formats.eval_results.samples import samples_of
from trajtui.formats.eval_results.shapes import ResultsFile


def test_a_capture_fills_tool_names_states_and_metadata(tmp_path: Path) -> None:
    p = write_jsonl(
        tmp_path / "c.jsonl",
        [
            capture(
                "r1",
                [
                    step_tool("WebSearch", "pending", 100, input={"query": "q"}),
                    step_tool("toolu_01", "completed", 300, output="found"),
                    step_tool("Read", "failed", 400, error="ENOENT"),
                    step_tool("toolu_02", "completed", 450),  # only its call id: no tool name
                    step_message("done", 500),
                ],
                metadata={"category": "web", "agent": {"name": "claude", "effort": 3}},
                score={"pass": True, "score": 1.0},
            ),
            capture("r2", metadata={"timedOut": True}, score={"pass": True}),
        ],
    )
    ws = open_paths([str(p)])
    for _ in ws.scan():
        pass
    source = ws.sources[0]
    run = source.run(0)
    tools = [(s.kind, s.tool, s.state) for s in run.steps]
    assert tools == [
        (Kind.TOOL_CALL, "WebSearch", StepState.PENDING),
        (Kind.TOOL_CALL, "WebSearch", StepState.OK),  # the completing half, named by its id
        (Kind.TOOL_CALL, "Read", StepState.FAILED),
        (Kind.TOOL_CALL, None, StepState.OK),  # the file names the call, not the tool
        (Kind.MESSAGE, None, StepState.UNKNOWN),
    ]
    assert all(s.tokens_in is None and s.cost is None for s in run.steps)  # the file says none
    assert run.metadata == (("category", "web"), ("agent.name", "claude"), ("agent.effort", "3"))
    assert run.summary.outcome.verdict is Verdict.PASS
    timed_out = source.run(1)
    assert timed_out.summary.outcome is Outcome.TIMEOUT
    assert timed_out.summary.outcome.verdict is Verdict.TIMEOUT  # whatever its score says
    ws.close()


def test_verdicts_of_every_outcome() -> None:
    assert {o: o.verdict for o in Outcome} == {
        Outcome.PASS: Verdict.PASS,
        Outcome.FAIL: Verdict.FAIL,
        Outcome.PARTIAL: Verdict.FAIL,
        Outcome.ERROR: Verdict.ERROR,
        Outcome.TIMEOUT: Verdict.TIMEOUT,
        Outcome.RUNNING: Verdict.UNKNOWN,
        Outcome.SKIPPED: Verdict.UNKNOWN,
        Outcome.DONE: Verdict.UNKNOWN,
        Outcome.NONE: Verdict.UNKNOWN,
    }


def _runs(path: Path) -> dict[str, Run]:
    """Every run of ``path``, by reference."""
    ws = open_paths([str(path)])
    for _ in ws.scan():
        pass
    out = {}
    for source in ws.sources:
        for i in range(len(source)):
            if isinstance(source.entry(i), RunSummary):
                run = source.run(i)
                out[run.ref] = run
    ws.close()
    return out


# -- forecast: model calls with their tools, tokens and cost; the run's and eval's config ------


def _forecast_eval(root: Path) -> Path:
    traj = fc.Trajectory(
        messages=[
            ("S0", fc.system()),
            ("U0", fc.problem()),
            ("S1", fc.board_state()),
            ("A0", fc.assistant("Search.", [("c1", "search", {"query": "q"})], fc.T0,
                                cost=0.001, prompt_tokens=1200, completion_tokens=80)),
            ("T0", fc.tool("c1", fc.search_results(1), fc.T0 + 1)),
            ("A1", fc.assistant(None, [("c2", "add_source", {"source_id": "S1"}),
                                       ("c3", "edit_note", {"board_id": 7, "note": "x"})],
                                fc.T0 + 2, cost=0.002, prompt_tokens=1500, completion_tokens=40)),
            ("T1", fc.tool("c2", "Source S1 added to board as #1.", fc.T0 + 2.5)),
            ("T2", fc.tool("c3", "Error: no board entry #7.", fc.T0 + 2.6, error=True)),
            ("A2", fc.assistant("Done.", [("c4", "submit", {"probabilities": {"Yes": 0.3}})],
                                fc.T0 + 4, cost=0.0005, prompt_tokens=1700, completion_tokens=20)),
        ],
        steps=[
            (["S0", "U0", "S1"], "A0"),
            (["S0", "U0", "S1", "A0", "T0"], "A1"),
            (["S0", "U0", "S1", "A0", "T0", "A1", "T1", "T2"], "A2"),
        ],
    )  # fmt: skip
    info = fc.info()
    info["config"] = {
        "agent_type": "pkg.ForecastAgent",
        "model_type": "pkg.Model",
        "model": {"model_name": "gpt-run"},
    }
    ev = root / "eval"
    summary = fc.summary([fc.entry("fed"), fc.entry("skipped", "skipped_cost_limit")])
    summary["eval_config"] = {
        "model": {"model_name": "gpt-eval", "model_class": "pkg.EvalModel"},
        "search": {"search_class": "pkg.Search"},
    }
    fc.write_json(ev / "summary.json", summary)
    fc.run_dir(ev / "runs" / "fed", traj, run_info=info)
    return ev


def test_a_forecast_run_fills_tools_tokens_costs_states_and_metadata(tmp_path: Path) -> None:
    runs = _runs(_forecast_eval(tmp_path))
    fed = runs["fed"]
    facts = [(s.tool, s.tokens_in, s.tokens_out, s.cost, s.state) for s in fed.steps]
    assert facts == [
        ("search", 1200, 80, 0.001, StepState.OK),
        ("add_source, edit_note", 1500, 40, 0.002, StepState.FAILED),  # edit_note failed
        ("submit", 1700, 20, 0.0005, StepState.UNKNOWN),  # nothing answers a submission
    ]
    assert all(s.status is None for s in fed.steps)  # the file has no status word for a call
    assert (fed.tokens_in, fed.tokens_out) == (4400, 140)
    assert fed.metadata == (
        ("model", "gpt-run"),  # the run's own config wins over the eval's
        ("model_class", "pkg.Model"),
        ("agent", "default"),
        ("agent_type", "pkg.ForecastAgent"),
        ("search", "pkg.Search"),
        ("dataset", "tasks"),
        ("version", "0.1.6"),
    )
    skipped = runs["skipped"]  # listed with no directory: only what the eval says
    assert skipped.steps == () and (skipped.tokens_in, skipped.tokens_out) == (None, None)
    assert skipped.metadata == (
        ("model", "gpt-eval"),
        ("model_class", "pkg.EvalModel"),
        ("agent", "default"),
        ("search", "pkg.Search"),
        ("dataset", "tasks"),
    )


# -- eval results: per-sample usage, the run's grouping values ---------------------------------


def test_eval_results_fill_sample_usage_and_run_metadata(tmp_path: Path) -> None:
    doc = be.results_doc(
        [
            be.sample(
                "b1",
                "Cafe One",
                gt="Low Risk",
                prompt_tokens=900,
                completion_tokens=60,
                cost_usd=0.01,
            ),
            be.sample(
                "b2",
                "Cafe Two",
                gt="Low Risk",
                prompt_tokens=1100,
                completion_tokens=40,
                cost_usd=0.02,
            ),
            be.failed("b3", "Cafe Three"),  # a failed sample says no usage
        ],
        method="rlm",
        model="gpt-5-nano",
        k=25,
    )
    be.write_json(tmp_path / "results" / "dev" / "20260118_000001_G1" / "results.json", doc)
    be.write_json(
        tmp_path / "results" / "dev" / "20260118_000002_G1" / "results.json",
        be.results_doc([be.sample("b1", "Cafe One")], method=None, model="gpt-4o-mini"),
    )
    runs = _runs(tmp_path / "results")
    run = runs["20260118_000001_G1"]
    usage = [(s.tokens_in, s.tokens_out, s.cost, s.state) for s in run.steps]
    assert usage == [
        (900, 60, 0.01, StepState.OK),
        (1100, 40, 0.02, StepState.OK),
        (None, None, None, StepState.FAILED),
    ]
    assert all(s.tool is None for s in run.steps)  # samples are no tool calls
    assert (run.tokens_in, run.tokens_out) == (2000, 100)
    assert run.metadata == (
        ("policy_id", "G1_allergy_V2"),
        ("gt_task_id", "G1a"),
        ("domain", "yelp"),
        ("method", "rlm"),
        ("model", "gpt-5-nano"),
        ("k", "25"),
    )
    bare = runs["20260118_000002_G1"]  # no usage anywhere: absent, never 0
    assert (bare.tokens_in, bare.tokens_out) == (None, None)
    assert ("method", "direct") not in bare.metadata and ("model", "gpt-4o-mini") in bare.metadata


def test_eval_results_count_tokens_over_every_sample_not_only_those_kept(tmp_path: Path) -> None:
    path = be.write_json(
        tmp_path / "results.json",
        be.results_doc(
            [be.sample(f"b{n}", f"Cafe {n}", prompt_tokens=100 * n, completion_tokens=n)
             for n in (1, 2, 3)]
        ),
    )  # fmt: skip
    file = read_file(str(path), keep=2)
    assert isinstance(file, ResultsFile)
    run = build_run(summarize(file, samples_of(file), "r"), file, Companions(), str(path))
    assert len(run.steps) == 2
    assert (run.tokens_in, run.tokens_out) == (600, 6)  # the third sample counted too


def test_per_sample_documents_and_legacy_lines_fill_usage_and_metadata(tmp_path: Path) -> None:
    run_dir = tmp_path / "run_1"
    be.write_json(
        run_dir / "results.json",
        be.per_sample_doc(
            [be.per_sample_item("s1", "Low Risk", True)], accuracy=1.0, correct=1, total=1
        ),
    )
    be.write_json(
        run_dir / "item_logs" / "s1.json", be.item_log("s1", "Low Risk", "Low Risk", True)
    )
    per_sample = _runs(run_dir)["run_1"]
    assert [(s.tokens_in, s.tokens_out, s.cost) for s in per_sample.steps] == [(1000, 200, 0.01)]
    assert dict(per_sample.metadata) == {
        "policy_id": "G1_allergy_V2",
        "gt_task_id": "G1a",
        "domain": "yelp",
        "method": "amos",
        "model": "gpt-5-nano",
        "mode": "ondemand",
        "k": "50",
    }
    legacy = be.write_lines(
        tmp_path / "legacy" / "results.jsonl",
        [be.legacy_line("a1", "Cafe A"), be.legacy_line("a2", "Cafe B", prompt_tokens=1000)],
    )
    run = _runs(legacy.parent)["legacy"]
    assert [(s.tokens_in, s.tokens_out) for s in run.steps] == [(9000, 4000), (1000, 4000)]
    assert (run.tokens_in, run.tokens_out) == (10000, 8000)
    assert run.metadata == (("model", "gpt-5-nano"),)  # named by its samples only


# -- ultraplan: the plan, its phase, its task ---------------------------------------------------


def test_ultraplan_plans_say_their_plan_phase_and_task(tmp_path: Path) -> None:
    root = bu.project(tmp_path / "project")
    bu.write_plan(
        root,
        "03-01",
        bu.plan_md("03-sequential-execution", 1, [("Task 1: Build", ["src/agent.md"])], []),
    )
    bu.write_result(root, "03-01-task-01-failure.yaml", bu.log(bu.result("failure")))
    bu.write_result(root, "03-01-task-01-success.yaml", bu.log(bu.result()))
    two = bu.log(bu.result(task_name="Task 2: Other"), plan_id="03-02", task_index=2)
    bu.write_result(root, "03-02-task-02-success.yaml", two)
    three = bu.log(bu.result(task_name="Task 3: More"), plan_id="03-02", task_index=3)
    bu.write_result(root, "03-02-task-03-success.yaml", three)
    runs = _runs(root)
    assert runs["03-01"].metadata == (
        ("plan", "03-01"),
        ("phase", "03-sequential-execution"),  # PLAN.md's frontmatter
        ("task", "1"),  # both results (a retry) are of task 1
    )
    assert runs["03-02"].metadata == (("plan", "03-02"),)  # no PLAN.md, two tasks
    assert [s.state for s in runs["03-01"].steps] == [StepState.FAILED, StepState.OK]
    assert all(s.tokens_in is None and s.tool is None for s in runs["03-01"].steps)
    assert runs["03-01"].tokens_in is None


# -- ATIF: tool calls, per-step metrics, final_metrics, the agent and the task -----------------


def test_atif_steps_and_trials_fill_tools_tokens_and_metadata(tmp_path: Path) -> None:
    job = ba.job(tmp_path / "job")
    runs = _runs(job)
    passed = runs["fix-bug__AAAA111"]
    facts = [(s.tool, s.tokens_in, s.tokens_out, s.cost, s.state) for s in passed.steps]
    assert facts == [
        (None, None, None, None, StepState.UNKNOWN),  # the user's task
        ("read_file, bash", 1200, 80, 0.004, StepState.FAILED),  # bash said is_error
        ("edit_file", 1400, 40, 0.003, StepState.UNKNOWN),  # its result says nothing either way
        (None, 1500, 20, 0.002, StepState.UNKNOWN),
    ]
    assert (passed.tokens_in, passed.tokens_out) == (4100, 140)  # final_metrics
    assert passed.metadata == (
        ("agent", "terminus-2"),
        ("agent_version", "1.0.0"),
        ("model", "provider/model-x"),
        ("task", "fix-bug"),
        ("dataset", "demo-set"),
        ("started", "2026-03-01T10:00:00Z"),  # the trial's started_at, and its UTC day
        ("date", "2026-03-01"),
    )
    errored = runs["setup__EEEE555"]  # no trajectory: the trial's agent_result counts
    assert errored.steps == ()
    assert (errored.tokens_in, errored.tokens_out) == (4100, 140)
    assert ("model", "model-x") in errored.metadata


def test_atif_run_tokens_without_final_metrics_leave_copied_context_out(tmp_path: Path) -> None:
    steps = [
        ba.user(1, "go"),
        ba.agent(2, "a", usage=ba.metrics(100, 10)),
        ba.agent(3, "b", usage=ba.metrics(200, 20), is_copied_context=True),
        ba.agent(4, "c", usage=ba.metrics(300, 30)),
    ]
    path = ba.write_json(tmp_path / "t.json", ba.trajectory(steps))
    run = _runs(path)["t"]
    assert [s.tokens_in for s in run.steps] == [None, 100, 200, 300]  # as each step says
    assert (run.tokens_in, run.tokens_out) == (400, 40)  # the copied step counted once, before


def test_result_steps_name_the_tool_whose_call_they_answer(tmp_path: Path) -> None:
    doc = {
        "schema_version": "1.4",
        "session_id": "s",
        "agent": {"name": "claude-code", "version": "2", "model": "m"},
        "steps": [
            ba.user(1, "Save it"),
            {
                "step_id": 2,
                "source": "system",
                "message": "Tool result for toolu_a",
                "observation": {"type": "tool_result", "content": "EACCES",
                                "result": {"success": False, "error": "EACCES"}},
            },
            {
                "step_id": 3,
                "source": "agent",
                "message": "Writing.",
                "tool_calls": [{"id": "toolu_a", "name": "Write", "arguments": {}}],
            },
        ],
    }  # fmt: skip
    path = ba.write_json(tmp_path / "trajectory.json", doc)
    run = _runs(path)["trajectory"]
    assert [(s.tool, s.state) for s in run.steps][1:] == [
        ("Write", StepState.FAILED),  # the result, answering the call of step 3
        ("Write", StepState.FAILED),  # the call, whose result says it failed
    ]
    assert run.metadata == (("agent", "claude-code"), ("agent_version", "2"), ("model", "m"))
    assert (run.tokens_in, run.tokens_out) == (None, None)  # no metrics anywhere


def test_run_tokens_are_the_files_own_figure_else_the_steps_sum_else_absent() -> None:
    summary = RunSummary("r", 0, "x", None, Outcome.NONE)
    steps = (Step("r/1", 1, Kind.MODEL_CALL, "a", tokens_in=5), Step("r/2", 2, Kind.OTHER, "b"))
    assert Run(summary, steps=steps).tokens_in == 5 and Run(summary, steps=steps).tokens_out is None
    assert Run(summary, steps=steps, run_tokens_in=50).tokens_in == 50
    trial = Attempt("r/trial-1", 1, None, Outcome.NONE, None, None, None, steps)
    assert Run(summary, attempts=(trial, trial)).tokens_in == 10
    assert Run(summary).tokens_in is None
