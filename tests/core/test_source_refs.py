"""``SOURCE::REF``: a source is named by any suffix of its path that only it has (whole
path components), or by its whole path, not only by the shortest label shown."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers import forked
from tests.helpers.workspace import open_paths
from trajtui.core.refs import RefError


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for team in ("alpha", "beta"):
        for day in ("mon", "tue"):
            d = tmp_path / "runs" / team / day
            d.mkdir(parents=True)
            write_jsonl(d / "results.jsonl", [capture("websearch-1"), capture(f"{team}-{day}")])
    return tmp_path / "runs"


def resolved(root: Path, ref: str) -> str:
    ws = open_paths([str(root)])
    try:
        for source in ws.sources:
            for _ in source.scan():
                pass
        target = ws.resolve(ref)
        return f"{target.source.path}::{target.ref}"
    finally:
        ws.close()


@pytest.mark.parametrize(
    "name",
    [
        "alpha/mon/results.jsonl",  # the label shown
        "runs/alpha/mon/results.jsonl",  # a longer suffix
        "{root}/alpha/mon/results.jsonl",  # the whole path
    ],
)
def test_any_unique_suffix_of_the_path_names_the_source(tree: Path, name: str) -> None:
    ref = name.format(root=tree) + "::websearch-1"
    assert resolved(tree, ref) == f"{tree}/alpha/mon/results.jsonl::websearch-1"


def test_a_suffix_several_sources_share_says_which(tree: Path) -> None:
    with pytest.raises(RefError) as err:
        resolved(tree, "mon/results.jsonl::websearch-1")
    assert "alpha/mon/results.jsonl" in str(err.value) and "beta/mon/results.jsonl" in str(
        err.value
    )


def test_show_takes_the_whole_path(tree: Path) -> None:
    path = tree / "beta" / "tue" / "results.jsonl"
    out = forked.run(
        [sys.executable, "-m", "trajtui", "show", str(tree), f"{path}::beta-tue", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert '"id":"beta-tue"' in out.stdout.replace(" ", "")
