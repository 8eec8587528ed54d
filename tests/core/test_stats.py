"""Statistics across runs (trajtui/core/stats, ``trajtui stats``): each figure against values
worked out by hand from small fixtures (the working is in the comments)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import tests.formats.eval_results.builders as ev
import tests.formats.forecast.builders as fc
import tests.formats.ultraplan.builders as up
from tests.formats.acp.builders import capture, step_tool, trials, write_jsonl
from tests.helpers.workspace import open_paths
from trajtui.cli.group import cli
from trajtui.core.stats.collect import collect, grouped
from trajtui.core.stats.estimators import (
    average_precision,
    mean_interval,
    pass_at_k,
    pass_hat_k,
    percentile,
    t_critical,
)
from trajtui.core.stats.figures import Figures, Line
from trajtui.core.stats.passk import PassTally
from trajtui.formats.registry import figures


def stats_of(*paths: Path, by: str | None = None) -> list[Figures]:
    ws = open_paths([str(p) for p in paths])
    for _ in ws.scan():
        pass
    parts = figures()
    return grouped(collect(ws.sources, ws.ref, parts=parts).runs, by, parts)


def line(fig: Figures, section: str, label: str) -> Line:
    for s in fig.sections:
        if s.title == section:
            for ln in s.lines:
                if ln.label == label:
                    return ln
    raise AssertionError(f"no {section}/{label} in {[s.title for s in fig.sections]}")


def approx(x: float | None) -> Any:
    return pytest.approx(x, abs=1e-9)


# -- estimators ---------------------------------------------------------------------------------


def test_chen_estimators_by_hand() -> None:
    # n=5, c=2: pass@3 = 1 - C(3,3)/C(5,3) = 1 - 1/10; pass^2 = C(2,2)/C(5,2) = 1/10;
    # pass^3 = C(2,3)/C(5,3) = 0; pass@1 = 1 - C(3,1)/C(5,1) = 2/5
    assert pass_at_k(5, 2, 3) == approx(0.9)
    assert pass_hat_k(5, 2, 2) == approx(0.1)
    assert pass_hat_k(5, 2, 3) == 0
    assert pass_at_k(5, 2, 1) == approx(0.4) and pass_hat_k(5, 2, 1) == approx(0.4)
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def test_percentile_is_linear_between_closest_ranks() -> None:
    # [1, 2, 3, 4]: p50 at position 1.5 -> 2.5; p90 at 2.7 -> 3 + 0.7 * (4 - 3) = 3.7
    assert percentile([4, 1, 3, 2], 50) == approx(2.5)
    assert percentile([4, 1, 3, 2], 90) == approx(3.7)
    assert percentile([7], 90) == 7


def test_mean_interval_is_a_t_interval() -> None:
    # [1, 2, 3]: mean 2, s = 1, t(2) = 4.303, half = 4.303 / sqrt(3) = 2.48434...
    iv = mean_interval([1.0, 2.0, 3.0])
    assert iv is not None and iv.n == 3 and iv.mean == 2
    assert iv.low == pytest.approx(2 - 2.484338, abs=1e-5)
    assert iv.high == pytest.approx(2 + 2.484338, abs=1e-5)
    single = mean_interval([0.5])
    assert single is not None and single.low is None
    assert t_critical(30) == 2.042 and t_critical(120) == pytest.approx(1.9799, abs=1e-4)


def test_average_precision_step_wise() -> None:
    # scores [1, 1, 0, 0], positives [T, F, T, F]: at threshold 1 recall 1/2, precision 1/2
    # (+0.25); at 0 recall 1, precision 2/4 (+0.25): AP 0.5
    assert average_precision([1, 1, 0, 0], [True, False, True, False]) == approx(0.5)
    # a ranking that puts the one positive first: AP 1
    assert average_precision([3, 2, 1], [True, False, False]) == approx(1.0)
    assert average_precision([1, 2], [False, False]) is None


# -- trials -------------------------------------------------------------------------------------


def trials_fixture(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "trials.jsonl",
        [
            trials("a", [True, False, False]),  # n=3, c=1
            trials("b", [True, True, True]),  # n=3, c=3
            trials("c", [True, False]),  # n=2, c=1
            trials("d", [None, None], with_rates=False),  # no grader: not a task
        ],
    )


def test_trials_pass_at_k_and_pass_hat_k_by_hand(tmp_path: Path) -> None:
    fig = stats_of(trials_fixture(tmp_path))[0]
    # pass@1 = mean(1/3, 3/3, 1/2) = 11/18
    p1 = line(fig, "trials", "pass@1")
    assert p1.share == approx(11 / 18) and p1.value == "61.1%"  # a share, as the title says
    assert p1.detail == "(mean over 3 tasks)"
    # pass@2: a 1 - C(2,2)/C(3,2) = 2/3; b 1; c 1 - C(1,2)/C(2,2) = 1 -> 8/9
    assert line(fig, "trials", "pass@2").share == approx(8 / 9)
    # pass^2: a C(1,2)/3 = 0; b 1; c 0 -> 1/3
    assert line(fig, "trials", "pass^2").share == approx(1 / 3)
    # k=3: c has 2 trials, left out: pass@3 = mean(1, 1) = 1; pass^3 = mean(0, 1) = 1/2
    p3 = line(fig, "trials", "pass@3")
    assert p3.share == approx(1.0)
    assert p3.detail == "(mean over 2 tasks); 1 with fewer than 3 trials left out"
    assert line(fig, "trials", "pass^3").share == approx(0.5)
    # tasks whose trials disagree: a and c
    disagree = line(fig, "trials", "trials disagree")
    assert disagree.value == "2" and "a, c" in disagree.detail
    assert disagree.picks == ((0, 0), (0, 2))
    # the file's own passRate beside them: mean(1/3, 1, 1/2) = 11/18; passAtK (1-(1-p)^k):
    # a 1 - (2/3)^3 = 19/27, b 1, c 1 - (1/2)^2 = 3/4 -> (19/27 + 7/4) / 3 = 265/324
    assert line(fig, "trials", "file passRate").share == approx(11 / 18)
    assert line(fig, "trials", "file passAtK").share == approx(265 / 324)
    data = fig.data["trials"]
    assert [(e["name"], e["tasks"], e["excluded"]) for e in data["estimates"]] == [
        ("pass@1", 3, 0),
        ("pass@2", 3, 0),
        ("pass@3", 2, 1),
        ("pass^2", 3, 0),
        ("pass^3", 2, 1),
    ]
    assert data["disagree"] == {"value": 2 / 3, "num": 2, "den": 3, "refs": ["a", "c"]}


def test_trials_outcomes_and_score_interval(tmp_path: Path) -> None:
    fig = stats_of(trials_fixture(tmp_path))[0]
    # a, c mixed (a fail verdict), b pass, d ungraded (unknown)
    assert fig.data["outcomes"]["pass"] == {"value": 0.25, "num": 1, "den": 4, "refs": ["b"]}
    assert fig.data["outcomes"]["fail"]["refs"] == ["a", "c"]
    assert fig.data["outcomes"]["unknown"]["num"] == 1
    # pass rate scores 1/3, 1, 1/2 (within [0, 1]: the Wilson interval): mean p = 11/18;
    # deviations -5/18, 7/18, -2/18, variance over n 78/324/3 = 0.0802469; p(1-p) =
    # 0.2376543; effective n = 3 * 0.2376543 / 0.0802469 = 8.884615; z = t(2) = 4.303,
    # z^2 = 18.515809; d = 1 + z^2/n = 3.084038; centre (p + z^2/2n) / d = 0.536033; half
    # z/d * sqrt(p(1-p)/n + z^2/4n^2) = 1.395249 * 0.292216 = 0.407720: [0.128313, 0.943753]
    # (the t interval was [-0.251, 1.473]: outside what a pass rate can be)
    score = fig.data["score"]["pass rate"]
    assert score["mean"] == approx(11 / 18) and score["n"] == 3
    assert score["interval"] == "wilson"
    assert score["ci95"][0] == pytest.approx(0.128313, abs=1e-5)
    assert score["ci95"][1] == pytest.approx(0.943753, abs=1e-5)


def test_pass_tally_title_figures_name_their_k(tmp_path: Path) -> None:
    t = PassTally()
    for n, c in ((3, 1), (3, 3), (2, 1)):
        t.add_counts(n, c)
    # k = the fewest trials of a task (2): pass@2 8/9, pass^2 1/3 (as above)
    assert t.labels() == ("pass@2", "pass^2")
    assert t.pass_at_k == approx(8 / 9) and t.pass_hat_k == approx(1 / 3)
    assert (t.trials, t.passed, t.prompts) == (8, 5, 3)


# -- durations, tools, groups -------------------------------------------------------------------


def captures_fixture(tmp_path: Path) -> Path:
    return write_jsonl(
        tmp_path / "cap.jsonl",
        [
            capture(
                "r1",
                [
                    step_tool("Bash", "pending", 100),
                    step_tool("Bash", "completed", 300, duration=200),
                    step_tool("Read", "pending", 400),
                    step_tool("Read", "failed", 450, duration=50),
                ],
                score={"pass": True, "score": 1.0},
                metadata={"agent": "A"},
                duration=1000,
            ),
            capture(
                "r2",
                [
                    step_tool("Bash", "pending", 100),
                    step_tool("Bash", "failed", 900, duration=1000),
                ],
                score={"pass": False, "score": 0.0},
                metadata={"agent": "B"},
                duration=4000,
            ),
            capture(
                "r3",
                [step_tool("Bash", "pending", 100), step_tool("Bash", "completed", 200)],
                score={"pass": False, "score": 0.0},
                metadata={"agent": "A", "timedOut": True},
                duration=2000,
            ),
        ],
    )


def test_tool_calls_by_tool_and_durations(tmp_path: Path) -> None:
    fig = stats_of(captures_fixture(tmp_path))[0]
    tools = fig.data["tools"]
    # all: 4 calls (Bash r1, Read r1, Bash r2, Bash r3), 2 failed (Read r1, Bash r2)
    assert tools["all"]["calls"] == 4
    assert tools["all"]["failures"] == {"value": 0.5, "num": 2, "den": 4}
    # Bash: 3 calls, 1 failed; durations 200 (r1), 1000 (r2), r3 100 by its timestamps
    # (200 - 100): median 200
    bash = tools["by_tool"]["Bash"]
    assert bash["calls"] == 3 and bash["failures"] == {"value": 1 / 3, "num": 1, "den": 3}
    assert bash["median_duration_ms"] == 200 and bash["refs"] == ["r1", "r2", "r3"]
    assert tools["by_tool"]["Read"]["failures"] == {"value": 1.0, "num": 1, "den": 1}
    # durations 1000, 4000, 2000 ms: total 7000, p50 2000, p90 at 1.8 -> 2000 + 0.8 * 2000
    d = fig.data["measures"]["duration"]
    assert (d["total"], d["p50"], d["p90"], d["max"], d["n"]) == (7000, 2000, 3600, 4000, 3)


def test_by_agent_groups_side_by_side(tmp_path: Path) -> None:
    groups = stats_of(captures_fixture(tmp_path), by="agent")
    assert [(g.name, len(g.runs)) for g in groups] == [("all", 3), ("A", 2), ("B", 1)]
    a = groups[1]
    # A: r1 pass, r3 timeout (metadata.timedOut)
    assert a.data["outcomes"]["pass"]["refs"] == ["r1"]
    assert a.data["outcomes"]["timeout"] == {"value": 0.5, "num": 1, "den": 2, "refs": ["r3"]}
    assert line(a, "outcomes", "timeout").picks == ((0, 2),)


# -- per format ---------------------------------------------------------------------------------


def test_eval_accuracy_confusion_and_auprc(tmp_path: Path) -> None:
    doc = ev.results_doc(
        [
            ev.sample("b1", "One", "Low Risk", gt="Critical Risk"),  # wrong
            ev.sample("b2", "Two", "Low Risk", gt="Low Risk"),  # correct
            ev.sample("b3", "Three", "High Risk", gt="High Risk"),  # correct
            ev.sample("b4", "Four", "High Risk", gt="Low Risk"),  # wrong
            ev.failed("b5", "Five"),  # no verdict: not graded
        ]
    )
    path = ev.write_json(tmp_path / "results" / "dev" / "20260118_000000_G1" / "results.json", doc)
    fig = stats_of(path.parent)[0]
    data = fig.data["eval"]
    # accuracy over the graded samples: 2 of 4
    assert data["accuracy"] == {"value": 0.5, "num": 2, "den": 4}
    # AUPRC >= High: scores (verdict rank) 0, 0, 1, 1 with positives T, F, T, F -> 0.5 (see
    # test_average_precision_step_wise); >= Critical: only b1 (score 0) positive: threshold
    # 1 adds nothing, threshold 0 recall 1 at precision 1/4 -> 0.25
    assert data["auprc"]["≥ High"] == {"value": 0.5, "n": 4, "positives": 2}
    assert data["auprc"]["≥ Critical"] == {"value": 0.25, "n": 4, "positives": 1}
    table = {(r["gt_verdict"], r["verdict"]): r["count"] for r in data["confusion"]}
    assert table == {
        ("Critical Risk", "Low Risk"): 1,
        ("Low Risk", "Low Risk"): 1,
        ("High Risk", "High Risk"): 1,
        ("Low Risk", "High Risk"): 1,
        (None, None): 1,
    }


def test_forecast_mean_brier(tmp_path: Path) -> None:
    root = tmp_path / "ev"
    root.mkdir()
    runs = [fc.entry("r1", brier=0.1), fc.entry("r2", brier=0.3), fc.entry("r3", "timeout")]
    fc.write_json(root / "summary.json", fc.summary(runs))
    fig = stats_of(root)[0]
    # Brier 0.1 and 0.3 (r3 has none): mean p = 0.2, variance over n 0.01, p(1-p) 0.16,
    # effective n 2 * 0.16 / 0.01 = 32; z = t(1) = 12.706, z^2 = 161.442; d = 1 + z^2/32 =
    # 6.045077; centre (0.2 + z^2/64) / d = 0.450372; half 12.706/d * sqrt(0.16/32 +
    # z^2/4096) = 2.101879 * 0.210750 = 0.442966: [0.007407, 0.893339] (the t interval,
    # 0.2 ± 1.2706, went below 0: no Brier score can)
    f = fig.data["forecast"]
    assert f["mean_brier"] == approx(0.2) and f["n"] == 2 and f["refs"] == ["r1", "r2"]
    assert f["interval"] == "wilson"
    assert f["ci95"][0] == pytest.approx(0.007407, abs=1e-5)
    assert f["ci95"][1] == pytest.approx(0.893339, abs=1e-5)


def test_ultraplan_validity_and_task_success(tmp_path: Path) -> None:
    root = up.project(tmp_path / "p")
    up.write_result(root, "03-01-task-01-success.yaml", up.log(up.result()))
    failure = up.result(status="failure", task_name="Task 2: B")
    up.write_result(
        root,
        "03-01-task-02-failure.yaml",
        up.log(failure, task_index=2, logged_at="2026-01-26T10:40:45Z"),
    )
    no_status = up.result(status=..., task_name="Task 3: C")
    up.write_result(
        root,
        "03-01-task-03-x.yaml",
        up.log(no_status, task_index=3, logged_at="2026-01-26T10:50:45Z"),
    )
    fig = stats_of(root)[0]
    u = fig.data["ultraplan"]
    # no PLAN.md: a warning on each result (VALID_WITH_WARNINGS); no status is critical
    assert u["validity"]["VALID_WITH_WARNINGS"]["num"] == 2
    assert u["validity"]["INVALID"] == {"value": 1 / 3, "num": 1, "den": 3, "refs": ["03-01"]}
    assert u["validity"]["VALID"]["num"] == 0
    # one success among the three results
    assert u["success"] == {"value": 1 / 3, "num": 1, "den": 3, "refs": ["03-01"]}


# -- the command --------------------------------------------------------------------------------


def run_cli(*args: str) -> Any:
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_stats_command_text_and_json(tmp_path: Path) -> None:
    path = trials_fixture(tmp_path)
    out = run_cli("stats", str(path))
    assert out.exit_code == 0
    rows = [" ".join(x.split()) for x in out.stdout.splitlines()]
    assert "pass@1 61.1% (mean over 3 tasks)" in rows
    assert "pass^3 50.0% (mean over 2 tasks); 1 with fewer than 3 trials left out" in rows
    assert "pass 25.0% (1/4 runs)" in rows
    assert "WebSearch 10 calls · 0 failed · failure rate 0.0% (0/10) · median 5ms (n=10)" in rows
    js = run_cli("stats", str(path), "--json")
    (obj,) = [json.loads(x) for x in js.stdout.splitlines()]
    assert obj["group"] == "all" and obj["runs"] == 4
    assert obj["outcomes"]["fail"] == {"value": 0.5, "num": 2, "den": 4, "refs": ["a", "c"]}


def test_stats_by_field_side_by_side(tmp_path: Path) -> None:
    out = run_cli("stats", str(captures_fixture(tmp_path)), "--by", "agent")
    lines = out.stdout.splitlines()
    start = lines.index("by agent")
    assert lines[start + 1].split() == ["A", "B"]
    row = next(x for x in lines[start:] if x.strip().startswith("outcomes: timeout"))
    assert row.split()[-4:] == ["50.0%", "(1/2)", "0.0%", "(0/1)"]
    js = [
        json.loads(x)
        for x in run_cli(
            "stats", str(captures_fixture(tmp_path)), "--by", "agent", "--json"
        ).stdout.splitlines()
    ]
    assert [(o["group"], o.get("by")) for o in js] == [
        ("all", None),
        ("A", "agent"),
        ("B", "agent"),
    ]


def test_groups_side_by_side_keep_names_apart_and_count_one_run(tmp_path: Path) -> None:
    """Two model names alike in their first 24 characters stay two different headers (they
    were both cut to ``claude-sonnet-4-5-20250…``), and a group of one run says ``1 run``."""
    a, b = "claude-sonnet-4-5-20250929", "claude-sonnet-4-5-20250514"
    path = write_jsonl(
        tmp_path / "m.jsonl",
        [
            capture("r1", metadata={"model": a}),
            capture("r2", metadata={"model": a}),
            capture("r3", metadata={"model": b}),
        ],
    )
    lines = run_cli("stats", str(path), "--by", "model").stdout.splitlines()
    start = lines.index("by model")
    heads = lines[start + 1].split()
    assert len(heads) == 2 and heads[0] != heads[1]
    assert a.startswith(heads[0].rstrip("…")) and b.startswith(heads[1].rstrip("…"))
    assert lines[start + 2].split() == ["runs", "2", "runs", "1", "run"]


def test_stats_errors_are_one_line(tmp_path: Path) -> None:
    out = CliRunner().invoke(cli, ["stats", str(tmp_path / "missing.jsonl")])
    assert out.exit_code == 1
    assert "Traceback" not in out.output
    assert out.stderr.strip().splitlines()[-1] == "nothing to count"


def test_stats_labels_from_files_are_made_visible(tmp_path: Path) -> None:
    rec = capture(
        "r1", [step_tool("Ba\x1b[31msh", "completed", 10)], metadata={"agent": "x\x1b]0;t\x07"}
    )
    path = write_jsonl(tmp_path / "c.jsonl", [rec])
    out = run_cli("stats", str(path), "--by", "agent")
    assert "\x1b" not in out.stdout and "\x07" not in out.stdout
    assert math.isfinite(1.0)


def test_stats_says_when_no_run_has_the_by_field(tmp_path: Path) -> None:
    out = run_cli("stats", str(captures_fixture(tmp_path)), "--by", "modle")
    assert out.exit_code == 0
    assert out.stderr.strip() == (
        "no run has a value for 'modle' (fields: format, source, status, outcome, agent, timedOut)"
    )


def test_stats_shows_progress_when_reading_takes_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("trajtui.cli.stats.PROGRESS_AFTER", 0.0)
    out = run_cli("stats", str(trials_fixture(tmp_path)))
    # stderr is not a terminal here: whole lines, the last one at the end
    assert out.stderr.splitlines()[-1] == "stats: reading runs 4/4"
    assert "pass@1" in out.stdout


def test_stats_as_markdown_is_a_table_per_section_and_the_groups_side_by_side(
    tmp_path: Path,
) -> None:
    out = run_cli("stats", str(captures_fixture(tmp_path)), "--by", "agent", "-f", "markdown")
    assert out.exit_code == 0
    lines = out.stdout.splitlines()
    assert lines[0].startswith("## Stats: ") and lines[0].endswith(" · 3 runs")
    outcomes = lines.index("### outcomes (of the runs; trials records: pass = every trial passed)")
    assert lines[outcomes + 2 : outcomes + 5] == [
        "| figure | value | counts and method |",
        "|---|---:|---|",
        "| pass | 33.3% | (1/3 runs) |",
    ]
    by = lines.index("### By agent")
    assert lines[by + 2 : by + 5] == ["| figure | A | B |", "|---|---:|---:|", "| runs | 2 | 1 |"]
    assert "| outcomes: timeout | 50.0% (1/2) | 0.0% (0/1) |" in lines


def test_stats_as_html_is_one_page_with_bars_and_the_runs_behind_each_figure(
    tmp_path: Path,
) -> None:
    rec = capture(
        "<b>r1</b>",
        [step_tool("Ba\x1b[31msh", "completed", 10)],
        metadata={"agent": "<script>alert(1)</script>"},
        score={"pass": True},
    )
    path = write_jsonl(tmp_path / "c.jsonl", [rec, capture("r2", score={"pass": False})])
    out = run_cli("stats", str(path), "--by", "agent", "--format", "html")
    assert out.exit_code == 0
    page = out.stdout
    assert page.startswith("<!doctype html>") and "default-src 'none'" in page
    assert "<script" not in page and "\x1b" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page  # the group's name, as text
    # the pass row: its value, a bar half as wide as a full one, and its run by reference
    row = next(x for x in page.splitlines() if x.startswith("<tr><th>pass</th>"))
    assert "<td class='num'>50.0%</td>" in row and "style='width:50px'" in row
    assert "<summary>1 run</summary><span class='ref'>&lt;b&gt;r1&lt;/b&gt;</span>" in row


def test_stats_json_flag_and_format_json_agree(tmp_path: Path) -> None:
    path = str(captures_fixture(tmp_path))
    assert run_cli("stats", path, "--json").stdout == run_cli("stats", path, "-f", "json").stdout
