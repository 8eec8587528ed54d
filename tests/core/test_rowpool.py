"""Run-list rows decoded on every core (msgspec, worker processes) are the rows the ordinary
read makes, for every record shape, odd ones included, and for the real samples."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.formats.acp.builders import capture, step_tool, summary, trials, write_jsonl
from tests.helpers.ui import capture_fixture, trials_fixture
from tests.helpers.workspace import open_paths
from tests.samples.locate import acp_captures
from trajtui.cli import cli
from trajtui.core.jsonl import rowpool
from trajtui.core.jsonl.source import JsonlSource
from trajtui.core.source import Entry


def _source(path: Path) -> JsonlSource:
    ws = open_paths([str(path)])
    (source,) = ws.sources
    assert isinstance(source, JsonlSource)
    for _ in source.scan():
        pass
    return source


def _ordinary(path: Path) -> tuple[list[Entry], list[str]]:
    source = _source(path)
    entries = [source.entry(i) for i in range(len(source))]
    return entries, [str(p) for p in source.problems()]


def _filled(path: Path) -> tuple[list[Entry], list[str], int]:
    """Entries through a filler, problems, and how many rows the workers made."""
    source = _source(path)
    filler = source.filler()
    assert filler is not None
    entries: list[Entry] = []
    made = 0
    for first, rows in filler.fill(len(source)):
        made += sum(row is not None for row in rows)
        entries.extend(source.take(first + k, row) for k, row in enumerate(rows))
    filler.close()
    return entries, [str(p) for p in source.problems()], made


def odd_records(directory: Path) -> Path:
    """Records the lite decoding must hand back to the ordinary read, among plain ones."""
    path = directory / "odd.jsonl"
    good = [capture(f"ok-{i}") for i in range(4)]
    lines = [json.dumps(r) for r in good[:2]]
    lines.append('{"id": "bad-json", "trajectory": [}')
    lines.append(json.dumps(capture("steps-not-objects", ["just a string", 3])))
    lines.append(json.dumps(capture("score-text", score="high")))  # type: ignore[arg-type]
    lines.append(json.dumps({"id": "no-trajectory", "input": "q"}))
    lines.append(json.dumps({"input": "no id", "trajectory": []}))
    lines.append(json.dumps(capture("timed-out", metadata={"timedOut": True})))
    lines.append(json.dumps(capture("nan-ish", extra_field=1e308)))
    raw = json.dumps(capture("bad-utf8", note="XX")).encode().replace(b"XX", b"\xff\xfe")
    lines.extend(json.dumps(r) for r in good[2:])
    lines.append('{"id": "dup", "trajectory": [], "id": "dup-last"}')
    data = "\n".join(lines).encode() + b"\n" + raw + b"\n"
    path.write_bytes(data)
    return path


def test_lite_rows_are_the_ordinary_rows_of_odd_records(tmp_path: Path, workers: None) -> None:
    path = odd_records(tmp_path)
    ordinary, problems = _ordinary(path)
    filled, filled_problems, made = _filled(path)
    assert filled == ordinary
    assert filled_problems == problems
    # the plain records were made by the workers; the odd ones read here
    assert 0 < made < len(ordinary)
    warned = [p for p in filled_problems if "invalid UTF-8" in p]
    assert warned, filled_problems  # the bad bytes sit in a field the row does not need


@pytest.mark.parametrize("build", [capture_fixture, trials_fixture])
def test_lite_rows_of_each_format(tmp_path: Path, workers: None, build: object) -> None:
    path = build(tmp_path)  # type: ignore[operator]
    ordinary, problems = _ordinary(path)
    filled, filled_problems, made = _filled(path)
    assert filled == ordinary and filled_problems == problems and made > 0


def test_lite_rows_of_summary_and_trials_records(tmp_path: Path, workers: None) -> None:
    s = write_jsonl(
        tmp_path / "s.jsonl", [summary("s-1", ["WebSearch", "Read"]), summary("s-2", [])]
    )
    t = write_jsonl(
        tmp_path / "t.jsonl",
        [trials("t-1", [True, False, True]), trials("t-2", [False, False])],
    )
    for path in (s, t):
        ordinary, _ = _ordinary(path)
        filled, _, made = _filled(path)
        assert filled == ordinary and made == len(ordinary)
    rows, _, _ = _filled(s)
    assert [(r.ref, r.tool_calls) for r in rows] == [("s-1", 2), ("s-2", 0)]  # type: ignore[union-attr]


def test_tool_calls_counted_by_the_workers(tmp_path: Path, workers: None) -> None:
    steps = [
        step_tool("Read", "pending", 1),
        step_tool("Read", "completed", 2),
        step_tool("Bash", "pending", 3),
        step_tool("Bash", "failed", 4),
        step_tool("Grep", "completed", 5),
    ]
    path = write_jsonl(tmp_path / "c.jsonl", [capture("calls", steps)])
    (row,), _, made = _filled(path)
    assert made == 1
    assert (row.tool_calls, row.failed_tool_calls, row.steps) == (3, 1, 5)  # type: ignore[union-attr]


def test_ls_through_the_workers_prints_what_it_printed_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = odd_records(tmp_path)
    runner = CliRunner()
    plain = runner.invoke(cli, ["ls", "--json", str(path)])
    monkeypatch.setattr(rowpool, "PARALLEL_FROM", 0)
    monkeypatch.setattr(rowpool, "SMALL_RECORD", 0)
    monkeypatch.setattr(rowpool, "BATCH_RECORDS", 2)
    parallel = runner.invoke(cli, ["ls", "--json", str(path)])
    assert parallel.output == plain.output
    assert parallel.exit_code == plain.exit_code


@pytest.mark.parametrize("path", acp_captures(), ids=lambda p: p.name)
def test_lite_rows_of_the_real_samples(path: Path, workers: None) -> None:
    ordinary, problems = _ordinary(path)
    filled, filled_problems, made = _filled(path)
    assert filled == ordinary and filled_problems == problems
    assert made > 0


async def test_the_tui_reads_rows_through_the_workers(tmp_path: Path, workers: None) -> None:
    """Inside a running TUI (whose standard error is Textual's stand-in) the workers start,
    and the rows they make are the ones listed."""
    from tests.helpers.ui import listed, running

    rowpool.shutdown()  # a pool started outside the TUI would hide the problem
    # more runs than the screen shows: those it shows are read first, the rest by workers
    path = write_jsonl(tmp_path / "many.jsonl", [capture(f"run-{i:02d}") for i in range(60)])
    ordinary, _ = _ordinary(path)
    async with running([str(path)]) as (_pilot, _app, screen):
        assert rowpool._pool is not None
        shown = [screen.ws.sources[0].peek(i) for i in range(len(screen.ws.sources[0]))]
        assert shown == ordinary
        assert len(listed(screen)) == len(ordinary)
    rowpool.shutdown()


def _run_script(directory: Path, text: str) -> str:
    """Run ``text`` as a program of its own (a fresh interpreter: its threads, its pool);
    its standard output. It must exit 0."""
    import subprocess
    import sys

    script = directory / "prog.py"
    script.write_text(text)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def test_worker_processes_do_not_run_the_program_again(tmp_path: Path) -> None:
    """Spawned workers re-import ``__main__`` from its file unless told not to: each worker
    would run the whole CLI's imports (or, for a script, the script) before decoding a row.
    Every worker must start without it."""
    marks = tmp_path / "marks"
    _run_script(
        tmp_path,
        "import os\n"
        f"open({str(marks)!r}, 'a').write(str(os.getpid()) + '\\n')\n"
        "from trajtui.core.jsonl import rowpool\n"
        "if __name__ == '__main__':\n"
        "    workers = rowpool.pool()\n"
        "    assert workers is not None\n"
        "    for f in [workers.submit(abs, -i) for i in range(8)]:\n"
        "        f.result()\n"
        "    rowpool.shutdown()\n",
    )
    assert len(marks.read_text().split()) == 1  # the program ran once: in the parent


def _respelled(directory: Path) -> Path:
    """Records whose line starts with one id and spells the key again later: the parser
    (and every reader here) takes the last. Refs: a, a#2, c, a#3, b."""
    path = directory / "respelled.jsonl"
    lines = [
        json.dumps(capture("a")),
        json.dumps(capture("b"))[:-1] + ', "id": "a"}',
        json.dumps(capture("c")),
        json.dumps(capture("a")),
        json.dumps(capture("b")),
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize("parallel", [False, True], ids=["in-thread", "workers"])
def test_ls_names_a_respelled_id_as_the_parser_reads_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parallel: bool
) -> None:
    """``ls`` takes keys from line heads and checks them as it decodes each row: a record
    that spells its id twice is named by the last, and the records after it too."""
    path = _respelled(tmp_path)
    if parallel:
        monkeypatch.setattr(rowpool, "PARALLEL_FROM", 0)
        monkeypatch.setattr(rowpool, "SMALL_RECORD", 0)
        monkeypatch.setattr(rowpool, "BATCH_RECORDS", 2)
    runner = CliRunner()
    for _ in range(2):  # the second from the index cache the first saved
        out = runner.invoke(cli, ["ls", "--json", str(path)])
        assert out.exit_code == 0, out.output
        refs = [json.loads(line)["ref"] for line in out.output.splitlines()]
        assert refs == ["a", "a#2", "c", "a#3", "b"]
    shown = runner.invoke(cli, ["show", "--json", str(path), "a#2"])
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.output)["ref"] == "a#2"


def test_steps_read_as_decoded_make_the_ordinary_rows(tmp_path: Path, workers: None) -> None:
    """Steps stay msgspec structs for a row (no dict each): tool calls, failures and names
    come out as from the whole record, however odd each step's fields are, in a capture
    and in each trial of a trials record."""
    odd_steps = [
        {"type": "tool_call", "status": "pending"},  # no name
        {"type": "tool_call", "name": 7, "status": "completed"},  # a name that is no text
        {"type": "tool_call", "name": "", "status": "failed"},
        {"type": "tool_call", "name": "toolu_01abcdef", "status": "completed"},  # a call id
        {"type": "tool_call", "name": "Read"},  # no status: counted once
        {"type": ["tool_call"], "name": "Bash", "status": "failed"},  # not a type word
        {"type": "message", "name": "Grep", "status": "failed"},  # not a call
        {},
        step_tool("Edit", "in_progress", 9),
        step_tool("Edit", "failed", 10),
    ]
    record = capture("odd-steps", odd_steps)
    tried = trials("odd-trials", [True, False])
    for trial in tried["trials"]:
        trial["trajectory"] = odd_steps
    rows = []
    for name, rec in (("capture", record), ("trials", tried)):
        path = write_jsonl(tmp_path / f"{name}.jsonl", [rec])
        ordinary, _ = _ordinary(path)
        filled, _, made = _filled(path)
        assert made == 1 and filled == ordinary
        rows.extend(filled)
    counts = [(r.tool_calls, r.failed_tool_calls, r.tools) for r in rows]  # type: ignore[union-attr]
    # opened twice and completed once (no name), an empty name failed, a call id, a call
    # recorded once, an opened Edit that failed; the odd type, the message and {} are none
    assert counts == [(5, 2, ("Edit", "Read")), (10, 4, ("Edit", "Read"))]


@pytest.mark.parametrize("threads", [False, True], ids=["one-thread", "threads"])
def test_workers_are_forked_only_from_a_process_of_one_thread(
    tmp_path: Path, threads: bool
) -> None:
    """A command line (one thread) forks its workers, ready at once; a process with other
    threads (the TUI) spawns them, since a forked copy of a running thread is unsafe.
    Either way they make the rows."""
    path = capture_fixture(tmp_path)
    out = _run_script(
        tmp_path,
        "import threading, time\n"
        "from trajtui.core.jsonl import rowpool\n"
        "from trajtui.core.workspace import open_paths\n"
        "from trajtui.formats.registry import formats\n"
        "if __name__ == '__main__':\n"
        f"    if {threads}:\n"
        "        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
        f"    (source,) = open_paths([{str(path)!r}], formats()).sources\n"
        "    for _ in source.scan():\n"
        "        pass\n"
        "    rowpool.PARALLEL_FROM = rowpool.SMALL_RECORD = 0\n"
        "    filler = source.filler()\n"
        "    rows = [r for _, batch in filler.fill(len(source)) for r in batch]\n"
        "    print(rowpool._pool._mp_context.get_start_method())\n"
        "    print(sum(r is not None for r in rows))\n"
        "    import os\n"
        "    print(os.nice(0), rowpool._pool.submit(os.nice, 0).result())\n"
        "    rowpool.shutdown()\n",
    )
    method, made, mine, workers = out.split()
    assert method == ("spawn" if threads else "fork")
    assert int(made) == 4  # every run (the fifth line is a bad one, read the ordinary way)
    # the workers give way to the process they work for (its UI thread answering keys)
    assert int(workers) == min(19, int(mine) + 10)


def test_a_command_lines_workers_work_at_its_own_priority(tmp_path: Path) -> None:
    """``ls``, ``stats``, ``export`` read rows with nothing else to do: on a busy machine,
    workers of a lower priority would wait behind every other process while the user waits
    for the answer. Only the TUI's workers give way."""
    path = capture_fixture(tmp_path)
    out = _run_script(
        tmp_path,
        "import os\n"
        "from trajtui.core.jsonl import rowpool\n"
        "from trajtui.core.rows import read_rows\n"
        "from trajtui.core.workspace import open_paths\n"
        "from trajtui.formats.registry import formats\n"
        "if __name__ == '__main__':\n"
        "    rowpool.PARALLEL_FROM = rowpool.SMALL_RECORD = rowpool.PARALLEL_BYTES = 0\n"
        f"    ws = open_paths([{str(path)!r}], formats())\n"
        "    print(sum(1 for _ in read_rows(ws.sources)))\n"
        "    print(os.nice(0), rowpool._pool.submit(os.nice, 0).result())\n"
        "    rowpool.shutdown()\n",
    )
    rows, mine, workers = out.split()
    assert int(rows) == 5
    assert int(workers) == int(mine)


def test_a_caller_with_other_work_does_not_wait_for_the_workers_to_start(
    tmp_path: Path, workers: None
) -> None:
    """Starting the workers takes a few tenths of a second: a filler asked without waiting
    (the TUI's loader, which has a file to index meanwhile) hands out nothing until they
    run, and then their rows."""
    import time

    rowpool.shutdown()
    path = capture_fixture(tmp_path)
    source = _source(path)
    filler = source.filler()
    assert filler is not None
    try:
        early = list(filler.fill(len(source), wait=False))
        if rowpool.cores() > 1:  # they are still starting: nothing was waited for
            assert early == [] and filler.done == 0 and rowpool._pool is None
        deadline = time.monotonic() + 60
        while not rowpool.ready() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert rowpool.ready()
        rows = [r for _, batch in filler.fill(len(source)) for r in batch]
        assert [r.ref for r in rows if r is not None] == [
            "websearch-1",
            "websearch-2",
            "websearch-3",
            "websearch-4",
        ]
    finally:
        filler.close()
        rowpool.shutdown()


def test_small_records_are_read_here_and_big_ones_by_workers(tmp_path: Path) -> None:
    """A small record decodes in about the time its row takes to come back from a worker:
    a file of small records is read here however many it has; one of big records goes to
    the workers."""
    small = write_jsonl(tmp_path / "small.jsonl", [capture(f"s-{i}") for i in range(3000)])
    big = write_jsonl(
        tmp_path / "big.jsonl", [capture(f"b-{i}", input="x" * 4000) for i in range(3000)]
    )
    assert rowpool._worth_workers(_source(big).index, 3000)
    assert not rowpool._worth_workers(_source(small).index, 3000)


@pytest.mark.parametrize(
    ("records", "threads", "forked"),
    [("big", False, True), ("small", False, False), ("big", True, False)],
)
def test_the_tui_command_forks_its_workers_before_it_starts(
    tmp_path: Path, records: str, threads: bool, forked: bool
) -> None:
    """``trajtui FILE`` forks the row workers before the TUI starts its threads when the
    file needs them (big, of records that are not small); never once threads run."""
    size = 4000 if records == "big" else 10
    path = write_jsonl(
        tmp_path / "f.jsonl", [capture(f"r-{i}", input="x" * size) for i in range(200)]
    )
    out = _run_script(
        tmp_path,
        "import threading, time\n"
        "from trajtui.core.jsonl import rowpool\n"
        "if __name__ == '__main__':\n"
        f"    if {threads}:\n"
        "        threading.Thread(target=time.sleep, args=(30,), daemon=True).start()\n"
        "    rowpool.PARALLEL_BYTES = 1000\n"
        f"    rowpool.start_early([{str(tmp_path)!r}, {str(tmp_path / 'nothing')!r}])\n"
        "    assert rowpool._pool is None  # a directory, a missing file: nothing to read\n"
        f"    rowpool.start_early([{str(path)!r}])\n"
        "    print(rowpool._pool is not None and rowpool._pool._mp_context.get_start_method())\n"
        "    rowpool.shutdown()\n",
    )
    assert out.split() == (["fork"] if forked else ["False"])
