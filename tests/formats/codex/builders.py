"""Small Codex CLI rollouts of our own, in the shapes the real CLI writes (0.20 flat, 0.60
RolloutLine, 0.171 with ordinals and item_completed events; see the research notes).

Never copies of real rollouts: invented prompts, commands and numbers. :func:`session_v060`
and :func:`session_v0171` are complete sessions of one turn with three shell calls (one
failing) and an apply_patch; :func:`sessions_tree` writes a ``~/.codex/sessions`` tree.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DAY = "2026-11-20"


def ts(seconds: float, day: str = DAY) -> str:
    """An ISO time ``seconds`` after 09:00 UTC of ``day``, with ms, as Codex writes it."""
    whole = int(seconds)
    ms = round((seconds - whole) * 1000)
    return f"{day}T09:{whole // 60:02d}:{whole % 60:02d}.{ms:03d}Z"


class Rollout:
    """Lines of a RolloutLine rollout being written (``ordinals``: 0.171's ``ordinal``)."""

    def __init__(self, day: str = DAY, *, ordinals: bool = False) -> None:
        self.day = day
        self.ordinals = ordinals
        self.lines: list[dict[str, Any]] = []
        self.t = 0.0

    def add(self, type_: str, payload: dict[str, Any], dt: float = 0.1) -> Rollout:
        self.t += dt
        line: dict[str, Any] = {"timestamp": ts(self.t, self.day)}
        if self.ordinals:
            line["ordinal"] = len(self.lines)
        line["type"] = type_
        line["payload"] = payload
        self.lines.append(line)
        return self

    def meta(self, thread: str, cwd: str, version: str, **extra: Any) -> Rollout:
        payload = {
            "id": thread,
            "timestamp": ts(self.t, self.day),
            "cwd": cwd,
            "originator": "codex_cli_rs",
            "cli_version": version,
            "instructions": None,
            "source": "cli",
            "model_provider": "openai",
            "git": {"branch": "main", "commit_hash": "0f3c9a1"},
            **extra,
        }
        return self.add("session_meta", payload, 0.0)

    def item(self, payload: dict[str, Any], dt: float = 0.1) -> Rollout:
        return self.add("response_item", payload, dt)

    def event(self, type_: str, dt: float = 0.01, **fields: Any) -> Rollout:
        return self.add("event_msg", {"type": type_, **fields}, dt)

    def context(self, model: str = "gpt-5-codex", cwd: str = "/home/dev/proj") -> Rollout:
        payload = {"cwd": cwd, "approval_policy": "on-request", "model": model, "summary": "auto"}
        return self.add("turn_context", payload, 0.0)

    def tokens(self, total_in: int, total_out: int, last_in: int, last_out: int) -> Rollout:
        info = {
            "total_token_usage": usage(total_in, total_out),
            "last_token_usage": usage(last_in, last_out),
            "model_context_window": 272000,
        }
        return self.event("token_count", info=info, rate_limits={"primary": None})

    def text(self) -> str:
        return "".join(json.dumps(line) + "\n" for line in self.lines)

    def write(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(self.text())
        return path


def usage(inp: int, out: int) -> dict[str, int]:
    return {
        "input_tokens": inp,
        "cached_input_tokens": inp // 2,
        "output_tokens": out,
        "reasoning_output_tokens": out // 4,
        "total_tokens": inp + out,
    }


def message(role: str, text: str, **extra: Any) -> dict[str, Any]:
    kind = "output_text" if role == "assistant" else "input_text"
    return {"type": "message", "role": role, "content": [{"type": kind, "text": text}], **extra}


def env_context(cwd: str = "/home/dev/proj") -> dict[str, Any]:
    text = (
        f"<environment_context>\n  <cwd>{cwd}</cwd>\n  <shell>zsh</shell>\n</environment_context>"
    )
    return message("user", text)


def reasoning(summary: str) -> dict[str, Any]:
    return {
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": summary}],
        "content": None,
        "encrypted_content": "gAAAAABsecretOPAQUEblob0000000000000000",
    }


def call(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {
        "type": "function_call",
        "name": name,
        "arguments": json.dumps(arguments),
        "call_id": call_id,
    }


def output(call_id: str, text: str, custom: bool = False) -> dict[str, Any]:
    kind = "custom_tool_call_output" if custom else "function_call_output"
    return {"type": kind, "call_id": call_id, "output": text}


def patch(call_id: str, path: str) -> dict[str, Any]:
    body = f"*** Begin Patch\n*** Add File: {path}\n+made by a test\n*** End Patch\n"
    return {"type": "custom_tool_call", "call_id": call_id, "name": "apply_patch", "input": body}


def shell_out(code: int, text: str) -> str:
    """A 0.60 ``shell_command`` output."""
    return f"Exit code: {code}\nWall time: 0.2 seconds\nOutput:\n{text}"


def exec_out(code: int, text: str) -> str:
    """A 0.171 ``exec_command`` output."""
    return (
        f"Chunk ID: 1a2b3c\nWall time: 0.0100 seconds\nProcess exited with code {code}\n"
        f"Original token count: 3\nOutput:\n{text}"
    )


def json_out(code: int, text: str) -> str:
    """A 0.20 ``shell`` output (and apply_patch's in 0.60): a JSON string."""
    return json.dumps({"output": text, "metadata": {"exit_code": code, "duration_seconds": 0.1}})


THREAD_060 = "0199a1b2-0000-7000-8000-00000000a060"
THREAD_0171 = "019c0d0e-0000-7000-8000-0000000a0171"
THREAD_020 = "5f0e1d2c-3b4a-4958-8677-000000000020"


def session_v060(thread: str = THREAD_060, day: str = DAY, cwd: str = "/home/dev/proj") -> Rollout:
    """0.60-shaped: one turn, 3 shell_command calls (the second exits 2) and an apply_patch;
    event copies of the prompt, reasoning and messages; repeated token_count events
    (the last total: 9,000 in, 400 out)."""
    r = Rollout(day).meta(thread, cwd, "0.60.1")
    r.item(env_context(cwd)).item(message("user", "Fix the failing test in parser.py"), 1.0)
    r.event("user_message", message="Fix the failing test in parser.py", images=[])
    r.context(cwd=cwd).event("token_count", info=None, rate_limits={"primary": None})
    r.event("agent_reasoning", text="**Looking at the tests**")
    r.event("agent_message", message="Running the tests first.")
    r.tokens(3000, 100, 3000, 100)
    r.item(reasoning("**Looking at the tests**")).item(
        message("assistant", "Running the tests first.")
    )
    r.item(call("call_a1", "shell_command", command="pytest -q"))
    r.item(output("call_a1", shell_out(0, "1 passed\n")), 0.2)
    r.context(cwd=cwd).tokens(3000, 100, 3000, 100).tokens(6000, 250, 3000, 150)
    r.item(call("call_a2", "shell_command", command="cat missing.txt"))
    r.item(output("call_a2", shell_out(2, "cat: missing.txt: No such file\n")), 0.3)
    r.context(cwd=cwd).item({"type": "ghost_snapshot", "ghost_commit": {"id": "abc"}})
    r.item(patch("call_a3", "notes.txt"))
    r.item(
        output("call_a3", json_out(0, "Success. Updated the following files:\nA notes.txt\n"), True)
    )
    r.item(call("call_a4", "shell_command", command="pytest -q"))
    r.item(output("call_a4", shell_out(0, "2 passed\n")), 0.5)
    r.event("agent_message", message="Fixed: the parser test passes.")
    r.tokens(9000, 400, 3000, 150)
    r.item(message("assistant", "Fixed: the parser test passes."))
    return r


def session_v0171(thread: str = THREAD_0171, day: str = DAY, cwd: str = "/home/dev/api") -> Rollout:
    """0.171-shaped: ordinals, base_instructions, task_started / task_complete with
    duration_ms 2,500, item_completed copies, exec_command calls (the second fails),
    token_usage_record lines; last total 7,000 in and 300 out."""
    r = Rollout(day, ordinals=True)
    r.meta(
        thread,
        cwd,
        "0.171.0",
        base_instructions={"text": "You are Codex. " * 50},
        history_mode="paginated",
        thread_source="user",
    )
    turn = "019c0d0e-1111-7000-8000-000000000001"
    r.event("task_started", turn_id=turn, started_at=1795000000, model_context_window=272000)
    r.item(
        message("developer", "<permissions instructions>\nno network\n</permissions instructions>")
    )
    r.item(env_context(cwd))
    r.add("world_state", {"full": True, "state": {"agents_md": {}}})
    r.context(model="gpt-5.2-codex", cwd=cwd)
    r.item(message("user", "Add a health endpoint"))
    r.event(
        "item_completed",
        turn_id=turn,
        item={
            "type": "UserMessage",
            "id": "u1",
            "content": [{"type": "text", "text": "Add a health endpoint"}],
        },
    )
    r.event(
        "item_completed",
        turn_id=turn,
        item={"type": "Reasoning", "id": "rs1", "summary_text": ["**Plan**"]},
    )
    r.item(reasoning("**Plan**"))
    r.item(call("call_b1", "exec_command", cmd="ls src"))
    r.add("token_usage_record", {"response_id": "resp_1", "usage": usage(3500, 150)})
    r.event(
        "item_completed",
        turn_id=turn,
        item={"type": "CommandExecution", "id": "call_b1", "status": "completed", "exit_code": 0},
    )
    r.item(output("call_b1", exec_out(0, "app.py\n")))
    r.tokens(3500, 150, 3500, 150)
    r.item(call("call_b2", "exec_command", cmd="python -m pytest"))
    r.add("token_usage_record", {"response_id": "resp_2", "usage": usage(3500, 150)})
    r.event(
        "item_completed",
        turn_id=turn,
        item={"type": "CommandExecution", "id": "call_b2", "status": "failed", "exit_code": 1},
    )
    r.item(output("call_b2", exec_out(1, "1 failed\n")))
    r.tokens(7000, 300, 3500, 150)
    r.event(
        "item_completed",
        turn_id=turn,
        item={
            "type": "AgentMessage",
            "id": "m1",
            "content": [{"type": "Text", "text": "The endpoint is added; one test fails."}],
        },
    )
    r.item(message("assistant", "The endpoint is added; one test fails.", phase="final"))
    r.event(
        "task_complete",
        turn_id=turn,
        last_agent_message="The endpoint is added; one test fails.",
        duration_ms=2500,
    )
    return r


def session_v020(thread: str = THREAD_020, day: str = DAY) -> list[dict[str, Any]]:
    """0.20-shaped flat rollout: header, state lines, bare items; shell calls (argv) with
    JSON-string outputs, the second exiting 1; no times, no tokens."""
    return [
        {"id": thread, "timestamp": f"{day}T08:00:00.000Z", "instructions": None, "git": {}},
        {"record_type": "state"},
        message("user", "List the files and count them"),
        {"record_type": "state"},
        reasoning("**Listing**"),
        {
            "type": "function_call",
            "id": None,
            "name": "shell",
            "arguments": json.dumps({"command": ["bash", "-lc", "ls"]}),
            "call_id": "call_c1",
        },
        output("call_c1", json_out(0, "a\nb\n")),
        {"record_type": "state"},
        {
            "type": "function_call",
            "id": None,
            "name": "shell",
            "arguments": json.dumps({"command": ["bash", "-lc", "wc -l nope"]}),
            "call_id": "call_c2",
        },
        output("call_c2", json_out(1, "wc: nope: No such file\n")),
        {"record_type": "state"},
        message("assistant", "There are 2 files."),
    ]


def write_lines(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def rollout_path(root: Path, day: str, thread: str, clock: str = "09-00-00") -> Path:
    y, m, d = day.split("-")
    return root / y / m / d / f"rollout-{day}T{clock}-{thread}.jsonl"


def sessions_tree(root: Path) -> Path:
    """A ``~/.codex/sessions`` tree: the 0.20 session on 2026-11-18, the 0.60 one on
    2026-11-19 and the 0.171 one on 2026-11-20 (newest)."""
    write_lines(rollout_path(root, "2026-11-18", THREAD_020), session_v020(day="2026-11-18"))
    session_v060(day="2026-11-19").write(rollout_path(root, "2026-11-19", THREAD_060))
    session_v0171(day="2026-11-20").write(rollout_path(root, "2026-11-20", THREAD_0171))
    return root


THREAD_FORK = "019c0d0f-0000-7000-8000-00000000f0c1"
THREAD_PAGED = "019c0d0f-0000-7000-8000-00000000f0c2"


def _fork_meta(r: Rollout, thread: str, parent: str, cwd: str, **extra: Any) -> None:
    r.meta(
        thread,
        cwd,
        "0.171.0",
        session_id=thread,
        forked_from_id=parent,
        base_instructions={"text": "You are Codex. " * 20},
        thread_source="user",
        **extra,
    )


def _own_turn(
    r: Rollout, thread: str, cwd: str, prompt: str, in_before: int, out_before: int
) -> None:
    """A 0.171 turn of the fork's own: one exec_command call that succeeds; its token
    count starts from the total the fork was seeded with."""
    turn = f"{thread[:-4]}7777"
    r.event("thread_settings_applied", thread_id=thread, thread_settings={"model": "gpt-5"})
    r.event("task_started", turn_id=turn, started_at=1795000100)
    r.item(
        message("developer", "<permissions instructions>\nno network\n</permissions instructions>")
    )
    r.item(env_context(cwd)).context(model="gpt-5.2-codex", cwd=cwd)
    r.item(message("user", prompt))
    r.event(
        "item_completed", thread_id=thread, turn_id=turn, item={"type": "UserMessage", "id": "u9"}
    )
    r.item(call("call_f1", "exec_command", cmd="touch bye.txt"))
    r.item(output("call_f1", exec_out(0, "")))
    r.item(message("assistant", "bye.txt is added."))
    r.tokens(in_before + 1000, out_before + 50, 1000, 50)
    r.event("task_complete", turn_id=turn, last_agent_message="bye.txt is added.", duration_ms=900)


def fork_legacy(
    parent: str = THREAD_060, thread: str = THREAD_FORK, cwd: str = "/home/dev/proj"
) -> Rollout:
    """A 0.171 fork of a legacy (0.60) session, as the real CLI writes it: its own
    session_meta (``forked_from_id``), the parent's session_meta and the parent's lines
    copied (one turn: 3 shell calls, one failing, and an apply_patch; 9,000 in / 400 out),
    an interrupted-turn marker, then its own turn (one call; 1,000 in / 50 out of its own,
    its count starting from the parent's 9,000 / 400)."""
    r = Rollout(day="2026-11-21")
    _fork_meta(r, thread, parent, cwd, history_mode="legacy")
    copied = session_v060(parent, cwd=cwd).lines
    for line in copied:
        r.add(line["type"], line["payload"], 0.0)
    r.item(
        message(
            "user",
            "<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>",
        ),
        0.0,
    )
    r.event("turn_aborted", turn_id=None, reason="interrupted", dt=0.0)
    _own_turn(r, thread, cwd, "Now also add bye.txt", 9000, 400)
    return r


def fork_paginated(
    parent: str = THREAD_0171, thread: str = THREAD_PAGED, cwd: str = "/home/dev/api"
) -> Rollout:
    """A 0.171 fork of a paginated session, as the real CLI writes it: no line of the
    parent's copied; its session_meta names the parent and the ordinal it forked at, its
    lines go on from that ordinal, and its token count starts from the parent's total
    (7,000 in / 300 out); its own turn uses 1,000 in / 50 out."""
    r = Rollout(day="2026-11-21", ordinals=True)
    base = {"thread_id": parent, "end_ordinal_exclusive": 21, "end_byte_offset": 40000}
    _fork_meta(
        r,
        thread,
        parent,
        cwd,
        forked_from_ordinal_exclusive=21,
        history_mode="paginated",
        history_base=base,
    )
    _own_turn(r, thread, cwd, "Now also add bye.txt", 7000, 300)
    for n, line in enumerate(r.lines):
        line["ordinal"] = 21 + n
    return r


def resumed_v060(thread: str = THREAD_060) -> Rollout:
    """A 0.60 session resumed (``codex exec resume``: the same file appended): a second
    turn whose token count restarts from 0 (its last total 2,000 in / 80 out), after the
    first turn's 9,000 / 400."""
    r = session_v060(thread)
    r.item(message("user", "Also update the changelog"), 5.0)
    r.event("user_message", message="Also update the changelog", images=[])
    r.context().event("token_count", info=None, rate_limits={"primary": None})
    r.tokens(2000, 80, 2000, 80)
    r.item(message("assistant", "The changelog is updated."))
    return r
