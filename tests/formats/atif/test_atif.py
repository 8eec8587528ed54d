"""Harbor's ATIF trajectories and job directories: what ``ls``, ``show``, ``--goto`` and the
TUI show for every ATIF version, the drift of other writers, and broken files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from tests.formats.atif import builders as b
from tests.helpers.ui import running, settle
from trajtui.cli import cli
from trajtui.formats.atif import parse_trajectory, read_document, read_trial_result, verdict


def cli_run(*args: str) -> Result:
    # a fixed width: show wraps long lines at the terminal's width
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, env={"COLUMNS": "160"})


def ls_json(path: Path) -> dict[str, dict[str, Any]]:
    out = cli_run("ls", "--json", str(path))
    assert out.exit_code == 0, out.stderr
    return {o["ref"]: o for o in map(json.loads, out.stdout.splitlines())}


def show(path: Path, ref: str, *more: str) -> Result:
    return cli_run("show", str(path), ref, *more)


@pytest.fixture
def job(tmp_path: Path) -> Path:
    return b.job(tmp_path / "job-1")


# -- a Harbor job directory --------------------------------------------------------------------


def test_ls_lists_every_trial_with_its_verdict_reward_and_counts(job: Path) -> None:
    out = cli_run("ls", str(job))
    assert out.exit_code == 0
    rows = {line.split()[0]: line for line in out.stdout.splitlines()[1:]}
    assert list(rows) == [
        "add-docs__CCCC333",
        "add-docs__CCCC333/cont-1",
        "add-docs__CCCC333/summarization-1-summary",
        "add-docs__DDDD444",
        "fix-bug__AAAA111",
        "fix-bug__BBBB222",
        "setup__EEEE555",
    ]
    assert rows["fix-bug__AAAA111"].split()[1:8] == ["✓", "pass", "4", "3", "1", "2m", "30s"]
    assert "◷ AgentTimeoutError" in rows["fix-bug__BBBB222"]
    assert "! RuntimeError" in rows["setup__EEEE555"]
    assert "○ running" in rows["add-docs__DDDD444"]
    # the trial cut mid-write: PATH:LINE, and its two complete steps still listed
    assert rows["add-docs__DDDD444"].split()[3] == "2"
    cut = job / "add-docs__DDDD444" / "agent" / "trajectory.json"
    lines = len(cut.read_text().rstrip().splitlines())  # the last line with text
    assert out.stderr.splitlines() == [
        f"{cut}:{lines}: invalid JSON: ends early (truncated?); the 2 steps before it are shown"
    ]


def test_ls_json_says_which_reward_the_score_is(job: Path) -> None:
    runs = ls_json(job)
    docs = runs["add-docs__CCCC333"]
    assert (docs["score"], docs["score_label"], docs["outcome"]) == (
        0.75,
        "correctness",  # the reward's key, whatever other rewards there are (issue 22)
        "partial",
    )
    timeout = runs["fix-bug__BBBB222"]
    assert (timeout["outcome"], timeout["status"], timeout["score"]) == (
        "timeout",
        "AgentTimeoutError",
        0.0,
    )
    assert timeout["duration_ms"] == 15 * 60 * 1000  # the trial's started_at/finished_at
    passed = runs["fix-bug__AAAA111"]
    assert (passed["cost"], passed["tool_calls"], passed["tool_errors"]) == (0.009, 3, 1)
    assert runs["setup__EEEE555"]["steps"] is None  # no trajectory: not "0 steps"
    assert runs["add-docs__CCCC333/cont-1"]["format"] == "atif"


def test_show_a_step_pairs_each_call_with_its_result(job: Path) -> None:
    out = show(job, "fix-bug__AAAA111/step-2")
    assert out.exit_code == 0, out.stderr
    text = out.stdout
    assert "fix-bug__AAAA111/step-2  ⚙ read_file, bash" in text
    assert "status ! failed" in text and "call 2: bash (call_2) failed" in text
    assert text.index("call 1: read_file (call_1)") < text.index("return a * b")
    assert text.index("call 2: bash (call_2)") < text.index("result of call 2  1 failed")
    assert "The test fails on division" in text  # reasoning_content
    assert '"prompt_tokens": 1200' in text and "cost_usd  0.004" in text
    raw = json.loads(show(job, "fix-bug__AAAA111/step-2", "--json").stdout)
    assert raw["ref"] == "fix-bug__AAAA111/step-2" and raw["step_id"] == 2
    assert raw["tool_calls"][1]["function_name"] == "bash"


def test_show_a_trial_says_where_each_number_comes_from(job: Path) -> None:
    text = show(job, "add-docs__CCCC333").stdout
    assert "correctness 0.75" in text
    assert '"quality": 0.9' in text
    assert "continued in  add-docs__CCCC333/cont-1 (trajectory.cont-1.json)" in text
    assert "add-docs__CCCC333/summarization-1-summary" in text
    step = show(job, "add-docs__CCCC333/step-3").stdout
    assert '"run": "add-docs__CCCC333/summarization-1-summary"' in step


def test_continuations_and_subagents_are_runs_of_their_own(job: Path) -> None:
    sub = show(job, "add-docs__CCCC333/summarization-1-summary")
    assert sub.exit_code == 0, sub.stderr
    assert "steps 2" in sub.stdout and "So far: read api.py." in sub.stdout
    cont = show(job, "add-docs__CCCC333/cont-1").stdout
    assert "copied · user: Write the docs for the API" in cont
    assert "tool calls 0" in cont


def test_a_subagent_file_is_read_only_when_its_run_is_opened(tmp_path: Path) -> None:
    trial = b.write_trial(
        tmp_path / "t__1", b.summarized(), b.trial_result("t__1", "t", rewards={"reward": 1})
    )
    sub = trial / "agent" / "trajectory.summarization-1-summary.json"
    sub.write_text('{"schema_version": "ATIF-v1.7",\n "steps": [oops]}\n')
    listed = cli_run("ls", str(trial))
    assert listed.exit_code == 0 and listed.stderr == ""  # not read to list it
    assert "t__1/summarization-1-summary" in listed.stdout
    opened = show(trial, "t__1/summarization-1-summary")
    assert f"{sub}:2: invalid JSON at column 12: expecting a value" in opened.stderr


def test_goto_and_show_take_a_step_id_not_a_position(tmp_path: Path) -> None:
    steps = [b.user(1, "a"), b.agent(2, "b"), b.agent(10, "the tenth")]  # a truncated copy
    path = b.write_json(tmp_path / "trajectory.json", b.trajectory(steps))
    out = show(path, "trajectory/step-10")
    assert out.exit_code == 0 and "agent: the tenth" in out.stdout
    missing = show(path, "step-3")
    assert missing.exit_code == 1
    assert "has no step 3; it has 3 steps: trajectory/step-1 ... trajectory/step-10" in (
        missing.stderr
    )


def test_repeated_step_ids_number_the_steps_by_position(tmp_path: Path) -> None:
    steps = [b.user(1, "a"), b.agent(2, "b"), b.agent(2, "c")]
    path = b.write_json(tmp_path / "t.json", b.trajectory(steps))
    lines = path.read_text().splitlines()
    third = [n for n, line in enumerate(lines, 1) if '"step_id": 2' in line][1] - 1
    out = cli_run("ls", str(path))
    assert out.stderr.splitlines() == [
        f"{path}:{third}: warning: step_id 2 is repeated: steps numbered by position"
        " (step-1 ... step-3)"
    ]
    assert "agent: c" in show(path, "t/step-3").stdout
    doc = parse_trajectory(read_document(path.read_bytes()), str(path))
    assert [(s.number, s.step_id) for s in doc.steps] == [(1, 1), (2, 2), (3, 2)]


@pytest.mark.parametrize(
    ("rewards", "exception", "expected"),
    [
        ({"reward": True}, None, ("pass", "pass", 1.0, "reward")),
        (
            {"reward": 0.5, "style": 1.0},
            None,
            ("partial", "partial", 0.5, "reward"),
        ),
        ({"b": 0.0, "a": 1}, None, ("pass", "pass", 1, "a")),
        ({"reward": 0.0}, None, ("fail", "fail", 0.0, "reward")),
        (
            {"reward": 1.0},
            "VerifierTimeoutError",
            ("VerifierTimeoutError", "timeout", 1.0, "reward"),
        ),
        (None, "CancelledError", ("CancelledError", "error", None, None)),
        (None, None, (None, "none", None, None)),
        ({"reward": "high"}, None, (None, "none", None, None)),
    ],
)
def test_a_trials_verdict_and_score(
    rewards: dict[str, Any] | None, exception: str | None, expected: tuple[Any, ...]
) -> None:
    trial = read_trial_result(b.trial_result("t__1", "t", rewards=rewards, exception=exception))
    status, outcome = verdict(trial)
    assert (status, outcome.value, trial.score, trial.score_label) == expected


def test_a_broken_trial_result_is_a_problem_and_the_trial_still_shows(tmp_path: Path) -> None:
    trial = b.write_trial(tmp_path / "t__1", b.fix_bug(), None)
    (trial / "result.json").write_text('{\n  "trial_name": "t__1",\n  "task_name": oops\n}\n')
    out = cli_run("ls", str(trial))
    assert f"{trial / 'result.json'}:3: invalid JSON at column 16: expecting a value" in out.stderr
    run = ls_json(trial)["t__1"]
    assert (run["status"], run["steps"], run["tool_errors"]) == (None, 4, 1)


# -- every version, and other writers ----------------------------------------------------------


@pytest.mark.parametrize(
    "version",
    [f"ATIF-v1.{n}" for n in range(9)] + ["1.4", "ATIF-1.0", "atif-1"],
)
def test_every_version_reads_the_same(tmp_path: Path, version: str) -> None:
    path = b.write_json(tmp_path / "trajectory.json", b.fix_bug(version), indent=None)
    run = ls_json(path)["trajectory"]
    assert (run["steps"], run["tool_calls"], run["tool_errors"], run["cost"]) == (4, 3, 1, 0.009)
    assert run["duration_ms"] == 9250 and run["duration_label"] == "span of step timestamps"
    assert "1 failed" in show(path, "step-2").stdout


def test_content_parts_are_shown_as_text_with_media_named(tmp_path: Path) -> None:
    message = [
        {"type": "text", "text": "What is on the screen?"},
        {"type": "image", "source": {"media_type": "image/png", "path": "images/shot.png"}},
        {"type": "audio", "source": {"media_type": "audio/wav", "path": "a.wav"}},
    ]
    steps = [b.user(1, message), b.agent(2, "A login form.")]  # type: ignore[arg-type]
    path = b.write_json(tmp_path / "t.json", b.trajectory(steps, version="ATIF-v1.8"))
    lines = show(path, "step-1").stdout.splitlines()
    at = lines.index("text")
    assert [line.strip() for line in lines[at + 1 :] if line.strip()] == [
        "What is on the screen?",
        "[image: images/shot.png (image/png)]",
        "[audio: a.wav (audio/wav)]",
    ]


def test_other_writers_drift_tool_results_as_steps_of_their_own(tmp_path: Path) -> None:
    """No ATIF-v prefix, calls as id/name, results in system steps before their call."""

    def result_step(n: int, call_id: str, ok: bool, text: str) -> dict[str, Any]:
        key = "output" if ok else "error"
        return {
            "step_id": n,
            "source": "system",
            "message": f"Tool result for {call_id}",
            "observation": {
                "type": "tool_result",
                "content": text,
                "result": {"success": ok, key: text},
            },
        }

    doc = {
        "schema_version": "1.4",
        "session_id": "tbench-1",
        "agent": {"name": "claude-code", "version": "2", "model": "m", "provider": "p"},
        "steps": [
            b.user(1, "Save a regex"),
            result_step(2, "toolu_a", False, "EACCES: permission denied"),
            result_step(3, "toolu_b", True, "/tmp/x"),
            {
                "step_id": 4,
                "source": "agent",
                "message": "Writing it.",
                "tool_calls": [
                    {"id": "toolu_a", "name": "Write", "arguments": {"file_path": "/app/r.txt"}},
                    {"id": "toolu_b", "name": "Bash", "arguments": {"command": "pwd"}},
                ],
            },
        ],
    }
    path = b.write_json(tmp_path / "trajectory.json", doc)
    run = ls_json(path)["trajectory"]
    assert (run["tool_calls"], run["tool_errors"]) == (2, 1)
    calls = show(path, "step-4").stdout
    assert "result of call 1  EACCES: permission denied" in calls
    assert "result of call 1 is in  trajectory/step-2" in calls
    result = show(path, "step-2").stdout
    assert "answers  trajectory/step-4: call 1: Write (toolu_a)" in result
    assert "status ! failed" in result


def test_a_result_without_call_id_answers_the_only_call_of_its_step(tmp_path: Path) -> None:
    steps = [
        b.agent(
            1,
            calls=[b.call("k1", "bash_command", keystrokes="ls\n")],
            results=[b.result(None, "a.txt")],
        ),
        b.agent(
            2,
            calls=[b.call("k2", "bash_command", keystrokes="cd x\n"), b.call("k3", "bash_command")],
            results=[b.result(None, "terminal after both")],
        ),
    ]
    path = b.write_json(tmp_path / "t.json", b.trajectory(steps, version="ATIF-v1.6"))
    assert "output\n  a.txt" in show(path, "step-1").stdout
    both = show(path, "step-2").stdout
    assert "observation  terminal after both" in both
    assert "result of call 1  none in the file" in both
    assert ls_json(path)["t"]["tool_errors"] is None  # nothing says whether a tool failed


def test_embedded_subagents_resolve_by_trajectory_id(tmp_path: Path) -> None:
    child = b.trajectory(
        [b.user(1, "Compact this"), b.agent(2, "compacted")], trajectory_id="compact-001"
    )
    del child["session_id"]
    steps = [
        b.user(1, "Long task"),
        b.system(
            2,
            "Compaction",
            results=[{"subagent_trajectory_ref": [{"trajectory_id": "compact-001"}]}],
        ),
    ]
    path = b.write_json(tmp_path / "t.json", b.trajectory(steps, subagent_trajectories=[child]))
    assert set(ls_json(path)) == {"t", "t/compact-001"}
    assert '"run": "t/compact-001"' in show(path, "t/step-2").stdout
    assert "agent: compacted" in show(path, "t/compact-001/step-2").stdout


def test_tokens_and_cost_summed_over_steps_say_so(tmp_path: Path) -> None:
    steps = [
        b.user(1, "go"),
        b.agent(2, "a", usage=b.metrics(100, 10, cost=0.5)),
        b.agent(3, "b", usage=b.metrics(200, 20, cost=0.25), is_copied_context=True),
        b.agent(4, "c", usage=b.metrics(300, 30, cost=0.125)),
    ]
    path = b.write_json(tmp_path / "t.json", b.trajectory(steps))
    assert ls_json(path)["t"]["cost"] is None  # the list shows only what final_metrics says
    text = show(path, "t").stdout
    assert "prompt_tokens (sum over 2 steps)  400" in text
    assert "cost_usd (sum over 2 steps)  0.625" in text


# -- what is not ATIF, and what is broken ------------------------------------------------------


@pytest.mark.parametrize(
    "doc",
    [
        {"sessionId": "s", "projectHash": "h", "messages": []},  # gemini-cli's own log
        [{"id": 1, "source": "agent", "message": "x", "action": "run", "args": {}}],  # OpenHands
        [{"episode": 0, "prompt": "p", "response": "r"}],  # a JSON array named trajectory.json
    ],
)
def test_look_alikes_are_not_read_as_atif(tmp_path: Path, doc: Any) -> None:
    path = b.write_json(tmp_path / "trajectory.json", doc)
    out = cli_run("ls", str(path))
    assert out.exit_code == 1 and "not a format trajtui reads" in out.stderr


def test_a_mini_swe_agent_trajectory_named_trajectory_json_is_mini_swe_agent(
    tmp_path: Path,
) -> None:
    doc = {"info": {}, "messages": [], "trajectory_format": "mini-swe-agent-1"}
    path = b.write_json(tmp_path / "trajectory.json", doc)
    out = cli_run("ls", "--json", str(path))
    assert [json.loads(line)["format"] for line in out.stdout.splitlines()] == ["mini-swe-agent"]


def test_wrong_types_are_problems_with_lines_and_the_rest_shows(tmp_path: Path) -> None:
    steps: list[Any] = [
        b.user(1, "go"),
        "not a step",
        b.agent(3, "ok"),
        {"step_id": 4, "source": "robot", "message": "?", "tool_calls": {"x": 1}},
    ]
    path = b.write_json(tmp_path / "t.json", b.trajectory(steps))
    lines = path.read_text().splitlines()

    def line_of(text: str) -> int:
        return next(n for n, line in enumerate(lines, 1) if text in line)

    out = cli_run("ls", str(path))
    assert out.exit_code == 0 and ls_json(path)["t"]["steps"] == 3
    assert (
        f"{path}:{line_of('not a step')}: step is a string, not an object (skipped)" in out.stderr
    )
    robot = line_of('"step_id": 4') - 1  # the step's "{" is on the line before
    assert f"{path}:{robot}: warning: source 'robot' (not system, user or agent)" in out.stderr
    assert f'{path}:{robot}: "tool_calls" is an object, not an array' in out.stderr


def test_invalid_json_mid_file_keeps_the_steps_before_it(tmp_path: Path) -> None:
    text = json.dumps(b.fix_bug(), indent=2).replace('"source": "agent"', '"source": agent', 2)
    path = tmp_path / "trajectory.json"
    path.write_text(text)
    out = cli_run("ls", str(path))
    line = next(n for n, t in enumerate(text.splitlines(), 1) if '"source": agent' in t)
    assert (
        f"{path}:{line}: invalid JSON at column 17: expecting a value; the step before it is shown"
        in out.stderr
    )
    assert ls_json(path)["trajectory"]["steps"] == 1


def test_a_subagent_path_out_of_the_opened_directory_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "secret.json").write_text(json.dumps(b.trajectory([b.user(1, "secret")])))
    ref = {"subagent_trajectory_ref": [{"trajectory_path": "../secret.json"}]}
    doc = b.trajectory([b.user(1, "go"), b.system(2, "handoff", results=[ref])])
    path = b.write_json(tmp_path / "agent" / "trajectory.json", doc)
    out = cli_run("ls", str(path.parent))
    assert "subagent trajectory '../secret.json' is outside the opened directory" in out.stderr
    assert "secret" not in out.stdout


# -- the TUI -----------------------------------------------------------------------------------


async def test_tui_opens_a_job_and_drills_into_a_step(job: Path) -> None:
    async with running([str(job)]) as (pilot, app, screen):
        refs = [screen.ws.sources[0].entry(i).ref for i in range(len(screen.ws.sources[0]))]
        assert "fix-bug__AAAA111" in refs
        while screen.run is None or screen.run.ref != "fix-bug__AAAA111":
            await pilot.press("j")
            await settle(pilot)
        assert "✓ pass" in screen.detail.text and "reward 1" in screen.detail.text
        await pilot.press("enter", "j")  # into the timeline, to step 2
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        text = screen.detail.text
        assert "fix-bug__AAAA111/step-2" in text and "call 2: bash (call_2) failed" in text
        assert "return a * b" in text


async def test_goto_a_step_by_its_step_id(tmp_path: Path) -> None:
    steps = [b.user(1, "a"), b.agent(2, "b"), b.agent(10, "the [bold]tenth[/bold]")]
    path = b.write_json(tmp_path / "trajectory.json", b.trajectory(steps))
    async with running([str(path)], goto="trajectory/step-10") as (pilot, app, screen):
        assert "agent: the [bold]tenth[/bold]" in screen.detail.text
        assert "step 10" in str(screen.query_one("#breadcrumb").render())
