"""acp-harness ``compare`` records: each prompt's runs, ranked, read as the file says."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from tests.formats.acp.builders import ranking, write_jsonl
from tests.helpers.workspace import open_paths
from trajtui.cli import cli
from trajtui.core.model import Kind
from trajtui.render import fmt


def _opened(tmp_path: Path, records: list[dict[str, object]]):  # type: ignore[no-untyped-def]
    path = write_jsonl(tmp_path / "builtin-vs-you.jsonl", records)
    ws = open_paths([str(path)])
    (source,) = ws.sources
    for _ in source.scan():
        pass
    return source


def test_a_compare_record_is_a_run_with_its_winner_and_one_step_per_ranked_run(
    tmp_path: Path,
) -> None:
    rec = ranking("q-1", [("you", 0.76), ("builtin", 0.68)])
    rec["rankings"].reverse()  # the file lists #2 first: shown best first all the same
    source = _opened(tmp_path, [rec])
    assert source.format.id == "acp-compare"
    run = source.run(0)
    assert (run.summary.status, run.summary.score) == ("you #1", 0.76)
    assert run.summary.score_label == "score of you, ranked #1"
    assert run.summary.title == "<web-search>Question q-1</web-search>"
    assert [s.title for s in run.steps] == ["#1 you · score 0.76", "#2 builtin · score 0.68"]
    assert ("winner", "you") in run.metadata
    record = {f.label: f.value for f in run.steps[0].fields}["its record"]
    assert record == "you.jsonl::q-1"


def test_compare_steps_resolve_and_show(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "c.jsonl", [ranking("q-1", [("a", 1.0), ("b", 0.5)])])
    out = CliRunner().invoke(cli, ["show", str(path), "q-1/step-2"])
    assert out.exit_code == 0, out.output
    assert "#2 b · score 0.5" in out.output


def test_every_step_kind_has_a_glyph_and_a_label() -> None:
    """A kind without one crashed ``show`` and the timeline (RESULT had none)."""
    assert set(fmt.KIND_GLYPH) == set(Kind)
    assert set(fmt.KIND_LABEL) == set(Kind)
