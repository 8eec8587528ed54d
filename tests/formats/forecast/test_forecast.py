"""The forecast-agent reader: run dirs, eval dirs, the single-file shape, refs and rendering."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from tests.formats.acp.builders import summaries
from tests.formats.forecast import builders as fc
from tests.formats.forecast.builders import board_of, call_of, pool_of
from tests.helpers import forked
from tests.helpers.workspace import open_paths
from trajtui.core.io.detect import sniff
from trajtui.core.model import Kind, Outcome, Problem, Run, RunSummary
from trajtui.core.refs import RefError
from trajtui.core.source import Source
from trajtui.core.workspace import Workspace
from trajtui.formats import forecast
from trajtui.formats.forecast.detail import forecast_run
from trajtui.formats.forecast.detect import is_eval_dir, is_run_dir
from trajtui.formats.forecast.steps import step_context
from trajtui.formats.forecast.view.render import (
    render_board,
    render_board_source,
    render_message,
    render_step_context,
    render_target,
)


def opened(*paths: Path) -> Workspace:
    ws = open_paths([str(p) for p in paths])
    for _ in ws.scan():
        pass
    return ws


def only(ws: Workspace) -> Source:
    assert len(ws.sources) == 1, (ws.sources, ws.problems)
    return ws.sources[0]


def load(ws: Workspace, ref: str) -> Run:
    target = ws.resolve(ref)
    return target.source.run(target.index)


def text_of(renderable: object) -> str:
    console = Console(width=120, record=True, file=open(os.devnull, "w"), color_system=None)  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


# -- a run directory -------------------------------------------------------------------------


@pytest.mark.parametrize("first", [0, 1], ids=["keys-from-0", "keys-from-1"])
def test_run_dir_steps_pool_and_board(tmp_path: Path, first: int) -> None:
    fc.run_dir(tmp_path / "fed", fc.fed_run(first))
    ws = opened(tmp_path / "fed")
    source = only(ws)
    assert source.format == forecast.RUN
    (row,) = summaries(source)
    assert (row.ref, row.status, row.outcome, row.steps) == ("fed", "submitted", Outcome.DONE, 3)
    assert row.cost == 0.0123 and row.title == fc.QUESTION and row.failed_tool_calls == 0
    run = load(ws, "fed")
    a = [f"A{n + first}" for n in range(3)]
    assert [s.ref for s in run.steps] == ["fed/step-1", "fed/step-2", "fed/step-3"]
    assert all(s.kind is Kind.MODEL_CALL for s in run.steps)
    assert [call_of(s).output_key for s in run.steps] == a
    assert call_of(run.steps[0]).input_keys == (f"S{first}", f"U{first}", f"S{1 + first}")
    assert [s.title for s in run.steps] == [
        'search("rate cut march")',
        'add_source("S1")',
        'submit({"Yes":0.2,"No":0.8})',
    ]
    assert [s.text for s in run.steps] == ["Searching first.", None, "Hold is likely."]
    assert [s.offset_ms for s in run.steps] == [0, 2000, 3500]
    assert [s.duration_ms for s in run.steps] == [None, 1500, 1250]
    fields = {f.label: f.value for f in run.steps[0].fields}
    assert fields["usage"] == {
        "completion_tokens": 150,
        "prompt_tokens": 2000,
        "total_tokens": 2150,
    }
    assert fields["cost"] == 0.0004 and fields["model"] == "test-model-1"
    assert fields["tool calls"] == [{"name": "search", "arguments": {"query": "rate cut march"}}]
    assert fields["tool results"] == [f"T{first}"]
    assert forecast_run(run).pool is not None and forecast_run(run).board is not None
    assert board_of(run).board_source_ids() == ["S1", "S2"]


def test_refs_resolve_alone_and_qualified(tmp_path: Path) -> None:
    fc.run_dir(tmp_path / "fed")
    ws = opened(tmp_path / "fed")
    assert ws.resolve("step-2").ref == "fed/step-2"
    assert ws.resolve("fed/step-3").step == 3
    target = ws.resolve("msg:A1")
    assert (target.ref, target.segment, target.kind) == ("fed/msg:A1", ("msg", "A1"), "message")
    target = ws.resolve("fed/src:S2")
    assert (target.ref, target.segment, target.kind) == ("fed/src:S2", ("src", "S2"), "source")
    # message S1 (a board state) and source S1 are different things
    run = load(ws, "fed")
    assert forecast_run(run).pool is not None and forecast_run(run).board is not None
    s1 = pool_of(run).get("S1")
    assert s1 is not None and s1.is_board_state
    assert (board_of(run).board_source("S1") or {})["title"] == "Story 1"
    with pytest.raises(RefError, match="no message 'A9'"):
        ws.resolve("msg:A9")
    with pytest.raises(RefError, match="no source 'S7'"):
        ws.resolve("src:S7")
    with pytest.raises(RefError, match="no step 4"):
        ws.resolve("fed/step-4")


def test_step_context_is_exactly_what_the_model_saw(tmp_path: Path) -> None:
    fc.run_dir(tmp_path / "fed")
    run = load(opened(tmp_path / "fed"), "fed")
    first = step_context(run, 1)
    assert first is not None and first.added == first.keys and first.dropped == ()
    ctx = step_context(run, 3)
    assert ctx is not None
    assert ctx.keys == ("S0", "U0", "S3", "U1", "A1", "T1")
    assert [m.key for m in ctx.messages if m is not None] == list(ctx.keys)
    assert ctx.added == ("S3", "U1", "A1", "T1")
    assert ctx.dropped == ("S2", "A0", "T0")
    assert (
        ctx.output_key == "A2" and ctx.output is not None and ctx.output.text == "Hold is likely."
    )
    notice = ctx.messages[3]
    assert notice is not None and notice.is_truncation_notice
    assert step_context(run, 4) is None


def test_format_error_and_tool_errors(tmp_path: Path) -> None:
    fc.run_dir(tmp_path / "nba", fc.nba_run())
    ws = opened(tmp_path / "nba")
    (row,) = summaries(only(ws))
    assert row.failed_tool_calls == 1 and row.title == "Which team wins the finals?"
    run = load(ws, "nba")
    first, second = run.steps
    assert first.error is not None and "unknown source_id" in first.error
    labels = {f.label: f.value for f in second.fields}
    assert labels["format error"].startswith("U1: Error: No tool call found")
    assert "format error" not in {f.label for f in first.fields}
    ctx = step_context(run, 2)
    assert ctx is not None and ctx.added == ("S2", "A0", "T0", "U1") and ctx.dropped == ("S1",)


# -- eval directories ------------------------------------------------------------------------


def eval_dir(root: Path, *, id_key: str = "run_id", config_key: str = "eval_config") -> Path:
    runs = [
        fc.entry("fed", id_key=id_key, brier=0.04),
        fc.entry("nba", "LimitsExceeded", id_key=id_key),
        fc.entry("storms", "BatchRunTimeoutError", id_key=id_key, error="timed out after 8.0s"),
        fc.entry("skip", "skipped_cost_limit", id_key=id_key, error="cost limit reached"),
        fc.entry("boom", "ContextWindowExceededError", id_key=id_key, error="too long"),
    ]
    fc.write_json(root / "summary.json", fc.summary(runs, config_key=config_key))
    fc.run_dir(root / "runs" / "fed")
    fc.run_dir(root / "runs" / "nba", fc.nba_run(), run_info=fc.info("LimitsExceeded"))
    fc.run_dir(root / "runs" / "boom", run_info=fc.info("ContextWindowExceededError"))
    # in progress: not in summary.json yet, no exit status
    fc.run_dir(root / "runs" / "live", run_info=fc.info(""))
    return root


@pytest.mark.parametrize(
    ("id_key", "config_key"),
    [("run_id", "eval_config"), ("task_id", "eval_config"), ("run_id", "batch_config")],
)
def test_eval_dir_lists_every_run(tmp_path: Path, id_key: str, config_key: str) -> None:
    ws = opened(eval_dir(tmp_path / "ev", id_key=id_key, config_key=config_key))
    source = only(ws)
    assert source.format == forecast.EVAL
    rows = {(r.ref, r.status, r.outcome, r.steps) for r in summaries(source)}
    assert rows == {
        ("fed", "submitted", Outcome.DONE, 3),
        ("nba", "LimitsExceeded", Outcome.ERROR, 2),
        ("storms", "BatchRunTimeoutError", Outcome.TIMEOUT, None),
        ("skip", "skipped_cost_limit", Outcome.SKIPPED, None),
        ("boom", "ContextWindowExceededError", Outcome.ERROR, 3),
        ("live", None, Outcome.RUNNING, 3),
    }
    assert [r.ref for r in summaries(source)][-1] == "live"
    fed = summaries(source)[0]
    assert (fed.score, fed.score_label, fed.cost) == (0.04, "brier", 0.0123)
    assert source.problems() == []
    storms = load(ws, "storms")
    assert storms.steps == () and forecast_run(storms).pool is None and storms.path is None
    assert {f.label: f.value for f in storms.fields}["error"] == "timed out after 8.0s"
    assert ws.resolve("nba/msg:U1").segment == ("msg", "U1")
    with pytest.raises(RefError, match="has no steps"):
        ws.resolve("storms/step-1")


def test_eval_opens_instantly_and_reads_in_the_scan(tmp_path: Path) -> None:
    ws = open_paths([str(eval_dir(tmp_path / "ev"))])
    source = only(ws)
    assert len(source) == 0 and not source.complete
    progress = list(source.scan())
    assert (len(source), source.complete) == (6, True)
    assert [p.done for p in progress[:6]] == [1, 2, 3, 4, 5, 6]
    assert progress[-1].finished


def test_run_fields_keep_both_files(tmp_path: Path) -> None:
    ws = opened(eval_dir(tmp_path / "ev"))
    fed = load(ws, "fed")
    labels = [f.label for f in fed.fields]
    assert labels[:3] == ["title", "status", "error"]
    assert "info.evaluation" in labels and "exit_status" not in labels[:3]
    assert labels[-1] == "config" and "trajectory_format" in labels
    assert fed.raw["run_id"] == "fed"


def test_info_board_without_sources_json(tmp_path: Path) -> None:
    board = [
        {
            "id": 1,
            "source_id": "S2",
            "source": fc.source_row(2),
            "note": "odds",
            "reaction": {"Yes": "positive"},
        },
        {"id": 2, "source_id": None, "source": fc.source_row(9), "note": "manual", "reaction": {}},
    ]
    legacy = fc.fed_run()
    legacy.fmt = "mini-llm-prophet-v0.1.4"
    fc.run_dir(
        tmp_path / "old",
        legacy,
        run_info=fc.info(version="0.1.4", board=board),
        with_sources=False,
    )
    ws = opened(tmp_path / "old")
    run = load(ws, "old")
    assert forecast_run(run).board is not None and board_of(run).board_source_ids() == ["S2"]
    assert ws.resolve("src:S2").ref == "old/src:S2"
    second = board_of(run).entries[1]
    assert second.source_id is None and board_of(run).board_source_of(second)["title"] == "Story 9"
    text = text_of(render_board_source(run, "S2", ref="old/src:S2"))
    assert "Story 2" in text and "odds" in text and "Yes positive" in text


def test_run_without_board(tmp_path: Path) -> None:
    fc.run_dir(tmp_path / "r", with_sources=False)
    ws = opened(tmp_path / "r")
    assert forecast_run(load(ws, "r")).board is None
    with pytest.raises(RefError, match="no source board"):
        ws.resolve("src:S1")


# -- the single-file 1.0 shape ---------------------------------------------------------------


def test_single_file_one_step_per_assistant_message(tmp_path: Path) -> None:
    path = fc.single_file(tmp_path / "my-run.json")
    ws = opened(path)
    source = only(ws)
    assert source.format == forecast.RUN
    (row,) = summaries(source)
    assert (row.ref, row.status, row.steps) == ("my-run", "submitted", 3)
    run = load(ws, "my-run")
    assert forecast_run(run).pool is not None
    keys = pool_of(run).keys()
    assert keys[:4] == ["S0", "U0", "S1", "A0"] and keys[-1] == "O0"
    assert [call_of(s).output_key for s in run.steps] == ["A0", "A1", "A2"]
    assert call_of(run.steps[1]).input_keys == tuple(keys[: keys.index("A1")])
    assert ws.resolve("msg:O0").segment == ("msg", "O0")
    assert ws.resolve("src:S1").segment == ("src", "S1")
    ctx = step_context(run, 2)
    assert ctx is not None and ctx.dropped == () and ctx.added == ("A0", "S2", "T0")


def test_single_file_is_found_when_walking(tmp_path: Path) -> None:
    fc.single_file(tmp_path / "outputs" / "a.json")
    (tmp_path / "outputs" / "other.json").write_text('{"info": {"name": 1}, "messages": []}')
    ws = opened(tmp_path / "outputs")
    assert [s.format for s in ws.sources] == [forecast.RUN]
    assert [Path(p).name for p, _ in ws.ignored] == ["other.json"]


# -- files opened directly -------------------------------------------------------------------


def test_run_files_open_their_run_and_summary_its_eval(tmp_path: Path) -> None:
    root = eval_dir(tmp_path / "ev")
    for name in ("trajectory.json", "info.json", "sources.json"):
        ws = opened(root / "runs" / "fed" / name)
        source = only(ws)
        assert source.format == forecast.RUN
        assert [r.ref for r in summaries(source)] == ["fed"]
    ws = opened(root / "summary.json")
    assert only(ws).format == forecast.EVAL and len(only(ws)) == 6


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("summary.json", {"accuracy": 0.8, "runs": [{"name": "x"}], "total_cost": 1}),
        ("summary.json", {"metrics": {"auprc": 0.5}}),
        ("info.json", {"name": "x", "version": "1"}),
        ("trajectory.json", {"steps": [], "events": []}),
        ("run.json", {"info": {"name": 1}, "messages": [], "steps": []}),
    ],
)
def test_other_tools_files_are_not_claimed(tmp_path: Path, name: str, value: object) -> None:
    path = fc.write_json(tmp_path / "d" / name, value)
    assert forecast.open_file(str(path), sniff(str(path)), None) is None
    assert not is_eval_dir(str(path.parent), [name])
    assert not is_run_dir(str(path.parent), [name])


# -- broken, half-written and hostile inputs -------------------------------------------------


def test_half_written_trajectory_is_a_problem_and_the_run_still_shows(tmp_path: Path) -> None:
    run = fc.run_dir(tmp_path / "ev" / "runs" / "fed")
    fc.write_json(tmp_path / "ev" / "summary.json", fc.summary([fc.entry("fed")]))
    fc.write_json(run / "trajectory.json", fc.fed_run().to_json(), cut=700)
    ws = opened(tmp_path / "ev")
    source = only(ws)
    (row,) = summaries(source)
    assert (row.ref, row.status, row.steps, row.cost) == ("fed", "submitted", None, 0.0123)
    (problem,) = source.problems()
    assert problem.path.endswith(os.path.join("runs", "fed", "trajectory.json"))
    assert problem.line is not None and problem.line > 1
    assert "ends early" in problem.message and problem.ref == "fed"
    loaded = load(ws, "fed")
    assert (
        loaded.steps == () and forecast_run(loaded).pool is None and loaded.problems == (problem,)
    )


def test_half_written_info_json_keeps_the_steps(tmp_path: Path) -> None:
    run = fc.run_dir(tmp_path / "fed")
    fc.write_json(run / "info.json", fc.info(), cut=40)
    ws = opened(run)
    (row,) = summaries(only(ws))
    assert (row.status, row.outcome, row.steps) == (None, Outcome.NONE, 3)
    assert [p.path for p in only(ws).problems()] == [str(run / "info.json")]


def test_run_dir_being_written_is_claimed_by_its_trajectory(tmp_path: Path) -> None:
    run = tmp_path / "fresh"
    fc.write_json(run / "trajectory.json", fc.fed_run().to_json(), cut=300)
    ws = opened(run)
    (row,) = summaries(only(ws))
    assert row.steps is None and len(only(ws).problems()) == 1


def test_half_written_summary_still_lists_the_run_dirs(tmp_path: Path) -> None:
    root = eval_dir(tmp_path / "ev")
    fc.write_json(root / "summary.json", fc.summary([fc.entry("fed")]), cut=60)
    ws = opened(root)
    source = only(ws)
    assert source.format == forecast.EVAL
    problem = source.entry(0)  # listed as a row: it belongs to no run
    assert isinstance(problem, Problem) and problem.path == str(root / "summary.json")
    runs = [source.entry(i) for i in range(1, len(source))]
    assert sorted(r.ref for r in runs if isinstance(r, RunSummary)) == [
        "boom",
        "fed",
        "live",
        "nba",
    ]
    assert len(runs) == 4
    assert [p.path for p in source.problems()] == [str(root / "summary.json")]


@pytest.mark.parametrize("where", ["../../outside", "ABSOLUTE", "link"])
def test_summary_cannot_point_outside_the_eval(tmp_path: Path, where: str) -> None:
    outside = fc.run_dir(tmp_path / "outside", run_info=fc.info(total_cost=99.0))
    root = tmp_path / "ev"
    if where == "link":
        (root / "runs").mkdir(parents=True)
        (root / "runs" / "evil").symlink_to(outside)
        item = fc.entry("evil", total=0.5)
    else:
        out_dir = str(outside) if where == "ABSOLUTE" else where
        item = fc.entry("../../outside", total=0.5, output_dir=out_dir)
    fc.write_json(root / "summary.json", fc.summary([item]))
    ws = opened(root)
    source = only(ws)
    (row,) = summaries(source)
    assert (row.steps, row.cost) == (None, 0.5)
    (problem,) = source.problems()
    assert "outside the eval directory" in problem.message
    run = load(ws, row.ref)
    assert forecast_run(run).pool is None and run.steps == ()


def test_run_id_traversal_without_output_dir(tmp_path: Path) -> None:
    fc.run_dir(tmp_path / "secret")
    item = fc.entry("x")
    item["run_id"] = "../../secret"
    del item["output_dir"]
    fc.write_json(tmp_path / "a" / "ev" / "summary.json", fc.summary([item]))
    (tmp_path / "a" / "ev" / "runs").mkdir()
    source = only(opened(tmp_path / "a" / "ev"))
    assert summaries(source)[0].steps is None
    assert "outside the eval directory" in source.problems()[0].message


def test_nothing_is_written(tmp_path: Path) -> None:
    root = eval_dir(tmp_path / "ev")
    before = sorted((p, p.stat().st_mtime_ns) for p in tmp_path.rglob("*"))
    ws = opened(root)
    for ref in ws.sources[0].run_refs():
        load(ws, ref)
    assert sorted((p, p.stat().st_mtime_ns) for p in tmp_path.rglob("*")) == before


# -- rendering -------------------------------------------------------------------------------


def test_render_message_source_and_context(tmp_path: Path) -> None:
    fc.run_dir(tmp_path / "fed")
    ws = opened(tmp_path / "fed")
    run = load(ws, "fed")
    text = text_of(render_target(run, ws.resolve("msg:A0")))
    assert "fed/msg:A0" in text and "A0 assistant" in text and "Searching first." in text
    assert '"query": "rate cut march"' in text and "T0 tool" in text
    text = text_of(render_target(run, ws.resolve("msg:T0")))
    assert "answers call_1" in text and "call by A0" in text
    text = text_of(render_target(run, ws.resolve("src:S1")))
    assert "Story 1" in text and "https://news.example/1" in text and "#1 S1" in text
    assert "Yes negative" in text and "hold" in text
    lines = text_of(render_step_context(run, 3)).splitlines()
    assert lines[0].startswith("context of step 3")
    assert any(line.startswith("+ U1 user") for line in lines)
    assert any(line.startswith("- A0 assistant") for line in lines)
    assert any(line.startswith("  S0 system") for line in lines)
    assert lines[-1].startswith("→ A2 assistant")
    assert "source board (1)" in text_of(render_board(run))
    assert "has no step 9" in text_of(render_step_context(run, 9))
    assert "has no message Q1" in text_of(render_message(run, "Q1"))


def test_render_never_interprets_file_text(tmp_path: Path) -> None:
    evil = fc.fed_run()
    key, msg = evil.messages[3]
    msg["content"] = "[bold]x[/bold] \x1b[31mred\x1b]0;title\x07 \u202egnp"
    evil.messages[3] = (key, msg)
    fc.run_dir(tmp_path / "fed", evil)
    run = load(opened(tmp_path / "fed"), "fed")
    text = text_of(render_message(run, "A0"))
    assert "[bold]x[/bold]" in text and "\x1b" not in text and "\u202e" not in text
    assert "␛[31mred" in text


# -- the CLI ---------------------------------------------------------------------------------


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [sys.executable, "-m", "trajtui", *args], capture_output=True, text=True, timeout=60
    )


def test_cli_ls_and_show(tmp_path: Path) -> None:
    root = eval_dir(tmp_path / "ev")
    out = cli("ls", str(root))
    assert out.returncode == 0, out.stderr
    rows = {line.split()[0]: line for line in out.stdout.splitlines()[1:]}
    assert list(rows) == ["fed", "nba", "storms", "skip", "boom", "live"]
    assert "◷ BatchRunTimeoutError" in rows["storms"] and "0.04" in rows["fed"]
    objs = [json.loads(line) for line in cli("ls", str(root), "--json").stdout.splitlines()]
    assert {o["format"] for o in objs} == {"forecast-eval"}
    assert objs[0]["score_label"] == "brier" and objs[2]["steps"] is None
    out = cli("show", str(root), "nba/msg:T0")
    assert out.returncode == 0, out.stderr
    assert "nba/msg:T0" in out.stdout and "unknown source_id" in out.stdout
    out = cli("show", str(root), "fed/src:S1")
    assert out.returncode == 0 and "Story 1" in out.stdout
    raw = json.loads(cli("show", str(root), "fed/msg:U0", "--json").stdout)
    assert raw["ref"] == "fed/msg:U0" and raw["role"] == "user"
    out = cli("show", str(root), "fed/step-2")
    assert out.returncode == 0 and 'add_source("S1")' in out.stdout
    out = cli("show", str(root / "runs" / "fed"), "msg:A2")
    assert out.returncode == 0 and "Hold is likely." in out.stdout
    out = cli("show", str(root), "fed/msg:Z1")
    assert out.returncode == 1 and "no message 'Z1'" in out.stderr


def test_problems_are_entries_free(tmp_path: Path) -> None:
    """Broken files are reported as problems, never as rows that cannot be loaded."""
    root = eval_dir(tmp_path / "ev")
    (root / "runs" / "nba" / "trajectory.json").write_text("{")
    source = only(opened(root))
    assert all(not isinstance(source.entry(i), Problem) for i in range(len(source)))
