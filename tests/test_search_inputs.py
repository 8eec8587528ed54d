"""Which runs hold a run-list filter's word in their whole input (past the 200 characters
of the title): read from each record's lite fields, or from the whole run."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.builders import capture, write_jsonl
from trajtui.core.query import parse
from trajtui.core.search import inputs
from trajtui.core.search.inputs import InputWords
from trajtui.core.workspace import open_paths

PREAMBLE = "You are a careful research assistant. " * 8  # past the title's 200 characters


@pytest.fixture
def path(tmp_path: Path) -> str:
    recs = [
        capture("deep-1", [], input=PREAMBLE + "\nSite: vercel.com, the pricing page"),
        capture("flat-2", [], input="Find the CEO of Anthropic", output="vercel in the output"),
        capture("turns-3", [], input=["first turn", "then Vercel, in the second turn"]),
        capture("step-4", [{"type": "tool_call", "name": "Read", "input": {"q": "vercel"}}]),
    ]
    return str(write_jsonl(tmp_path / "inputs.jsonl", recs))


def _rows(path: str, query: str, skip: object = None) -> set[int] | None:
    ws = open_paths([path])
    for _ in ws.scan():
        pass
    (word,) = parse(query).words
    found = InputWords()
    assert found.search(ws.sources, word, lambda: False, skip=skip)  # type: ignore[arg-type]
    assert found.searched(word, ws.sources)
    return found.rows(0, word)


@pytest.mark.parametrize("lite", [True, False], ids=["lite-fields", "whole-run"])
def test_a_word_is_found_in_the_whole_input_only(
    path: str, lite: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not lite:
        monkeypatch.setattr(inputs, "_has_lite_input", lambda source: False)
    # not in an output, not in a step's input; any case; in any turn of a multi-turn input
    assert _rows(path, "vercel") == {0, 2}
    assert _rows(path, '"pricing page"') == {0}
    assert _rows(path, "site*pricing") == {0}
    assert _rows(path, "nowhere") == set()


def test_runs_the_caller_knows_about_are_not_read(path: str) -> None:
    assert _rows(path, "vercel", skip=lambda s, i: i == 0) == {2}


def test_a_word_is_known_once_searched_and_a_stopped_search_keeps_nothing(path: str) -> None:
    ws = open_paths([path])
    for _ in ws.scan():
        pass
    (word,) = parse("vercel").words
    found = InputWords()
    assert not found.searched(word, ws.sources)
    assert found.rows(0, word) is None
    found.search(ws.sources, word, lambda: False)
    assert found.searched(word, ws.sources)
    stopped = InputWords()
    assert not stopped.search(ws.sources, word, lambda: True)  # stopped: nothing kept
    assert stopped.rows(0, word) is None
