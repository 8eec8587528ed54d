"""What the words of Claude Code's lines say: a user's own prompt or not, the slash command
a line runs, a background agent's notification, the project a folder is of, and the roles
of the agent files no Task call started (a compaction's worker, a warmup request)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import msgspec

_NOT_PROMPTS = (
    "<command-",
    "<local-command",
    "Caveat:",
    "<task-notification",
    "[Request interrupted",
)


def is_prompt(text: str) -> bool:
    """A user's own words (not a command line, its output, a caveat or a notification)."""
    return bool(text.strip()) and not text.lstrip().startswith(_NOT_PROMPTS)


def command_line(text: str) -> str:
    """The slash command a prompt line runs (``/init --fast``), or "" when it runs none."""
    name = between(text, "<command-name>", "</command-name>")
    if not name:
        return ""
    return f"{name} {between(text, '<command-args>', '</command-args>')}".strip()


def between(text: str, start: str, end: str) -> str:
    i = text.find(start)
    if i < 0:
        return ""
    j = text.find(end, i + len(start))
    return text[i + len(start) : j if j >= 0 else None].strip()


COMPACTION_ROLE = (
    "compaction worker: Claude Code re-reads the conversation to summarise it when it "
    "compacts (the session's compact boundary links it); no Task call started it"
)

WARMUP = "Warmup"
"""The whole prompt of a warmup request: Claude Code 2.0.x sends one to each kind of agent
as it starts (to fill the prompt cache) and writes each as an ``agent-*.jsonl`` file, which
no Task call started."""
WARMUP_ROLE = (
    'warmup: a request Claude Code sent on its own as it started (the prompt "Warmup", to '
    "fill the prompt cache), not work of the session: no Task call started it"
)

_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


def project_of(folder: str, cwd: str | None) -> str:
    """The project a session is of: the folder Claude Code keeps it in
    (``~/.claude/projects/<the project's path, every character but letters and digits made
    a dash>``), decoded to that path, which is the session's first ``cwd`` when it encodes
    to the folder's name (the decoding alone cannot tell ``/a/my-app`` from
    ``/a/my/app``); a folder of another name (not under ``projects``): the ``cwd``."""
    if cwd and (not folder.startswith("-") or _NOT_ALNUM.sub("-", cwd) == folder):
        return cwd
    if folder.startswith("-"):
        return folder.replace("-", "/")
    return folder


NOTIFICATION = "<task-notification>"
"""How the later answer of a background agent starts (2.1.3xx: an ``Agent`` call answers at
once that it launched the agent; the agent's answer is a user line of its own)."""


@dataclass(frozen=True, slots=True)
class Notification:
    """A background agent's answer (``<task-notification>`` of 2.1.3xx).

    Attributes:
        call: The ``tool_use`` id of the agent call that launched it (``<tool-use-id>``).
        agent: The agent's id (``<task-id>``).
        status: Its ``<status>`` as written (``completed``, ``failed``, ``killed``).
        result: Its ``<result>`` text.
        summary: Its ``<summary>`` (``Agent "List files" finished``).
    """

    call: str
    agent: str
    status: str
    result: str
    summary: str

    @property
    def failed(self) -> bool:
        """The agent's work failed, as the notification says (a tool error of its call)."""
        return self.status == "failed"


def notification(text: str) -> Notification | None:
    """The background agent's answer a user line's text is, or None when it is no
    notification naming its call."""
    if not text.lstrip().startswith(NOTIFICATION):
        return None
    call = between(text, "<tool-use-id>", "</tool-use-id>")
    if not call:
        return None
    return Notification(
        call,
        between(text, "<task-id>", "</task-id>"),
        between(text, "<status>", "</status>"),
        between(text, "<result>", "</result>"),
        between(text, "<summary>", "</summary>"),
    )


class Launched(msgspec.Struct):
    isAsync: Any = None


_LAUNCHED = msgspec.json.Decoder(Launched)


def launched(raw: msgspec.Raw) -> bool:
    """Whether a result line's ``toolUseResult`` says its call runs on in the background
    (``isAsync``: its answer is a later ``<task-notification>``)."""
    data = bytes(raw)
    if not data.startswith(b"{") or b'"isAsync"' not in data:
        return False
    try:
        return _LAUNCHED.decode(data).isAsync is True
    except msgspec.DecodeError:
        return False
