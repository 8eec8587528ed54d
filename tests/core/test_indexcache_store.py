"""Where the index cache keeps its entries and when: private files under
``$XDG_CACHE_HOME/trajtui``, never inside an opened path; off when turned off; the least
recently used beyond the cap; a growing file saved again only after a while; a code fingerprint
that covers the readers."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from tests.core.cached import Reads, entry_file, open_source, rec, seen
from tests.formats.acp.builders import capture, summary, write_jsonl
from tests.helpers.workspace import open_paths
from trajtui.core.jsonl import indexcache

# -- where, how big, and when not ------------------------------------------------------------


def test_entries_are_private_files_under_xdg_cache_home(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    p = write_jsonl(data / "runs.jsonl", [capture("a")])
    open_source(p)
    where = Path(os.environ["XDG_CACHE_HOME"]) / "trajtui" / "index"
    (entry,) = where.iterdir()
    assert stat.S_IMODE(where.stat().st_mode) == 0o700
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert [e.source for e in indexcache.entries()] == [str(p.resolve())]
    assert sorted(os.listdir(data)) == ["runs.jsonl"]  # nothing beside the data


def test_nothing_is_written_inside_an_opened_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"  # `trajtui ~`: the cache directory is inside what is opened
    home.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))
    write_jsonl(home / "runs.jsonl", [capture("a"), capture("b")])
    ws = open_paths([str(home)])
    (source,) = ws.sources
    for _ in source.scan():
        pass
    for i in range(len(source)):
        source.entry(i)
    assert not source.save_index()
    assert not (home / ".cache").exists()


@pytest.mark.parametrize("off", ["--no-cache", "cap 0"])
def test_a_cache_turned_off_is_neither_read_nor_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, off: str
) -> None:
    p = write_jsonl(tmp_path / "runs.jsonl", [capture("a"), capture("b")])
    open_source(p)
    if off == "cap 0":
        monkeypatch.setenv(indexcache.ENV_MAX_MB, "0")
    else:
        indexcache.configure(enabled=False)
    reads = Reads(monkeypatch)
    entry_file(p).unlink()
    assert seen(open_source(p))["refs"] == ["a", "b"] and reads.decoded == 2
    assert not entry_file(p).exists()


def test_least_recently_used_entries_go_beyond_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(indexcache.ENV_MAX_MB, "1")
    files = []
    for name in "abc":  # entries of about 400 kB each: two fit in 1 MB, not three
        files.append(
            write_jsonl(
                tmp_path / f"{name}.jsonl",
                [summary(f"{name}-{i:05}", ["Read"]) for i in range(4000)],
            )
        )
    a, b, c = files
    open_source(a)
    time.sleep(0.02)
    open_source(b)
    size = entry_file(b).stat().st_size
    assert 300_000 < size < 500_000
    time.sleep(0.02)
    reads = Reads(monkeypatch)
    open_source(a)  # used again: now the most recent
    assert reads.decoded == 0
    time.sleep(0.02)
    open_source(c)  # over the cap: b, the least recently used, goes
    assert [Path(e.source or "").name for e in indexcache.entries()] == ["c.jsonl", "a.jsonl"]
    assert sum(e.size for e in indexcache.entries()) <= 1 << 20


def test_an_entry_bigger_than_the_cap_is_not_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(indexcache.ENV_MAX_MB, "1")
    p = write_jsonl(tmp_path / "big.jsonl", [summary(f"r-{i:06}", ["Read"]) for i in range(12000)])
    open_source(p)
    assert indexcache.entries() == []


def test_an_unusable_cap_is_named_and_the_default_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(indexcache.ENV_MAX_MB, "lots")
    cap, where = indexcache.limit()
    assert cap == indexcache.DEFAULT_MAX_MB << 20
    assert "TRAJTUI_CACHE_MAX_MB='lots'" in where and "ignored" in where


def test_clear_removes_every_entry(tmp_path: Path) -> None:
    for name in "ab":
        open_source(write_jsonl(tmp_path / f"{name}.jsonl", [capture(name)]))
    assert len(indexcache.entries()) == 2
    removed, freed = indexcache.clear()
    assert removed == 2 and freed > 0 and indexcache.entries() == []


def test_a_growing_file_is_saved_again_only_after_a_while(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = write_jsonl(tmp_path / "live.jsonl", [capture("a")])
    source = open_source(p)
    with p.open("ab") as f:
        f.write(rec(capture("b")) + b"\n")
    for _ in source.scan():  # followed: the append is read
        pass
    source.entry(1)
    assert not source.save_index()  # saved a moment ago: not rewritten for every append
    monkeypatch.setattr(indexcache, "RESAVE_AFTER", 0.0)
    assert source.save_index()
    assert [e.records for e in indexcache.entries()] == [2]


def test_the_code_fingerprint_covers_the_formats_readers() -> None:
    """Rows cached by an older reader are not trusted: the fingerprint covered only
    core/jsonl after the core was grouped, so a changed format reader (a Claude Code title,
    say) kept serving the old rows from the cache."""
    from trajtui.core.jsonl import indexcache as ic

    covered = {p.relative_to(ic.PACKAGE).as_posix() for p, _ in ic.fingerprinted()}
    assert "formats/claude_code/fold.py" in covered
    assert "formats/acp/__init__.py" in covered
    assert "core/model.py" in covered
