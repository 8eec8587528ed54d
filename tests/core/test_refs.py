"""References: one name per object, resolved through the index, with helpful misses."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, trials, write_jsonl
from tests.helpers.workspace import open_paths
from trajtui.core.jsonl.index import ScanProgress
from trajtui.core.jsonl.reader import Record
from trajtui.core.jsonl.source import JsonlSource
from trajtui.core.model import Kind, Outcome, Run, RunSummary, Step
from trajtui.core.refs import DuplicateNamer, RefError, readings
from trajtui.core.source import FormatInfo
from trajtui.core.static_source import StaticSource
from trajtui.core.workspace import Workspace


def scanned(paths: list[Path]) -> Workspace:
    ws = open_paths([str(p) for p in paths])
    for _ in ws.scan():
        pass
    return ws


def test_repeated_ids_get_numbers_in_file_order(tmp_path: Path) -> None:
    p = write_jsonl(tmp_path / "c.jsonl", [capture("a"), capture("b"), capture("a"), capture("a")])
    ws = scanned([p])
    (source,) = ws.sources
    assert [source.entry(i).ref for i in range(4)] == ["a", "b", "a#2", "a#3"]
    assert ws.resolve("a#3").index == 3
    assert ws.resolve("a#2-step-2").ref == "a#2-step-2"


def test_a_run_with_an_empty_id_and_its_steps_resolve(tmp_path: Path) -> None:
    """``"id": ""`` is an id the file gives: the run is listed under it, and its steps
    (``-step-N``, ``/step-N``) and the run itself can be shown and reached."""
    p = write_jsonl(tmp_path / "c.jsonl", [capture(""), capture("b"), capture("")])
    ws = scanned([p])
    assert [ws.sources[0].entry(i).ref for i in range(3)] == ["", "b", "#2"]
    assert ws.resolve("").index == 0
    assert (ws.resolve("-step-2").ref, ws.resolve("-step-2").step) == ("-step-2", 2)
    assert ws.resolve("/step-1").index == 0
    assert ws.resolve("#2-step-1").index == 2
    t = write_jsonl(tmp_path / "t.jsonl", [trials("", [True, False])])
    ws = scanned([t])
    assert ws.resolve("/trial-2/step-1").ref == "/trial-2/step-1"


def test_literal_hash_ids_do_not_collide() -> None:
    namer = DuplicateNamer()
    assert [namer.name(n) for n in ["x", "x#2", "x"]] == ["x", "x#2", "x#3"]


def test_run_ids_that_look_like_step_refs(tmp_path: Path) -> None:
    p = write_jsonl(tmp_path / "c.jsonl", [capture("job-step-2"), capture("job")])
    ws = scanned([p])
    assert ws.resolve("job-step-2").kind == "run"
    assert ws.resolve("job-step-2-step-1").kind == "step"
    assert ws.resolve("job/step-2").ref == "job-step-2"  # the canonical spelling is shown


def test_misses_say_what_exists_nearby(tmp_path: Path) -> None:
    p = write_jsonl(tmp_path / "c.jsonl", [capture(f"websearch-{i}") for i in (7, 17, 170)])
    ws = scanned([p])
    with pytest.raises(RefError, match=r"nearby: .*websearch-17"):
        ws.resolve("websearch-71")
    with pytest.raises(
        RefError,
        match=re.escape("has no step 9; it has 3 steps: websearch-7-step-1 ... websearch-7-step-3"),
    ):
        ws.resolve("websearch-7-step-9")
    t = write_jsonl(tmp_path / "t.jsonl", [trials("q", [True, False])])
    ws2 = scanned([t])
    with pytest.raises(RefError, match="has no trial 5; it has 2 trials"):
        ws2.resolve("q/trial-5")
    with pytest.raises(RefError, match="trials record"):
        ws2.resolve("q-step-1")


def test_several_sources_qualify_references(tmp_path: Path) -> None:
    a = write_jsonl(tmp_path / "a.jsonl", [capture("x"), capture("only-a")])
    b = write_jsonl(tmp_path / "b.jsonl", [capture("x")])
    ws = scanned([a, b])
    assert ws.qualified
    assert ws.resolve("only-a").index == 1
    with pytest.raises(RefError, match="is in 2 sources"):
        ws.resolve("x")
    target = ws.resolve("b.jsonl::x-step-2")
    assert target.source is ws.sources[1]
    assert ws.ref(target.source, target.ref) == "b.jsonl::x-step-2"


def test_labels_are_the_shortest_distinct_tails() -> None:
    from trajtui.core.workspace import short_labels

    assert short_labels(["r/a/x.jsonl", "r/b/x.jsonl", "r/b/y.jsonl"]) == [
        "a/x.jsonl",
        "b/x.jsonl",
        "y.jsonl",
    ]


def test_readings_are_ordered_plain_first() -> None:
    parts = list(readings("a/trial-2/step-3"))
    assert parts[0].run == "a/trial-2/step-3"
    assert (parts[1].run, parts[1].attempt, parts[1].step) == ("a", 2, 3)


def test_step_ref_resolves_without_parsing_other_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = write_jsonl(tmp_path / "c.jsonl", [capture(f"r{i}") for i in range(50)])
    ws = scanned([p])
    (source,) = ws.sources
    assert isinstance(source, JsonlSource)
    parsed: list[int] = []
    original = source.reader.record

    def spy(i: int) -> Record:
        parsed.append(i)
        return original(i)

    monkeypatch.setattr(source.reader, "record", spy)
    assert ws.resolve("r49-step-3").step == 3
    assert set(parsed) == {49}


class _NumberedSource(StaticSource):
    """A format that numbers its steps as its file does (1, 2, 10: a gap), not by position."""

    def _load(self) -> Iterator[ScanProgress]:
        def load(ref: str) -> Run:
            steps = tuple(
                Step(ref=f"{ref}/step-{n}", number=n, kind=Kind.MESSAGE, title=f"number {n}")
                for n in (1, 2, 10)
            )
            return Run(RunSummary(ref, 0, "numbered", None, Outcome.NONE), steps=steps)

        self.add_run(RunSummary("r", 0, "numbered", None, Outcome.NONE), load)
        yield ScanProgress(1, 1, 1)


def test_step_refs_name_the_number_a_format_gives_its_steps() -> None:
    source = _NumberedSource("numbered.json", FormatInfo("numbered", "numbered"))
    target = source.resolve("r/step-10")
    # the third step of the timeline is step 10: the target says where it is in the timeline
    assert (target.ref, target.step) == ("r/step-10", 3)
    assert source.resolve("step-2").step == 2
    with pytest.raises(RefError, match=r"no step 3; it has 3 steps: r/step-1 \.\.\. r/step-10"):
        source.resolve("r/step-3")
