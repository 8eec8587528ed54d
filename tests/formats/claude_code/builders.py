"""Small Claude Code sessions in the shapes the real CLI writes (1.0.x to 2.1.x; see
notes/research/claude-code.md): written here, never copied from real files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

SID = "5d1c0a4e-1111-4a2b-9c3d-000000000001"
OLD = "6e2d1b5f-2222-4a2b-9c3d-000000000002"
S = SID[:8]
"""The session's reference (its id's first 8 characters, as a short commit hash)."""
OS = OLD[:8]


def env(
    sid: str, version: str, uuid: str, parent: str | None, ts: str, **more: Any
) -> dict[str, Any]:
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/u/src/app",
        "sessionId": sid,
        "version": version,
        "gitBranch": "main",
        "uuid": uuid,
        "timestamp": ts,
        **more,
    }


def usage(inp: int, out: int, cache_read: int = 0) -> dict[str, Any]:
    return {
        "input_tokens": inp,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": cache_read,
        "output_tokens": out,
        "service_tier": "standard",
    }


def assistant(
    sid: str,
    version: str,
    uuid: str,
    ts: str,
    mid: str,
    block: dict[str, Any],
    use: dict[str, Any],
    stop: str | None,
    **more: Any,
) -> dict[str, Any]:
    return {
        **env(sid, version, uuid, "p", ts, **more),
        "type": "assistant",
        "requestId": "req_011C" + mid[-6:],
        "message": {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": "claude-sonnet-4-5",
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": use,
        },
    }


def result(
    sid: str,
    version: str,
    uuid: str,
    ts: str,
    call: str,
    content: Any,
    error: bool | None,
    tur: Any,
) -> dict[str, Any]:
    block: dict[str, Any] = {"tool_use_id": call, "type": "tool_result", "content": content}
    if error is not None:
        block["is_error"] = error
    return {
        **env(sid, version, uuid, "p", ts),
        "type": "user",
        "message": {"role": "user", "content": [block]},
        "toolUseResult": tur,
    }


def session_21(sid: str = SID, version: str = "2.1.40") -> list[Any]:
    """A 2.1 session: a prompt; one API response split over 4 lines (thinking, text, two
    parallel Bash calls, usage repeated); the two results in the other order; a failing
    call; an agent call with its subagent; a compaction; hooks; bookkeeping lines."""
    v = version
    return [
        {
            "type": "queue-operation",
            "operation": "dequeue",
            "timestamp": "2026-01-02T10:00:00.000Z",
            "sessionId": sid,
        },
        {
            "type": "file-history-snapshot",
            "messageId": "m1",
            "snapshot": {
                "messageId": "m1",
                "trackedFileBackups": {},
                "timestamp": "2026-01-02T10:00:00.000Z",
            },
            "isSnapshotUpdate": False,
        },
        {
            **env(sid, v, "u1", None, "2026-01-02T10:00:00.100Z"),
            "type": "user",
            "message": {"role": "user", "content": "Fix the failing build"},
        },
        assistant(
            sid,
            v,
            "a1",
            "2026-01-02T10:00:01.000Z",
            "msg_01",
            {"type": "thinking", "thinking": "Look first.", "signature": "x"},
            usage(10, 40, 100),
            "tool_use",
        ),
        assistant(
            sid,
            v,
            "a2",
            "2026-01-02T10:00:01.100Z",
            "msg_01",
            {"type": "text", "text": "Running two commands."},
            usage(10, 40, 100),
            "tool_use",
        ),
        assistant(
            sid,
            v,
            "a3",
            "2026-01-02T10:00:01.200Z",
            "msg_01",
            {
                "type": "tool_use",
                "id": "toolu_A",
                "name": "Bash",
                "input": {"command": "make", "description": "Build"},
            },
            usage(10, 40, 100),
            "tool_use",
        ),
        assistant(
            sid,
            v,
            "a4",
            "2026-01-02T10:00:01.300Z",
            "msg_01",
            {
                "type": "tool_use",
                "id": "toolu_B",
                "name": "Read",
                "input": {"file_path": "/home/u/src/app/Makefile"},
            },
            usage(10, 40, 100),
            "tool_use",
        ),
        {
            "type": "progress",
            "data": {"type": "hook_progress"},
            "toolUseID": "toolu_A",
            "parentToolUseID": "toolu_A",
            "timestamp": "2026-01-02T10:00:01.400Z",
            "sessionId": sid,
            "uuid": "g1",
            "parentUuid": "a4",
            "isSidechain": False,
        },
        result(
            sid,
            v,
            "r2",
            "2026-01-02T10:00:02.000Z",
            "toolu_B",
            "all: build",
            None,
            {
                "type": "text",
                "file": {"filePath": "/home/u/src/app/Makefile", "content": "all: build"},
            },
        ),
        result(
            sid,
            v,
            "r1",
            "2026-01-02T10:00:03.000Z",
            "toolu_A",
            "Exit code 2",
            True,
            "Error: Exit code 2",
        ),
        assistant(
            sid,
            v,
            "a5",
            "2026-01-02T10:00:04.000Z",
            "msg_02",
            {
                "type": "tool_use",
                "id": "toolu_C",
                "name": "Task",
                "input": {
                    "description": "Find the bug",
                    "prompt": "Look at main.c",
                    "subagent_type": "general-purpose",
                },
            },
            usage(200, 30),
            "tool_use",
        ),
        result(
            sid,
            v,
            "r3",
            "2026-01-02T10:00:06.000Z",
            "toolu_C",
            [{"type": "text", "text": "main.c line 3"}],
            False,
            {
                "status": "completed",
                "agentId": "a5f00d1",
                "content": [{"type": "text", "text": "main.c line 3"}],
                "totalTokens": 900,
            },
        ),
        {
            **env(sid, v, "s1", None, "2026-01-02T10:00:07.000Z"),
            "type": "system",
            "subtype": "compact_boundary",
            "content": "Conversation compacted",
            "level": "info",
            "logicalParentUuid": "r3",
            "compactMetadata": {"trigger": "manual", "preTokens": 2565},
        },
        {
            **env(sid, v, "u2", "s1", "2026-01-02T10:00:07.100Z"),
            "type": "user",
            "isCompactSummary": True,
            "isVisibleInTranscriptOnly": True,
            "message": {
                "role": "user",
                "content": "This session is being continued from a previous conversation.",
            },
        },
        assistant(
            sid,
            v,
            "a6",
            "2026-01-02T10:00:08.000Z",
            "msg_03",
            {"type": "text", "text": "Fixed: main.c line 3."},
            usage(300, 20),
            "end_turn",
        ),
        {
            **env(sid, v, "s2", "a6", "2026-01-02T10:00:08.100Z"),
            "type": "system",
            "subtype": "stop_hook_summary",
            "hookCount": 1,
            "hookInfos": [{"command": "echo ok", "durationMs": 5}],
            "hookErrors": [],
            "level": "suggestion",
        },
        {
            **env(sid, v, "s3", "s2", "2026-01-02T10:00:08.200Z"),
            "type": "system",
            "subtype": "turn_duration",
            "durationMs": 8100,
        },
        {"type": "brand-new-line-type", "whatever": {"x": 1}},
    ]


def subagent_21(sid: str = SID) -> list[Any]:
    v = "2.1.40"
    return [
        {
            **env(sid, v, "x1", None, "2026-01-02T10:00:04.500Z", agentId="a5f00d1"),
            "isSidechain": True,
            "type": "user",
            "message": {"role": "user", "content": "Look at main.c"},
        },
        {
            **assistant(
                sid,
                v,
                "x2",
                "2026-01-02T10:00:05.000Z",
                "msg_09",
                {"type": "text", "text": "main.c line 3"},
                usage(50, 10),
                "end_turn",
                agentId="a5f00d1",
            ),
            "isSidechain": True,
        },
    ]


def session_10(sid: str = OLD) -> list[Any]:
    """A 1.0 session: a summary line first, streaming snapshots (partial usage,
    ``stop_reason: null``), ``is_error`` absent on a success."""
    v = "1.0.98"
    return [
        {"type": "summary", "summary": "Setup notes", "leafUuid": "z"},
        {
            **env(sid, v, "u1", None, "2025-09-01T08:00:00.000Z"),
            "type": "user",
            "message": {"role": "user", "content": [{"type": "text", "text": "Write the notes"}]},
        },
        assistant(
            sid,
            v,
            "a1",
            "2025-09-01T08:00:01.000Z",
            "msg_11",
            {"type": "text", "text": "Writing."},
            usage(5, 3),
            None,
        ),
        assistant(
            sid,
            v,
            "a2",
            "2025-09-01T08:00:01.500Z",
            "msg_11",
            {
                "type": "tool_use",
                "id": "toolu_W",
                "name": "Write",
                "input": {"file_path": "notes.md", "content": "x"},
            },
            usage(5, 172),
            None,
        ),
        result(
            sid,
            v,
            "r1",
            "2025-09-01T08:00:02.000Z",
            "toolu_W",
            "File created",
            None,
            {"type": "create", "filePath": "notes.md"},
        ),
        assistant(
            sid,
            v,
            "a3",
            "2025-09-01T08:00:03.000Z",
            "msg_12",
            {"type": "text", "text": "Done."},
            usage(20, 4),
            "end_turn",
        ),
    ]


COMPACTOR = "acompact-7f3e2a91c04b5d68"


def acompact_21(sid: str = SID) -> list[Any]:
    """A compaction's worker (``<session>/subagents/agent-acompact-*.jsonl``): the
    conversation re-read, a summary written; the parent's ``sessionId``."""
    v = "2.1.40"
    return [
        {
            **env(sid, v, "c1", None, "2026-01-02T10:00:06.200Z", agentId=COMPACTOR),
            "isSidechain": True,
            "type": "user",
            "message": {
                "role": "user",
                "content": "Your task is to create a detailed summary of the conversation so far",
            },
        },
        {
            **assistant(
                sid,
                v,
                "c2",
                "2026-01-02T10:00:06.900Z",
                "msg_c1",
                {"type": "text", "text": "<summary>Build fixed in main.c</summary>"},
                usage(2400, 120),
                "end_turn",
                agentId=COMPACTOR,
            ),
            "isSidechain": True,
        },
    ]


SIDE = "7a3e9c10-3333-4a2b-9c3d-000000000003"


def session_10_sidechain(sid: str = SIDE) -> list[Any]:
    """A 1.0 session whose Task call's subagent wrote its lines into the session's own
    file (``isSidechain: true``, its first line ``parentUuid: null``; the result names no
    agent id). Main thread: 3 API responses (msg_21 split over 2 lines), 2 tool calls
    (Read, Task), 1 failed (Read); tokens 10+30+60 in, 7+5+9 out. Sidechain: 2 API
    responses, 2 tool calls (Bash twice), 1 failed; tokens 40+45 in, 8+6 out."""
    v = "1.0.98"

    def side(obj: dict[str, Any]) -> dict[str, Any]:
        return {**obj, "isSidechain": True}

    prompt = "SUBAGENT: find the config"
    return [
        {
            **env(sid, v, "u1", None, "2025-09-02T08:00:00.000Z"),
            "type": "user",
            "message": {"role": "user", "content": "Find the config and read it"},
        },
        assistant(
            sid,
            v,
            "a1",
            "2025-09-02T08:00:01.000Z",
            "msg_21",
            {"type": "text", "text": "On it."},
            usage(10, 1),
            None,
        ),
        assistant(
            sid,
            v,
            "a2",
            "2025-09-02T08:00:01.200Z",
            "msg_21",
            {"type": "tool_use", "id": "toolu_R", "name": "Read", "input": {"file_path": "x"}},
            usage(10, 7),
            None,
        ),
        result(
            sid,
            v,
            "r1",
            "2025-09-02T08:00:01.500Z",
            "toolu_R",
            "File does not exist.",
            True,
            "Error: File does not exist.",
        ),
        assistant(
            sid,
            v,
            "a3",
            "2025-09-02T08:00:02.000Z",
            "msg_22",
            {
                "type": "tool_use",
                "id": "toolu_T",
                "name": "Task",
                "input": {"description": "Find", "prompt": prompt, "subagent_type": "general"},
            },
            usage(30, 5),
            None,
        ),
        side(
            {
                **env(sid, v, "s1", None, "2025-09-02T08:00:02.100Z"),
                "type": "user",
                "message": {"role": "user", "content": prompt},
            }
        ),
        side(
            assistant(
                sid,
                v,
                "s2",
                "2025-09-02T08:00:03.000Z",
                "msg_31",
                {
                    "type": "tool_use",
                    "id": "toolu_B1",
                    "name": "Bash",
                    "input": {"command": "cat c"},
                },
                usage(40, 8),
                None,
            )
        ),
        side(
            result(
                sid,
                v,
                "s3",
                "2025-09-02T08:00:03.500Z",
                "toolu_B1",
                "cat: c: No such file",
                True,
                "Error: cat: c: No such file",
            )
        ),
        side(
            assistant(
                sid,
                v,
                "s4",
                "2025-09-02T08:00:04.000Z",
                "msg_32",
                {"type": "tool_use", "id": "toolu_B2", "name": "Bash", "input": {"command": "ls"}},
                usage(45, 6),
                None,
            )
        ),
        side(
            result(
                sid,
                v,
                "s5",
                "2025-09-02T08:00:04.500Z",
                "toolu_B2",
                "config.toml",
                None,
                {"stdout": "config.toml", "stderr": "", "interrupted": False, "isImage": False},
            )
        ),
        result(
            sid,
            v,
            "r2",
            "2025-09-02T08:00:05.000Z",
            "toolu_T",
            [{"type": "text", "text": "It is config.toml"}],
            None,
            {
                "content": [{"type": "text", "text": "It is config.toml"}],
                "totalDurationMs": 2900,
                "totalTokens": 99,
                "totalToolUseCount": 2,
                "usage": usage(45, 6),
            },
        ),
        assistant(
            sid,
            v,
            "a4",
            "2025-09-02T08:00:06.000Z",
            "msg_23",
            {"type": "text", "text": "The config is config.toml."},
            usage(60, 9),
            "end_turn",
        ),
    ]


def write_lines(path: Path, objs: list[Any], tail: str = "") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(o) + "\n" for o in objs) + tail)
    return path


def projects(d: Path) -> Path:
    """A ``~/.claude/projects`` folder: a project with a 2.1 session (and its subagent)
    and a 1.0 session."""
    root = d / "projects"
    proj = root / "-home-u-src-app"
    write_lines(proj / f"{SID}.jsonl", session_21())
    write_lines(proj / SID / "subagents" / "agent-a5f00d1.jsonl", subagent_21())
    write_lines(proj / f"{OLD}.jsonl", session_10())
    return root


def example(d: Path) -> Path:
    """One 2.1 session file (of :func:`projects`)."""
    return projects(d) / "-home-u-src-app" / f"{SID}.jsonl"


WARM = "8c4d2e6f-4444-4a2b-9c3d-000000000004"


def warmup_20(agent: str, sid: str = WARM) -> list[Any]:
    """A warmup request's file of 2.0.77 (``agent-<id>.jsonl`` beside the session): the
    prompt ``Warmup`` the CLI sends on its own as it starts, the model's answer asking for a
    tool, and the CLI refusing the call (``Error: Warmup``); no Task call started it."""
    v = "2.0.77"
    return [
        {
            **env(sid, v, "w1", None, "2026-02-03T09:00:00.000Z", agentId=agent),
            "isSidechain": True,
            "type": "user",
            "message": {"role": "user", "content": "Warmup"},
        },
        {
            **assistant(
                sid,
                v,
                "w2",
                "2026-02-03T09:00:01.000Z",
                "msg_w" + agent,
                {"type": "tool_use", "id": "toolu_w" + agent, "name": "Bash", "input": {}},
                usage(8, 37, 2400),
                "tool_use",
                agentId=agent,
            ),
            "isSidechain": True,
        },
        {
            **result(
                sid,
                v,
                "w3",
                "2026-02-03T09:00:01.500Z",
                "toolu_w" + agent,
                "Warmup",
                True,
                "Error: Warmup",
            ),
            "isSidechain": True,
            "agentId": agent,
        },
    ]


def project_20(d: Path) -> Path:
    """A 2.0.77 project folder: a session whose Task call's subagent is ``agent-a13faba``
    beside it, and two warmup requests' files (``agent-a205736``, ``agent-a94768a``)."""
    proj = d / "-home-u-src-warm"
    lines = session_21(WARM, "2.0.77")
    for obj in lines:
        said = obj.get("toolUseResult")
        if isinstance(said, dict) and said.get("agentId") == "a5f00d1":
            said["agentId"] = "a13faba"
    write_lines(proj / f"{WARM}.jsonl", lines)
    sub = subagent_21(WARM)
    for obj in sub:
        obj["agentId"], obj["version"] = "a13faba", "2.0.77"
    write_lines(proj / "agent-a13faba.jsonl", sub)
    for agent in ("a205736", "a94768a"):
        write_lines(proj / f"agent-{agent}.jsonl", warmup_20(agent))
    return proj


ASYNC = "9d5e3f70-5555-4a2b-9c3d-000000000005"


def _launched(sid: str, uuid: str, ts: str, call: str, agent: str) -> dict[str, Any]:
    text = (
        "Async agent launched successfully.\n"
        f"agentId: {agent} (internal ID - do not mention to user.)\n"
        "The agent is working in the background. You will be notified automatically when "
        "it completes."
    )
    return result(
        sid,
        "2.1.332",
        uuid,
        ts,
        call,
        [{"type": "text", "text": text}],
        None,
        {"isAsync": True, "status": "async_launched", "agentId": agent, "description": "x"},
    )


def _notice(call: str, agent: str, status: str, said: str) -> str:
    return (
        f"<task-notification>\n<task-id>{agent}</task-id>\n<tool-use-id>{call}</tool-use-id>\n"
        f"<status>{status}</status>\n<summary>Agent finished</summary>\n"
        f"<result>{said}</result>\n<usage><subagent_tokens>900</subagent_tokens>"
        "<tool_uses>1</tool_uses><duration_ms>630</duration_ms></usage>\n</task-notification>"
    )


def session_async(sid: str = ASYNC) -> list[Any]:
    """A 2.1.332 session whose two ``Agent`` calls run in the background: each answers at
    once that it launched (``isAsync``), the model answers, and each agent's answer comes
    later as a user line (``<task-notification>``, after a ``queue-operation``): the first
    completed, the second failed. 2 tool calls, 1 tool error."""
    v = "2.1.332"
    ask = {"type": "tool_use", "name": "Agent"}
    notes = [
        ("toolu_G1", "a1110000000000001", "completed", "There are 3 files."),
        ("toolu_G2", "a2220000000000002", "failed", "The test run crashed."),
    ]
    lines: list[Any] = [
        {
            **env(sid, v, "u1", None, "2026-03-04T10:00:00.000Z"),
            "type": "user",
            "message": {"role": "user", "content": "Survey the repo"},
        },
        assistant(
            sid,
            v,
            "a1",
            "2026-03-04T10:00:01.000Z",
            "msg_A",
            {**ask, "id": "toolu_G1", "input": {"description": "List files", "prompt": "ls"}},
            usage(10, 20),
            "tool_use",
        ),
        assistant(
            sid,
            v,
            "a2",
            "2026-03-04T10:00:01.100Z",
            "msg_A",
            {**ask, "id": "toolu_G2", "input": {"description": "Run tests", "prompt": "t"}},
            usage(10, 20),
            "tool_use",
        ),
        _launched(sid, "r1", "2026-03-04T10:00:01.200Z", "toolu_G1", notes[0][1]),
        _launched(sid, "r2", "2026-03-04T10:00:01.300Z", "toolu_G2", notes[1][1]),
        assistant(
            sid,
            v,
            "a3",
            "2026-03-04T10:00:02.000Z",
            "msg_B",
            {"type": "text", "text": "Both agents are working."},
            usage(30, 5),
            "end_turn",
        ),
    ]
    for n, (call, agent, status, said) in enumerate(notes):
        text = _notice(call, agent, status, said)
        at = f"2026-03-04T10:00:0{3 + 2 * n}.000Z"
        lines += [
            {
                "type": "queue-operation",
                "operation": "enqueue",
                "timestamp": at,
                "sessionId": sid,
                "content": text,
            },
            {
                **env(sid, v, f"n{n}", "a3", at),
                "type": "user",
                "promptSource": "system",
                "origin": {"kind": "task-notification"},
                "message": {"role": "user", "content": text},
            },
            assistant(
                sid,
                v,
                f"b{n}",
                f"2026-03-04T10:00:0{4 + 2 * n}.000Z",
                f"msg_C{n}",
                {"type": "text", "text": said},
                usage(40, 6),
                "end_turn",
            ),
        ]
    return lines
