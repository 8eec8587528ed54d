"""Eval results: broken inputs (a half-written file, invalid JSON with its line, links out of
the opened directory), nothing written, and a run added noticed."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.formats.eval_results import builders as b
from tests.formats.eval_results.opened import one_source, run_of, scanned, summaries
from trajtui.core.model import Problem, RunSummary, Severity
from trajtui.core.source import LoadError

# -- broken inputs --------------------------------------------------------------------------------------


def test_half_written_results_file_is_a_problem_row(tree: Path) -> None:
    path = tree / "dev" / b.DEV_RAG / "results.json"
    text = path.read_bytes()
    path.write_bytes(text[: len(text) // 2])
    source = one_source(tree)
    rows = [source.entry(i) for i in range(len(source))]
    (problem,) = [r for r in rows if isinstance(r, Problem) and r.severity is Severity.ERROR]
    assert problem.path == str(path) and problem.line == text[: len(text) // 2].count(b"\n") + 1
    assert "ends early" in problem.message
    assert len(summaries(source)) == 7
    index = rows.index(problem)
    with pytest.raises(LoadError):
        source.run(index)


def test_invalid_json_reports_its_line(tmp_path: Path) -> None:
    path = tmp_path / "r" / "results.json"
    path.parent.mkdir()
    path.write_text('{\n  "run_id": "x",\n  "results": [\n    {"business_id": oops}\n  ]\n}\n')
    sources, _ = scanned([tmp_path / "r"])
    (source,) = sources
    (problem,) = source.problems()
    assert (problem.line, str(problem).split(": ")[0]) == (4, f"{path}:4")


def test_links_out_of_the_opened_directory_are_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    b.write_json(outside / "secret" / "results.json", b.results_doc([b.sample("s", "Secret")]))
    b.write_json(outside / "config.json", {"model": "secret", "k": 1})
    tree = b.make_tree(tmp_path / "in")
    os.symlink(outside / "secret", tree / "dev" / "linked_run")
    legacy = tree / "dev" / b.DEV_LEGACY
    (legacy / "config.json").unlink()
    os.symlink(outside / "config.json", legacy / "config.json")
    source = one_source(tree)
    assert "linked_run" not in summaries(source) and "secret" not in summaries(source)
    run = run_of(source, b.DEV_LEGACY)
    assert "config.json" not in [f.label for f in run.fields]
    assert any("link out of the opened directory" in p.message for p in run.problems)


def test_nothing_is_written(tree: Path) -> None:
    def snapshot() -> dict[str, tuple[int, int]]:
        return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in tree.parent.rglob("*")}

    before = snapshot()
    source = one_source(tree)
    for i in range(len(source)):
        if isinstance(source.entry(i), RunSummary):
            source.run(i)
    assert snapshot() == before


def test_changed_when_a_run_is_added(tree: Path) -> None:
    source = one_source(tree)
    assert source.changed() is None
    b.write_json(tree / "dev" / "20990101_000000_new" / "results.json", b.results_doc([]))
    assert source.changed() == "changed"
    list(source.refresh())
    assert "20990101_000000_new" in summaries(source)
    assert summaries(source)["20990101_000000_new"].status == "empty"
