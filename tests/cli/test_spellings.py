"""One spelling per quantity (issue 22, item 10): a score, a reward, a cost and their
differences read the same in ``ls``, ``show``, ``diff`` (two runs, two sources) and the
exports of a comparison as the run list spells them (``0.85``, not ``0.850``; ``-$0.0481``,
not ``-0.0481``; a Harbor trial's ``reward`` is a reward in ``show`` and ``diff`` alike)."""

from __future__ import annotations

from pathlib import Path

from tests.cli.test_counts_agree import ls_rows, run
from tests.formats.acp.builders import capture, write_jsonl
from tests.formats.atif import builders as atif
from tests.formats.atif import tbench


def _two(tmp_path: Path) -> tuple[Path, Path]:
    a = write_jsonl(
        tmp_path / "a.jsonl",
        [capture("web-7", score={"pass": True, "score": 0.85}, duration=1500)],
    )
    b = write_jsonl(
        tmp_path / "b.jsonl",
        [capture("web-7", score={"pass": False, "score": 0.37}, duration=900)],
    )
    return a, b


def _row(lines: list[str], head: str) -> list[str]:
    return next(line.split() for line in lines if line.split()[:1] == [head])


def test_a_score_reads_as_the_run_list_spells_it_in_diff(tmp_path: Path) -> None:
    a, b = _two(tmp_path)
    assert "0.85" in ls_rows(a)["web-7"]
    runs = run("diff", str(a), str(b), f"{a}::web-7", f"{b}::web-7").stdout.splitlines()
    assert _row(runs, "score")[1:] == ["0.85", "0.37", "-0.48"], runs
    sources = run("diff", str(a), str(b)).stdout.splitlines()
    assert _row(sources, "web-7")[:7] == ["web-7", "✓", "pass", "0.85", "✗", "fail", "0.37"]
    assert _row(sources, "web-7")[7] == "-0.48", sources
    md = run("diff", str(a), str(b), f"{a}::web-7", f"{b}::web-7", "--format", "markdown")
    assert "| score | 0.85 | 0.37 | -0.48 |" in md.stdout, md.stdout + md.stderr


def test_a_harbor_trials_reward_and_cost_difference_read_as_show_spells_them(
    tmp_path: Path,
) -> None:
    job = tmp_path / "job"
    tbench.tb_trial(job, "fix-bug", "Aa1Aa1A", 0.0, None, cost=0.0529)
    tbench.tb_trial(job, "fix-bug", "Bb2Bb2B", 1.0, None, cost=0.0048)
    show = run("show", str(job), "fix-bug__Aa1Aa1A").stdout
    assert "reward 0" in " ".join(show.split()), show
    lines = run("diff", str(job), "fix-bug__Aa1Aa1A", "fix-bug__Bb2Bb2B").stdout.splitlines()
    assert _row(lines, "reward")[1:] == ["0", "1", "+1"], lines
    assert _row(lines, "cost")[1:] == ["$0.0529", "$0.0048", "-$0.0481"], lines
    assert not any(line.split()[:1] == ["score"] for line in lines), lines


def test_one_task_is_one_task_in_show_and_stats(tmp_path: Path) -> None:
    job = tmp_path / "job"
    tbench.tb_trial(job, "fix-bug", "Aa1Aa1A", 0.0, None)
    tbench.tb_trial(job, "fix-bug", "Bb2Bb2B", 1.0, None)
    atif.write_json(job / "config.json", {"job_name": "job", "n_attempts": 2, "agents": []})
    evals = {"terminus-2__model-x__demo": {"n_trials": 2, "n_errors": 0, "pass_at_k": {"2": 1.0}}}
    atif.write_json(job / "result.json", {"n_total_trials": 2, "stats": {"evals": evals}})
    show = " ".join(run("show", str(job), "fix-bug__Aa1Aa1A").stdout.split())
    assert "trajtui, over the same tasks: 1 task · 2 attempts" in show, show
    stats = [" ".join(line.split()) for line in run("stats", str(job)).stdout.splitlines()]
    assert "pass@1 0.500 (mean over 1 task)" in stats, stats
    assert any(x.startswith("attempts 2 of 1 task · 2 graded · 1 passed") for x in stats), stats
    assert not any("1 tasks" in line for line in stats), stats


def test_a_forecast_runs_two_costs_are_both_said_and_named(tmp_path: Path) -> None:
    """mini-prophet's eval writes 0.0 in summary.json for a run that raised (its ``total_cost``
    leaves it out) while the run's info.json counts what it spent: the detail says both,
    each by the file and key it comes from, and which one trajtui counts."""
    from tests.formats.forecast import builders as fc

    root = tmp_path / "eval"
    fc.run_dir(root / "runs" / "fed")
    boom = fc.info("ContextWindowExceededError", total_cost=0.005411)
    fc.run_dir(root / "runs" / "boom", run_info=boom)
    runs = [fc.entry("fed"), fc.entry("boom", "ContextWindowExceededError", total=0.0)]
    fc.write_json(root / "summary.json", fc.summary(runs))
    show = " ".join(run("show", str(root), "boom").stdout.split())
    assert "cost $0.0054 (info.json cost_stats.total_cost:" in show, show
    assert "summary.json cost.total $0" in show, show
    same = " ".join(run("show", str(root), "fed").stdout.split())
    assert "summary.json cost.total" not in same, same  # one figure: nothing to tell apart
