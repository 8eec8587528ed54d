"""Claude Code sessions: what the run list, show, grep, a query and stats say of the
fixtures (builders.py), versions drifting, unknown lines kept, broken and half-written
lines named PATH:LINE."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.formats.claude_code import builders as b
from tests.formats.claude_code import jqcheck
from tests.helpers import forked


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return forked.run(
        [
            sys.executable,
            "-m",
            "trajtui",
            *args,
            *(["--no-cache"] if args[0] in ("ls", "show") else []),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def projects(tmp_path: Path) -> Path:
    return b.projects(tmp_path)


def test_ls_json_counts_match_the_files(projects: Path) -> None:
    out = _cli("ls", str(projects), "--json")
    assert out.returncode == 0, out.stderr
    rows = {r["ref"]: r for r in map(json.loads, out.stdout.splitlines())}
    main = rows[b.S]
    assert (main["title"], main["tool_calls"], main["tool_errors"]) == (
        "Fix the failing build",
        3,
        1,
    )
    # usage once per API response (msg_01's four lines repeat it): 110+200+300 in, 40+30+20 out
    assert (main["tokens_in"], main["tokens_out"]) == (610, 90)
    assert main["metadata"]["turns"] == "3" and main["metadata"]["cwd"] == "/home/u/src/app"
    assert main["cost"] is None  # no cost-state line: no price guessed
    old = rows[b.OS]  # 1.0: streaming snapshots, the last line of an id has the final usage
    assert (old["tokens_in"], old["tokens_out"], old["tool_errors"]) == (25, 176, 0)
    assert old["metadata"]["version"] == "1.0.98"
    assert rows[f"{b.S}/agent-a5f00d1"]["title"] == "Look at main.c"


def test_show_pairs_results_by_id_and_folds_lines_that_are_not_messages(projects: Path) -> None:
    out = _cli("show", str(projects), b.S)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "Bash: make" in text and "failed" in text
    assert "Read: /home/u/src/app/Makefile" in text and "completed" in text
    assert "2 lines not messages (queue-operation … file-history-snapshot)" in text
    assert "1 line not messages (brand-new-line-type)" in text  # kept, never an error
    assert "compacted (manual, 2,565 tokens before)" in text
    task = _cli("show", str(projects), f"{b.S}/step-8")
    assert f"{b.S}/agent-a5f00d1" in task.stdout  # the agent call names its subagent's run


def test_grep_a_query_and_stats(projects: Path) -> None:
    grep = _cli("grep", str(projects), "Exit code 2")
    assert grep.returncode == 0 and f"{b.S}/step-5" in grep.stdout
    where = _cli("ls", str(projects), "--where", "tool:Bash tool_errors>0")
    assert where.returncode == 0
    assert b.S in where.stdout and b.OS not in where.stdout
    stats = _cli("stats", str(projects), "-f", "json")
    assert stats.returncode == 0, stats.stderr
    first = json.loads(stats.stdout.splitlines()[0])
    assert "Bash" in json.dumps(first)


def test_a_broken_line_and_a_half_written_last_line_are_named(tmp_path: Path) -> None:
    lines = b.session_21()
    path = b.write_lines(
        tmp_path / "p" / f"{b.SID}.jsonl", lines[:5], tail='{"broken\n{"type": "user", "mess'
    )
    out = _cli("ls", str(path), "--json")
    assert out.returncode == 0
    assert f"{path}:6: not JSON" in out.stderr
    assert f"{path}:7: truncated last line" in out.stderr
    row = json.loads(out.stdout)
    assert row["title"] == "Fix the failing build" and row["status"] == "open"


def test_other_formats_files_are_not_claimed(tmp_path: Path) -> None:
    stream = tmp_path / "stream.jsonl"  # claude -p --output-format stream-json: another format
    stream.write_text(
        json.dumps(
            {"type": "system", "subtype": "init", "session_id": "s", "claude_code_version": "2.1.3"}
        )
        + "\n"
        + json.dumps({"type": "result", "session_id": "s", "total_cost_usd": 0.1})
        + "\n"
    )
    out = _cli("ls", str(stream), "--json")
    assert "claude-code" not in out.stdout


def test_a_projects_folder_lists_its_sessions_newest_first(projects: Path) -> None:
    # a third session, started before the others, whose name the walk meets first
    early = "00000000-3333-4a2b-9c3d-000000000003"
    lines = [
        json.loads(json.dumps(o).replace("2025-09-01", "2024-05-01")) for o in b.session_10(early)
    ]
    b.write_lines(projects / "-home-u-src-app" / f"{early}.jsonl", lines)
    out = _cli("ls", str(projects), "--json")
    assert out.returncode == 0, out.stderr
    refs = [json.loads(line)["ref"] for line in out.stdout.splitlines()]
    # by start time (2026-01-02, 2025-09-01, 2024-05-01), a subagent after its session
    assert refs == [b.S, f"{b.S}/agent-a5f00d1", b.OS, early[:8]]


def test_a_session_started_with_a_slash_command_is_titled_by_it(tmp_path: Path) -> None:
    """Real 1.0.x sessions open with ``/init`` or a custom command and no words of the user's
    own: their title was empty in the run list and ls."""
    command = (
        "<command-message>init is analyzing your codebase…</command-message>\n"
        "<command-name>/init</command-name>\n<command-args>--fast</command-args>"
    )
    line = {
        **b.env("s-cmd", "1.0.98", "u1", None, "2025-09-01T08:00:00.000Z"),
        "type": "user",
        "message": {"role": "user", "content": command},
    }
    path = b.write_lines(tmp_path / "s-cmd.jsonl", [line])
    out = _cli("ls", "--json", str(path))
    assert out.returncode == 0, out.stderr
    (row,) = [json.loads(x) for x in out.stdout.splitlines()]
    assert row["title"] == "/init --fast"


def test_a_projects_folder_is_one_table_of_sessions_with_short_refs(projects: Path) -> None:
    """``trajtui ls ~/.claude/projects``: one table (it printed a ``# path`` line and a
    header per session file, and refs like ``<id>.jsonl::<id>``), each session's ref the
    first 8 characters of its id, its project the folder's path."""
    out = _cli("ls", str(projects))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert not [line for line in lines if line.startswith("#")]
    assert [line.split()[0] for line in lines] == ["REF", b.S, f"{b.S}/agent-a5f00d1", b.OS]
    assert "PROJECT" in lines[0]
    assert all("/home/u/src/app" in line for line in lines[1:])
    assert "::" not in out.stdout and b.SID not in out.stdout


def test_a_sessions_short_ref_old_refs_and_the_whole_id_all_resolve(projects: Path) -> None:
    # the ref ls printed, the whole id and the file-qualified form earlier versions printed
    for ref in (f"{b.S}/step-2", f"{b.SID}/step-2", f"{b.SID}.jsonl::{b.SID}/step-2"):
        out = _cli("show", str(projects), ref)
        assert out.returncode == 0, (ref, out.stderr)
        assert f"{b.S}/step-2" in out.stdout
    sub = _cli("show", str(projects), f"{b.SID}/agent-a5f00d1")
    assert sub.returncode == 0 and "Look at main.c" in sub.stdout


def test_two_sessions_whose_ids_start_alike_are_told_apart(tmp_path: Path) -> None:
    twin = b.SID[:8] + "-9999-4a2b-9c3d-000000000009"
    root = b.projects(tmp_path)
    b.write_lines(root / "-home-u-src-app" / f"{twin}.jsonl", b.session_10(twin))
    out = _cli("ls", str(root), "--json")
    assert out.returncode == 0, out.stderr
    refs = [json.loads(line)["ref"] for line in out.stdout.splitlines()]
    assert f"{twin}.jsonl::{b.S}" in refs and f"{b.SID}.jsonl::{b.S}" in refs
    assert b.OS in refs  # the others keep their short refs
    for ref in (f"{twin}.jsonl::{b.S}", twin):
        show = _cli("show", str(root), ref)
        assert show.returncode == 0 and "Write the notes" in show.stdout, show.stderr


def test_a_1_0_sessions_subagent_lines_are_its_own_run_not_the_sessions(tmp_path: Path) -> None:
    """Real 1.0.x files write a Task call's subagent into the session's own file
    (``isSidechain: true``): its tool calls, errors, turns and tokens were counted as the
    session's (21 tool calls listed against 13 in the main thread on a real file)."""
    path = b.write_lines(tmp_path / "-home-u-app" / f"{b.SIDE}.jsonl", b.session_10_sidechain())
    out = _cli("ls", str(path.parent), "--json")
    assert out.returncode == 0, out.stderr
    rows = {r["ref"]: r for r in map(json.loads, out.stdout.splitlines())}
    short = b.SIDE[:8]
    assert list(rows) == [short, f"{short}/sidechain"]
    figures = [
        (r["metadata"]["turns"], r["tool_calls"], r["tool_errors"], r["tokens_in"], r["tokens_out"])
        for r in rows.values()
    ]
    # as the fixture's docstring counts them: the main thread, then the subagent's lines
    assert figures == [("3", 2, 1, 100, 21), ("2", 2, 1, 85, 14)]
    assert rows[f"{short}/sidechain"]["title"] == "SUBAGENT: find the config"
    task = _cli("show", str(path), f"{short}/step-4")  # the Task call names its subagent's run
    assert task.returncode == 0 and f"subagent  {short}/sidechain" in task.stdout
    session = _cli("show", str(path), short)
    assert "↳ subagent: 5 lines of its own" in session.stdout
    assert "cat c" not in session.stdout  # the subagent's steps are in its own run
    side = _cli("show", str(path), f"{short}/sidechain")
    assert "Bash: cat c" in side.stdout and "failed" in side.stdout


def test_a_compactions_worker_is_shown_as_the_compaction_it_is(projects: Path) -> None:
    """``agent-acompact-*`` (the parent's sessionId) is Claude Code re-reading the
    conversation to summarise it: listed as that compaction's, named by the session's
    compact boundary, not as a subagent a Task call started."""
    folder = projects / "-home-u-src-app" / b.SID / "subagents"
    b.write_lines(folder / f"agent-{b.COMPACTOR}.jsonl", b.acompact_21())
    worker = f"{b.S}/agent-{b.COMPACTOR}"
    out = _cli("ls", str(projects))
    assert out.returncode == 0, out.stderr
    row = next(line for line in out.stdout.splitlines() if line.startswith(worker))
    assert f"compaction of {b.S}: the conversation re-read to summarise it" in row
    boundary = _cli("show", str(projects), f"{b.S}/step-9")
    assert "compacted (manual" in boundary.stdout
    assert f"compaction worker  {worker}" in boundary.stdout
    shown = _cli("show", str(projects), worker)
    assert "compaction worker: Claude Code re-reads the conversation" in shown.stdout


def test_a_big_1_0_session_without_subagent_lines_lists_no_empty_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 1.0.x file too big to be looked through at open is given its subagents' run
    unseen; with no subagent line in it, that run is never listed (and the scan ends)."""
    import trajtui.formats.claude_code as cc
    from trajtui.core.workspace import open_paths
    from trajtui.formats.registry import formats

    monkeypatch.setattr(cc, "SIDECHAIN_SEEN", 0)
    path = b.write_lines(tmp_path / "-home-u-app" / f"{b.OLD}.jsonl", b.session_10())
    ws = open_paths([str(path.parent)], formats())
    assert [s.own_refs() for s in ws.sources] == [
        (b.OS, b.OLD),
        (f"{b.OS}/sidechain", f"{b.OLD}/sidechain"),
    ]
    for _ in ws.scan():
        pass
    assert all(s.complete for s in ws.sources)
    assert [len(s) for s in ws.sources] == [1, 0]
    ws.close()


def test_stats_by_date_gives_each_days_sessions_and_tokens(projects: Path) -> None:
    """Tokens and cost per day (issue 25): a session's date is its first line's (UTC), the
    same field Codex rollouts have."""
    out = _cli("stats", str(projects), "--by", "date", "--json")
    assert out.returncode == 0, out.stderr
    groups = {g["group"]: g for g in map(json.loads, out.stdout.splitlines())}
    assert {"2026-01-02", "2025-09-01"} <= set(groups), sorted(groups)
    ls = [json.loads(x) for x in _cli("ls", str(projects), "--json").stdout.splitlines()]
    days = {row["ref"]: row["metadata"].get("date") for row in ls}
    assert days[b.S] == "2026-01-02" and days[b.OS] == "2025-09-01"


def test_a_first_line_whose_type_is_no_word_is_not_a_session_and_no_crash(
    tmp_path: Path,
) -> None:
    """``{"type": []}`` (found by the reader fuzz test) crashed the format's sniffing with
    an internal error; it is a file no format reads, said in one line."""
    path = tmp_path / "odd.jsonl"
    path.write_text(json.dumps({"type": []}) + "\n" + json.dumps({"type": {"a": 1}}) + "\n")
    out = _cli("ls", str(path))
    assert "internal error" not in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert out.stderr.startswith(str(path)), out.stderr


def test_background_agent_calls_count_once_in_ls_and_stats_by_tool(tmp_path: Path) -> None:
    """Each background ``Agent`` call is one call, failed when its later answer says so:
    the same in ``ls --json`` and in ``stats`` by tool (agent calls were left out there)."""
    b.write_lines(tmp_path / "-home-u-x" / f"{b.ASYNC}.jsonl", b.session_async())
    out = _cli("ls", str(tmp_path), "--json")
    (row,) = map(json.loads, out.stdout.splitlines())
    assert (row["tool_calls"], row["tool_errors"]) == (2, 1)
    out = _cli("stats", str(tmp_path))
    assert out.returncode == 0, out.stderr
    agent = next(line for line in out.stdout.splitlines() if line.split()[:1] == ["Agent"])
    assert agent.split()[1:5] == ["2", "calls", "·", "1"], agent


def test_the_counts_match_what_jq_says_of_the_files(tmp_path: Path) -> None:
    """Turns, tool calls, tool errors and tokens of every run of every fixture shape (2.1
    with a subagent, 1.0 with and without sidechains, 2.0 warmups, background agents)
    beside a jq program's over the same files (:mod:`.jqcheck`)."""
    if shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    root = b.projects(tmp_path)
    b.project_20(root)
    b.write_lines(root / "-home-u-x" / f"{b.ASYNC}.jsonl", b.session_async())
    b.write_lines(root / "-home-u-app" / f"{b.SIDE}.jsonl", b.session_10_sidechain())
    trajtui = os.path.join(os.path.dirname(sys.executable), "trajtui")
    lines = jqcheck.check([str(root)], trajtui)
    assert len(lines) == 10, lines
    assert all(line.startswith("ok ") for line in lines), "\n".join(lines)


def test_the_run_table_exports_carry_the_project_as_ls_does(projects: Path) -> None:
    """The CSV, JSONL and Markdown run tables have the project column ``ls`` shows (they
    had none: a table of sessions from several folders could not be told apart)."""
    import csv
    import io

    rows = list(csv.DictReader(io.StringIO(_cli("export", str(projects), "-f", "csv").stdout)))
    assert [r["project"] for r in rows] == ["/home/u/src/app"] * 3
    lines = _cli("export", str(projects), "-f", "jsonl").stdout.splitlines()
    assert {json.loads(line)["project"] for line in lines} == {"/home/u/src/app"}
    md = _cli("export", str(projects), "-f", "markdown").stdout.splitlines()
    assert "| project |" in md[0] and "| /home/u/src/app |" in md[2]
