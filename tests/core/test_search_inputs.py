"""Which runs hold a run-list filter's word in their whole input (past the 200 characters
of the title): read from each record's lite fields, or from the whole run."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.helpers.workspace import open_paths
from trajtui.core.jsonl.source import JsonlSource
from trajtui.core.query import parse
from trajtui.core.search.inputs import InputWords

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
        monkeypatch.setattr(JsonlSource, "lite_input", lambda self: None)  # cannot: read whole
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


def test_a_grown_file_is_searched_from_where_the_last_search_ended(
    path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = open_paths([path])
    for _ in ws.scan():
        pass
    (word,) = parse("vercel").words
    found = InputWords()
    found.search(ws.sources, word, lambda: False)
    assert found.rows(0, word) == {0, 2}
    with open(path, "a") as f:  # a run still going writes two more records
        f.write(json.dumps(capture("late-5", [], input=PREAMBLE + " vercel again")) + "\n")
        f.write(json.dumps(capture("late-6", [], input="nothing here")) + "\n")
    for _ in ws.sources[0].scan():
        pass
    assert not found.searched(word, ws.sources)
    source = ws.sources[0]
    assert isinstance(source, JsonlSource)
    fmt: Any = type(source.fmt)
    read: list[str] = []
    text_of = fmt.input_text

    def spy(self: object, obj: dict[str, object]) -> str:
        read.append(str(obj["id"]))
        return str(text_of(self, obj))

    monkeypatch.setattr(fmt, "input_text", spy)
    found.search(ws.sources, word, lambda: False)
    assert found.rows(0, word) == {0, 2, 4}
    assert read == ["step-4", "late-5"]  # the last one searched before, then the new ones
