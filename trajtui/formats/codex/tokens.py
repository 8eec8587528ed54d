"""A rollout's token use, from its ``token_count`` events.

Each event's ``info.total_token_usage`` is the thread's cumulative total so far, and
``last_token_usage`` the last request's; the events repeat (the same total written twice),
so they are never summed. What the file says, and how it is read (each seen in a rollout
written by the real CLI):

* the **last total** is the session's use, when nothing below applies;
* a **resumed** session (``codex exec resume``, same file appended) continues the total in
  0.171, but restarts it from 0 in 0.60: a total lower than the one before starts a new
  count, and the session's use is the sum of each count's last total (``restarts`` says
  how many times it restarted);
* a **forked** session starts from its parent's total (0.171 seeds it from the parent's
  history, copied into the file or not): a count's first event says ``total - last`` was
  there before its first request, and that is the parent's, inherited, not this session's.

``input_tokens`` includes the cached ones, ``output_tokens`` the reasoning ones.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from trajtui.core.values import count, mapping


@dataclass(frozen=True, slots=True)
class Tokens:
    """Token figures as ``token_count`` names them (None: the file gives none)."""

    input: int | None
    cached_input: int | None
    output: int | None
    reasoning_output: int | None
    total: int | None

    @classmethod
    def of(cls, usage: Any) -> Tokens | None:
        """A ``*_token_usage`` object's figures, or None when it is none."""
        u = mapping(usage)
        if not u:
            return None
        return cls(
            count(u.get("input_tokens")),
            count(u.get("cached_input_tokens")),
            count(u.get("output_tokens")),
            count(u.get("reasoning_output_tokens")),
            count(u.get("total_tokens")),
        )

    def _zip(self, other: Tokens, sign: int) -> Tokens:
        values = []
        for f in fields(self):
            a, b = getattr(self, f.name), getattr(other, f.name)
            values.append(None if a is None else max(0, a + sign * (b or 0)))
        return Tokens(*values)

    def plus(self, other: Tokens) -> Tokens:
        return self._zip(other, 1)

    def minus(self, other: Tokens) -> Tokens:
        return self._zip(other, -1)

    @property
    def any(self) -> bool:
        return any(getattr(self, f.name) for f in fields(self))

    def size(self) -> int:
        """The figure a restart is told by: the total, else input and output."""
        if self.total is not None:
            return self.total
        return (self.input or 0) + (self.output or 0)


ZERO = Tokens(0, 0, 0, 0, 0)


class TokenTally:
    """Feed it every ``token_count`` event's ``info`` in file order (:meth:`add`)."""

    def __init__(self) -> None:
        self.done = ZERO  # the finished counts' own use
        self.base: Tokens | None = None  # what the current count started from
        self.last: Tokens | None = None  # the current count's last total
        self.inherited: Tokens | None = None  # the first count's start, when not 0
        self.restarts = 0

    def add(self, info: Any) -> None:
        info = mapping(info)
        total = Tokens.of(info.get("total_token_usage"))
        if total is None:
            return
        first = Tokens.of(info.get("last_token_usage")) or ZERO
        if self.last is not None and total.size() < self.last.size():  # the count restarted
            self.done = self.last.minus(self.base or ZERO).plus(self.done)
            self.restarts += 1
            self.base = total.minus(first)
        elif self.last is None:
            self.base = total.minus(first)
            if self.base.any:
                self.inherited = self.base
        self.last = total

    def own(self) -> Tokens | None:
        """The session's own use (see the module), or None when no event gave a total."""
        if self.last is None:
            return None
        return self.last.minus(self.base or ZERO).plus(self.done)
