"""One remote object's mirror shared by several processes (issue 27, section 4): two
sessions filling it at once, one killed while it fills, an object changed under a reader of
the old one, a server that names no version of what it sends. Real processes against an
HTTP server on 127.0.0.1 that counts what it sends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.cli.test_remote import refs, trajtui
from tests.helpers.servers import HTTP
from tests.helpers.shapes import tool_calls_capture


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "trajtui", *args]


def big_capture(served: HTTP, runs: int = 20_000) -> tuple[Path, list[str]]:
    line = tool_calls_capture(Path(served.root) / "one.jsonl").read_bytes().splitlines()[0]
    path = Path(served.root) / "big.jsonl"
    with path.open("wb") as f:
        for i in range(runs):
            f.write(line.replace(b'"calls-1"', f'"run-{i}"'.encode()) + b"\n")
    return path, [f"run-{i}" for i in range(runs)]


def test_two_processes_filling_one_mirror_list_every_run_each_byte_fetched_once(
    served: HTTP,
) -> None:
    path, expected = big_capture(served)
    served.chunk, served.pause = 256 << 10, 0.002  # (a link slow enough for both to overlap)
    url = f"{served.url}/big.jsonl"
    both = [
        subprocess.Popen(command("ls", "--json", url), stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outs = [p.communicate(timeout=120)[0] for p in both]
    assert [p.returncode for p in both] == [0, 0]
    assert refs(outs[0]) == refs(outs[1]) == expected
    assert served.sent == path.stat().st_size  # each byte fetched once, by one of them


def test_a_process_killed_while_it_fills_leaves_a_mirror_the_next_one_trusts_rightly(
    served: HTTP,
) -> None:
    path, expected = big_capture(served)
    size = path.stat().st_size
    served.chunk, served.pause = 64 << 10, 0.01
    url = f"{served.url}/big.jsonl"
    first = subprocess.Popen(command("ls", "--json", url), stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while served.sent < size // 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    os.kill(first.pid, signal.SIGKILL)  # (mid-fill: a range half sent, blocks half written)
    first.wait(10)
    assert size // 3 <= served.sent < size
    before = served.sent
    served.pause = 0.0
    again = trajtui("ls", "--json", url)
    assert again.returncode == 0, again.stderr
    assert refs(again.stdout) == expected
    assert served.sent - before < size  # what it had finished is not fetched again
    assert served.sent <= size + (9 << 20)  # (at most its read-ahead in flight, again)


def test_a_changed_object_does_not_change_under_a_reader_of_the_old_one(served: HTTP) -> None:
    """A session still reading the old object reads the old bytes, all of them, while
    another opens the new one (its mirror is another file)."""
    from trajtui.core.io import openfiles, remote

    path, _ = big_capture(served, runs=4_000)
    url = f"{served.url}/big.jsonl"
    old = path.read_bytes()
    opened = remote.open_url(url)
    assert opened.path is not None
    half = len(old) // 2
    fd = os.open(opened.path, os.O_RDONLY)
    try:
        assert openfiles.pread_full(fd, half, 0) == old[:half]
    finally:
        os.close(fd)
    new = old.replace(b'"run-', b'"new-')
    assert len(new) == len(old)
    path.write_bytes(new)
    later = trajtui("ls", "--json", url)  # another session opens the changed object
    assert refs(later.stdout)[:2] == ["new-0", "new-1"], later.stderr
    fd = os.open(opened.path, os.O_RDONLY)  # (a reader of the old one opens its file again)
    try:
        assert openfiles.pread_full(fd, half, 0) == old[:half]
    finally:
        os.close(fd)


def test_blocks_of_a_changed_object_are_never_the_new_versions(served: HTTP) -> None:
    """A reader of the old version that reads on after the object changed (same size, a new
    ETag) gets an error, not the new version's bytes in the old one's mirror; and the
    next open reads the new version whole."""
    from trajtui.core.io import openfiles, remote

    path, _ = big_capture(served, runs=4_000)
    url = f"{served.url}/big.jsonl"
    old = path.read_bytes()
    opened = remote.open_url(url)
    assert opened.path is not None
    fd = os.open(opened.path, os.O_RDONLY)
    try:
        assert openfiles.pread_full(fd, 4096, 0) == old[:4096]
        new = old.replace(b'"run-', b'"new-')
        path.write_bytes(new)
        try:
            tail = openfiles.pread_full(fd, 4096, len(old) - 4096)
        except OSError as err:
            assert "changed since it was opened" in str(err)
        else:
            assert tail == old[-4096:], "the new version's bytes in the old one's mirror"
    finally:
        os.close(fd)
    later = trajtui("ls", "--json", url)
    assert refs(later.stdout)[-1] == "new-3999", later.stderr


_FAILING_SESSION = """
import sys, time
from trajtui.core.io import remote
real = remote._fetch_whole
class Failing:
    def cat(self, paths, on_error="return"):
        time.sleep(1.5)
        return {p: ConnectionResetError("reset") for p in paths}
remote._fetch_whole = lambda fs, small, out, url: real(Failing(), small, out, url)
opened = remote.open_url(sys.argv[1])
print(opened.path is not None, opened.problems, flush=True)
"""


def test_a_small_object_one_session_fails_to_fetch_stays_for_the_others(served: HTTP) -> None:
    """Two sessions list the same objects (one tree of names for both): one whose fetch
    of a small object fails leaves it in place, to be read by its blocks, and the other
    reads it all the same."""
    from trajtui.core.io import remote

    path = tool_calls_capture(Path(served.root) / "cap.jsonl")
    url = f"{served.url}/cap.jsonl"
    failing = subprocess.Popen(
        [sys.executable, "-c", _FAILING_SESSION, url], stdout=subprocess.PIPE, text=True
    )
    time.sleep(0.8)  # (it has listed the object and holds the tree, and is fetching)
    mine = remote.open_url(url)
    out, _ = failing.communicate(timeout=60)
    assert out.strip() == "True []"  # opened all the same: its blocks are read on demand
    assert mine.path is not None and Path(mine.path).read_bytes() == path.read_bytes()


def test_an_object_served_without_validators_is_never_shown_stale(served: HTTP) -> None:
    """No ETag, no Last-Modified: a change that keeps the size shows on the next open."""
    served.validators = False
    path = tool_calls_capture(Path(served.root) / "cap.jsonl")
    url = f"{served.url}/cap.jsonl"
    assert refs(trajtui("ls", "--json", url).stdout) == ["calls-1", "flagged"]
    data = path.read_bytes()
    path.write_bytes(data.replace(b'"calls-1"', b'"calls-2"'))
    assert path.stat().st_size == len(data)
    again = trajtui("ls", "--json", url)
    assert refs(again.stdout) == ["calls-2", "flagged"], again.stderr


def test_a_note_on_a_url_outlives_the_mirror_cache(served: HTTP) -> None:
    """Notes are kept for the URL (as the screen names the source), not the mirror: the
    cache emptied, they are still there; and they stay the URL's, not a local copy's."""
    from trajtui.core.io import remote

    path = tool_calls_capture(Path(served.root) / "cap.jsonl")
    url = f"{served.url}/cap.jsonl"
    added = trajtui("notes", url, "calls-1", "--note", "looked at", "--bookmark")
    assert added.returncode == 0, added.stderr
    listed = trajtui("notes", "--all")
    assert listed.stdout.startswith(url), listed.stdout  # the source named by its URL
    import shutil

    shutil.rmtree(remote.cache_root())
    again = trajtui("notes", url)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines() == ["calls-1  ★ looked at"]
    copy = Path(served.root).parent / "copy.jsonl"
    copy.write_bytes(path.read_bytes())
    assert trajtui("notes", str(copy)).returncode == 1  # (a copy does not take them)
