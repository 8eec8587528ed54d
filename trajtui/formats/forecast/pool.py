"""A forecast run's message pool.

The forecast agent (mini-prophet) stores every message once, under a role-prefixed key
(``S0`` system, ``U0`` user, ``A0`` assistant, ``T0`` tool, ``O0`` other), and each step as
the list of keys the model saw plus the key it produced. :class:`MessagePool` resolves keys
lazily: messages are decoded into :class:`Message` objects only when asked for.

Web sources live in another namespace (:mod:`~.board`): ``S3`` the message and ``S3`` the
source are different things, and the two modules never mix them. A message cites sources by
their ids (:meth:`Message.cited`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.text import one_line
from trajtui.core.values import mapping, sequence, string

ROLE_BY_PREFIX = {"S": "system", "U": "user", "A": "assistant", "T": "tool", "O": "other"}
CITED_ID = re.compile(r"(?<![A-Za-z0-9_])S(\d+)(?![A-Za-z0-9_])")
"""A web source's id (``S3``) in a message's text."""


def content_text(content: Any) -> str:
    """Text of an OpenAI-style ``content`` (a string, or a list of parts)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for part in content:
            if isinstance(part, str):
                parts.append(part)
            elif isinstance(part, dict) and isinstance(part.get("text"), str):
                parts.append(part["text"])
        return "\n".join(parts)
    return ""


@dataclass(frozen=True, slots=True)
class ToolCall:
    """One tool call requested by an assistant message.

    Attributes:
        id: The call id (``call_0001``).
        name: The tool's name.
        arguments: The arguments as in the file (a JSON string, usually).
    """

    id: str | None
    name: str
    arguments: Any


@dataclass(frozen=True, slots=True)
class Message:
    """One message of the pool.

    Attributes:
        key: Its key (``A3``).
        role: ``role`` from the file (or from the key's prefix when absent).
        text: Its text content.
        tool_calls: Tool calls it requests (assistant messages).
        tool_call_id: The call it answers (tool messages).
        extra: The ``extra`` object (cost, usage, flags).
        raw: The pool entry's ``message`` as in the file.
    """

    key: str
    role: str
    text: str
    tool_calls: tuple[ToolCall, ...]
    tool_call_id: str | None
    extra: dict[str, Any]
    raw: Any

    @property
    def is_board_state(self) -> bool:
        """A system message that shows the source board (added at every step)."""
        return self.extra.get("is_board_state") is True

    @property
    def is_truncation_notice(self) -> bool:
        """A user message saying earlier context was dropped."""
        return self.extra.get("is_truncation_notice") is True or self.text.startswith(
            "[Context truncated"
        )

    @property
    def is_format_error(self) -> bool:
        """A user message sent back after the model made no valid tool call."""
        return self.extra.get("interrupt_type") == "FormatError"

    @property
    def is_error(self) -> bool:
        """A tool result that is an error."""
        return self.extra.get("error") is True or self.text.lstrip().startswith("<error>")

    @property
    def title(self) -> str:
        """One line for lists: the first line of text, or the tool calls."""
        if self.text.strip():
            return one_line(self.text)
        if self.tool_calls:
            return ", ".join(f"{c.name}()" for c in self.tool_calls)
        return "(empty)"

    def cited(self) -> list[str]:
        """Ids of the web sources (``S3``) cited in the text and in tool-call arguments."""
        found: list[str] = []
        texts = [self.text, *(str(c.arguments) for c in self.tool_calls)]
        for text in texts:
            for m in CITED_ID.finditer(text):
                sid = f"S{m.group(1)}"
                if sid not in found:
                    found.append(sid)
        return found


def _message(key: str, raw: Any) -> Message:
    m = mapping(raw)
    calls = []
    for call in sequence(m.get("tool_calls")):
        c = mapping(call)
        fn = mapping(c.get("function"))
        calls.append(
            ToolCall(
                id=string(c.get("id")),
                name=string(fn.get("name")) or string(c.get("name")) or "?",
                arguments=fn.get("arguments", c.get("arguments")),
            )
        )
    role = string(m.get("role")) or ROLE_BY_PREFIX.get(key[:1], "other")
    return Message(
        key=key,
        role=role,
        text=content_text(m.get("content")),
        tool_calls=tuple(calls),
        tool_call_id=string(m.get("tool_call_id")),
        extra=mapping(m.get("extra")),
        raw=raw,
    )


class MessagePool:
    """The messages of one forecast run, by key, decoded on demand."""

    def __init__(self, entries: Sequence[tuple[str, Any]]) -> None:
        """Args:
        entries: ``(key, message)`` pairs in file order (the raw message objects).
        """
        self._entries = list(entries)
        self._pos: dict[str, int] = {}
        for i, (key, _) in enumerate(self._entries):
            self._pos.setdefault(key, i)
        self._cache: dict[str, Message] = {}

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> list[str]:
        """Every key, in file order."""
        return [k for k, _ in self._entries]

    def raw(self, key: str) -> Any:
        """The message as in the file, or None."""
        i = self._pos.get(key)
        return None if i is None else self._entries[i][1]

    def get(self, key: str) -> Message | None:
        """The message with this key, or None."""
        msg = self._cache.get(key)
        if msg is None:
            i = self._pos.get(key)
            if i is None:
                return None
            msg = _message(key, self._entries[i][1])
            self._cache[key] = msg
        return msg

    def messages(self, keys: Sequence[str]) -> list[Message | None]:
        """The messages for ``keys`` in order (None for a key the pool does not have)."""
        return [self.get(k) for k in keys]
