"""Eval results: a results tree grouped into one source with a run per results file, runs named
by their directories, claimed by content, references that resolve, and each run listed once when
a scan and a resolve run on two threads."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.formats.eval_results import builders as b
from tests.formats.eval_results.opened import one_source, run_of, scanned, summaries
from tests.helpers.workspace import open_paths
from trajtui.core.io.detect import sniff
from trajtui.core.io.discover import walk
from trajtui.core.model import Severity
from trajtui.formats import eval_results as er
from trajtui.formats.eval_results.tree import unique_tails

# -- grouping and naming ---------------------------------------------------------------------------


def test_a_tree_is_one_source_with_a_run_per_results_file(tree: Path) -> None:
    sources, problems = scanned([tree.parent])  # opened above the tree: the tree is found
    assert problems == []
    (source,) = sources
    assert os.path.normpath(source.path) == os.path.normpath(tree)
    runs = summaries(source)
    assert set(runs) == {
        b.DEV_DIRECT,
        b.DEV_FAILED,
        b.DEV_PARSE,
        b.DEV_RAG,
        b.DEV_LEGACY,
        b.BASE_V0,
        b.BASE_GRADED,
        b.QUERY,
    }
    assert {r: s.steps for r, s in runs.items()} == {
        b.DEV_DIRECT: 3,
        b.DEV_FAILED: 2,
        b.DEV_PARSE: 1,
        b.DEV_RAG: 1,
        b.DEV_LEGACY: 2,
        b.BASE_V0: 1,
        b.BASE_GRADED: 2,
        b.QUERY: 1,
    }
    assert all(s.format == "eval-results" for s in runs.values())
    warnings = [p for p in source.problems() if p.severity is Severity.WARNING]
    assert len(warnings) == 1 and warnings[0].path.endswith(b.DEV_CONFIG_ONLY)
    assert "no results file" in warnings[0].message


@pytest.mark.parametrize(
    ("sub", "runs"), [("results/dev", 5), ("results/baseline", 2), ("results/baseline/G1a", 2)]
)
def test_opening_a_mode_or_task_directory(tmp_path: Path, sub: str, runs: int) -> None:
    b.make_tree(tmp_path)
    assert len(summaries(one_source(tmp_path / sub))) == runs


def test_a_run_directory_opened_alone(tree: Path) -> None:
    source = one_source(tree / "dev" / b.DEV_DIRECT)
    assert list(summaries(source)) == [b.DEV_DIRECT]
    trailing = one_source(Path(str(tree / "dev" / b.DEV_DIRECT) + os.sep))
    assert list(summaries(trailing)) == [b.DEV_DIRECT]


def test_single_files_are_named_by_directory_or_stem(tree: Path) -> None:
    single = one_source(tree / "dev" / b.DEV_DIRECT / "results.json")
    assert list(summaries(single)) == [b.DEV_DIRECT]
    stem = one_source(tree / "baseline" / "G1a" / f"{b.BASE_V0}.json")
    assert list(summaries(stem)) == [b.BASE_V0]
    legacy = one_source(tree / "dev" / b.DEV_LEGACY / "results.jsonl")
    assert list(summaries(legacy)) == [b.DEV_LEGACY]
    # a file opened alone does not read its neighbours
    assert "config.json" not in [f.label for f in run_of(legacy, b.DEV_LEGACY).fields]


def test_repeated_run_directory_names_get_their_parents(tmp_path: Path) -> None:
    for method in ("direct", "rlm"):
        for n in (1, 2):
            b.write_json(
                tmp_path / "results" / "yelp" / method / "G1_K50" / f"run_{n}" / "results.json",
                b.results_doc([b.sample("x", "X")], method=method),
            )
    source = one_source(tmp_path / "results")
    assert set(summaries(source)) == {
        "direct/G1_K50/run_1",
        "direct/G1_K50/run_2",
        "rlm/G1_K50/run_1",
        "rlm/G1_K50/run_2",
    }
    ws = open_paths([str(tmp_path / "results")])
    assert ws.resolve("rlm/G1_K50/run_2/x").ref == "rlm/G1_K50/run_2/x"


def test_unique_tails() -> None:
    assert unique_tails([("r", "a", "x"), ("r", "b", "x"), ("r", "b", "y")]) == [
        "a/x",
        "b/x",
        "y",
    ]
    assert unique_tails([("r", "x"), ("r", "x")]) == ["r/x", "r/x"]


def test_claim_dir_decides_by_content(tmp_path: Path) -> None:
    b.make_tree(tmp_path / "project")
    (tmp_path / "project" / "src").mkdir()
    places = {
        os.path.relpath(p.path, tmp_path / "project"): p for p in walk(str(tmp_path / "project"))
    }
    assert er.claim_dir(places["."]) is None  # the project is not the tree
    assert er.claim_dir(places["results"]) is not None
    assert er.claim_dir(places["src"]) is None
    # a forecast eval dir (its summary.json) and a config-only run dir are not ours
    ev = tmp_path / "forecast"
    b.write_json(ev / "summary.json", b.forecast_summary())
    b.write_json(ev / "runs" / "q-1" / "info.json", {"exit_status": "submitted"})
    for place in walk(str(ev)):
        assert er.claim_dir(place) is None, place.path
    only = tmp_path / "only-config"
    b.write_json(only / "config.json", b.run_config())
    assert all(er.claim_dir(p) is None for p in walk(str(only)))


def test_forecast_summary_is_not_ours_and_ours_is_not_forecast(tmp_path: Path) -> None:
    ev = tmp_path / "forecast-eval"
    b.write_json(ev / "summary.json", b.forecast_summary())
    path = str(ev / "summary.json")
    assert er.open_file(path, sniff(path), None) is None
    run_dir = b.make_later_run(tmp_path / "run_1")
    sources, _ = scanned([run_dir])
    assert [s.format.id for s in sources] == ["eval-results"]
    summary = str(run_dir / "summary.json")
    assert er.open_file(summary, sniff(summary), None) is None


# -- references --------------------------------------------------------------------------------------


def test_references_resolve_to_samples(tree: Path) -> None:
    ws = open_paths([str(tree)])
    target = ws.resolve(f"{b.DEV_DIRECT}/bizB")
    assert (target.kind, target.step, target.ref) == ("step", 2, f"{b.DEV_DIRECT}/bizB")
    again = ws.resolve(f"{b.DEV_DIRECT}/bizA#2")
    assert again.step == 3
    assert ws.resolve(f"{b.DEV_DIRECT}/step-1").ref == f"{b.DEV_DIRECT}/bizA"
    assert ws.resolve(f"{b.DEV_LEGACY}/qcguEeAM").step == 1
    assert ws.resolve(f"{b.BASE_V0}/bizA").step == 1
    assert ws.resolve(f"{b.QUERY}/qcguEeAMP0XwFLYqhwX2hg").step == 1
    with pytest.raises(LookupError, match="no item 'nope'"):
        ws.resolve(f"{b.DEV_DIRECT}/nope")


def test_bare_sample_id_in_a_single_run_source(tree: Path) -> None:
    ws = open_paths([str(tree / "dev" / b.DEV_DIRECT / "results.json")])
    assert ws.resolve("bizB").ref == f"{b.DEV_DIRECT}/bizB"


def test_sample_without_usable_id_is_step_n(tmp_path: Path) -> None:
    p = b.write_json(
        tmp_path / "r" / "results.json",
        b.results_doc([{"business_id": "a/b", "name": "Slash"}, {"name": "No id"}, None]),
    )
    run = one_source(p).run(0)
    assert [s.ref for s in run.steps] == ["r/step-1", "r/step-2", "r/step-3"]
    assert [s.stored_id for s in run.steps] == ["a/b", None, None]
    assert run.steps[2].status == "error" and run.steps[2].error == "not an object: NoneType"
    assert open_paths([str(p)]).resolve("r/step-2").step == 2


def test_a_scan_and_a_resolve_on_two_threads_list_each_run_once(tmp_path: Path) -> None:
    import threading

    from tests.helpers.workspace import open_paths

    root = tmp_path / "results"
    for i in range(60):
        b.write_json(
            root / "dev" / f"20260203_{i:06d}_G1" / "results.json",
            b.results_doc([b.sample(f"b{i}", "N")]),
        )
    for _ in range(5):
        ws = open_paths([str(root)])
        (source,) = ws.sources
        errors: list[BaseException] = []

        def scan(source: Any = source, errors: list[BaseException] = errors) -> None:
            try:
                for _ in source.scan():
                    pass
            except BaseException as err:  # pragma: no cover - reported below
                errors.append(err)

        threads = [threading.Thread(target=scan) for _ in range(2)]
        for t in threads:
            t.start()
        target = ws.resolve("20260203_000059_G1/b59")
        for t in threads:
            t.join()
        assert not errors
        assert target.item is None and target.step == 1
        refs = source.run_refs()
        assert len(refs) == 60 and not any("#" in r for r in refs)
