"""The TUI on a ~/.claude/projects folder: what the run list shows."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import OptionList

from tests.formats.claude_code import builders as b
from tests.helpers.ui import listed, running, screen_lines, settle
from trajtui.ui.textual_private import FooterKey


async def test_a_projects_folder_lists_each_session_with_its_counts(tmp_path: Path) -> None:
    root = b.projects(tmp_path)
    async with running([str(root)], size=(200, 40)) as (_pilot, app, screen):
        refs = [str(screen.ws.sources[s].table.ref(i)) for s, i in screen.store.listed_runs()]
        assert sorted(refs) == sorted([b.S, b.OS, f"{b.S}/agent-a5f00d1"])
        drawn = "\n".join(screen_lines(app))
        assert "3 runs" in drawn and "1 with tool errors" in drawn
        row = next(line for line in drawn.splitlines() if "Fix the failing build" in line)
        # status, steps 14, calls 3, tool errors 1, duration 8.2s
        assert "done" in row and " 14 " in row and " 3 " in row and " 1 " in row and "8.2s" in row
        assert "Fix the failing build" in drawn and "Write the notes" in drawn


async def test_an_agent_calls_subagent_opens_from_its_step_and_back_returns(
    tmp_path: Path,
) -> None:
    """``i`` on a Task call opens its subagent's run (2.x: its own file), ``backspace``
    returns to the call; the key is greyed on a step that starts no subagent, and the
    footer's label does the same with the mouse."""
    root = b.projects(tmp_path)
    task = f"{b.S}/step-8"
    async with running([str(root)], size=(200, 40), goto=task) as (pilot, app, screen):
        assert screen.state.run is not None and screen.state.run.ref == b.S
        assert screen.check_action("open_link", ()) is True
        await pilot.press("i")
        await settle(pilot)
        assert screen.state.run is not None
        assert screen.state.run.ref == f"{b.S}/agent-a5f00d1"
        assert "Look at main.c" in "\n".join(screen_lines(app))
        await pilot.press("backspace")
        await settle(pilot)
        assert screen.state.run is not None and screen.state.run.ref == b.S
        # with the mouse: the footer's "subagent" key
        (key,) = [k for k in app.screen.query(FooterKey) if k.action == "open_link"]
        assert "subagent" in str(key.render())
        await pilot.click(key)
        await settle(pilot)
        assert screen.state.run is not None
        assert screen.state.run.ref == f"{b.S}/agent-a5f00d1"
        await pilot.press("backspace")
        await settle(pilot)
        assert screen.state.run is not None and screen.state.run.ref == b.S
        assert screen.timeline.current_step() == (None, 7)  # step-8, the Task call again
        await pilot.press("escape", "k")  # the step before: no subagent, the key greyed
        await settle(pilot)
        assert screen.timeline.current_step() == (None, 6)
        assert screen.check_action("open_link", ()) is None
        assert screen.check_action("link_back", ()) is None  # nothing to go back to


async def test_a_1_0_sessions_task_call_opens_its_sidechain_run(tmp_path: Path) -> None:
    path = b.write_lines(tmp_path / "-home-u-app" / f"{b.SIDE}.jsonl", b.session_10_sidechain())
    short = b.SIDE[:8]
    async with running([str(path.parent)], size=(200, 40), goto=f"{short}/step-4") as (
        pilot,
        app,
        screen,
    ):
        await pilot.press("i")
        await settle(pilot)
        assert screen.state.run is not None and screen.state.run.ref == f"{short}/sidechain"
        assert "Bash: cat c" in "\n".join(screen_lines(app))


async def test_a_projects_folder_is_one_run_list_without_a_header_per_file(
    tmp_path: Path,
) -> None:
    """A header row per session file (``<id>.jsonl · Claude Code session · 1 run``) stood
    above each session; the folder is one list, newest first, sorted as one."""
    root = b.projects(tmp_path)
    async with running([str(root)], size=(200, 40)) as (pilot, app, screen):
        drawn = "\n".join(screen_lines(app))
        assert ".jsonl · Claude Code session" not in drawn
        assert listed(screen) == [b.S, f"{b.S}/agent-a5f00d1", b.OS]
        await pilot.press("s")  # sorted: still one list, each row its own short ref
        await settle(pilot)
        drawn = "\n".join(screen_lines(app))
        assert "::" not in drawn and ".jsonl" not in drawn
        assert sorted(listed(screen)) == sorted([b.S, f"{b.S}/agent-a5f00d1", b.OS])


async def test_warmup_requests_are_listed_as_warmups_not_as_the_sessions_subagents(
    tmp_path: Path,
) -> None:
    """Claude Code 2.0.77 writes an ``agent-*.jsonl`` file for each warmup request it sends
    on its own as it starts: each is a row saying so (status ``warmup``, its title), not a
    finished subagent titled ``Warmup``; the Task call's own subagent stays one."""
    proj = b.project_20(tmp_path)
    w = b.WARM[:8]
    async with running([str(proj)], size=(200, 40)) as (pilot, app, screen):
        assert sorted(listed(screen)) == sorted(
            [w, f"{w}/agent-a13faba", f"{w}/agent-a205736", f"{w}/agent-a94768a"]
        )
        rows = {
            ref: line
            for line in screen_lines(app)
            for ref in ("agent-a13faba", "agent-a205736", "agent-a94768a")
            if ref in line
        }
        for warm in ("agent-a205736", "agent-a94768a"):
            assert "warmup" in rows[warm] and "done" not in rows[warm], rows[warm]
            assert "sent on its own" in rows[warm] and " Warmup" not in rows[warm]
        assert "done" in rows["agent-a13faba"] and "Look at main.c" in rows["agent-a13faba"]
        await pilot.press("f", *"status:warmup", "enter")
        await settle(pilot)
        assert sorted(listed(screen)) == [f"{w}/agent-a205736", f"{w}/agent-a94768a"]


async def test_a_background_agent_call_and_its_later_answer_name_each_other(
    tmp_path: Path,
) -> None:
    """2.1.3xx runs agents in the background: the call answers at once that it launched,
    the agent's answer is a later user line (``<task-notification>``). The call shows
    ``launched`` completed by its answer, the answer step completes the call with the
    agent's result; the row counts each call once and the answer that failed as a tool
    error."""
    path = b.write_lines(tmp_path / "-home-u-x" / f"{b.ASYNC}.jsonl", b.session_async())
    a = b.ASYNC[:8]
    async with running([str(path.parent)], size=(240, 40), goto=f"{a}/step-2") as (
        _pilot,
        app,
        screen,
    ):
        drawn = screen_lines(app)
        row = next(line for line in drawn if a in line and "Survey the repo" in line)
        assert row.split("││")[0].split()[4:7] == ["10", "2", "1"], row  # steps, calls, err
        call = next(line for line in drawn if "Agent: List files" in line and "answer" not in line)
        assert "completed by 6" in call, call
        assert any("status ○ launched" in line for line in drawn)  # (its detail)
        assert any("completed by" in line and "step-6" in line for line in drawn)
        answer = next(line for line in drawn if "answer of Agent: List files" in line)
        assert "There are 3 files." in answer and "completes 2" in answer, answer
        failed = next(line for line in drawn if "answer of Agent: Run tests" in line)
        assert "crashed" in failed and "!" in failed, failed  # (the glyph of a failed step)
        assert not any("<task-notification>" in line for line in drawn)


async def test_the_run_list_has_a_project_column_as_ls_has(tmp_path: Path) -> None:
    """``trajtui ls ~/.claude/projects`` has a PROJECT column; the run list has the same
    column with the same value (a long path cut by its start, as ls cuts it), and sorts by
    it."""
    root = b.projects(tmp_path)
    b.write_lines(
        root / "-srv-a-very-long-project-path-of-a-monorepo-app" / f"{b.ASYNC}.jsonl",
        [
            {**line, "cwd": "/srv/a-very-long-project-path-of-a-monorepo/app"}
            if "cwd" in line
            else line
            for line in b.session_async()
        ],
    )
    async with running([str(root)], size=(200, 40)) as (pilot, app, screen):
        runs = [line.split("││")[0] for line in screen_lines(app)]
        head = next(line for line in runs if " ref " in line and " status " in line)
        assert " project " in head, head
        row = next(line for line in runs if "Fix the failing build" in line)
        assert "/home/u/src/app " in row, row
        long = next(line for line in runs if "Survey the repo" in line)
        assert "…" in long and "-monorepo/app " in long and "/srv/a-very" not in long, long
        await pilot.press("O")
        await settle(pilot)
        options = app.screen.query_one(OptionList)
        offered = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert any("project" in o for o in offered), offered
