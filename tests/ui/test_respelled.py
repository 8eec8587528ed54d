"""The TUI takes each record's key from the head of its line while indexing (every key is
checked as its row is read): a record that spells its key again later in the line (the
parser keeps the last) is still named as the parser reads it, and ``--goto`` never lands on
the wrong record meanwhile."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_rowpool import _respelled
from tests.helpers.ui import listed, main_screen, running
from tests.helpers.workspace import open_paths
from trajtui.core.jsonl.source import JsonlSource


def test_a_found_record_is_checked_before_it_is_named(tmp_path: Path) -> None:
    path = _respelled(tmp_path)
    source = open_paths([str(path)]).sources[0]
    assert isinstance(source, JsonlSource)
    source.defer_key_checks(correct=False)
    for _ in source.scan():
        pass
    assert source.find("c") == 2  # its line's head is its key
    assert source.misread_key is None
    assert source.find("b") is None  # record 1 starts with "b" and is "a" to the parser
    assert source.misread_key == 1


def test_corrected_in_place_when_asked(tmp_path: Path) -> None:
    path = _respelled(tmp_path)
    source = open_paths([str(path)]).sources[0]
    assert isinstance(source, JsonlSource)
    source.defer_key_checks()
    for _ in source.scan():
        pass
    assert source.find("b") == 4
    assert [source.ref_of(i) for i in range(len(source))] == ["a", "a#2", "c", "a#3", "b"]


async def test_the_run_list_names_a_respelled_id_as_the_parser_reads_it(tmp_path: Path) -> None:
    path = _respelled(tmp_path)
    async with running([str(path)], notifications=True) as (pilot, app, screen):
        screen = main_screen(app)  # a new one: the file was read again
        assert listed(screen) == ["a", "a#2", "c", "a#3", "b"]
        notices = [n.message for n in app.notices]
        assert any(f"{path}:2: a record spells its key twice" in n for n in notices), notices


@pytest.mark.parametrize(("ref", "index"), [("b", 4), ("a#2", 1), ("a#3", 3)])
async def test_goto_lands_on_the_record_the_parser_names(
    tmp_path: Path, ref: str, index: int
) -> None:
    path = _respelled(tmp_path)
    async with running([str(path)], goto=ref) as (pilot, app, screen):
        screen = main_screen(app)
        assert screen.run is not None
        assert (screen.run.ref, screen.run.summary.index) == (ref, index)
