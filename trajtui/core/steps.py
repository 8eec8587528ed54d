"""Timeline logic shared by formats and views: a call never completed, the time between a
call's halves, merging streamed chunks.

Agents stream their answer: each chunk is its own ``message`` step, a hundred per record is
normal; views merge them (:func:`merge_chunks`). How a format pairs the halves of its tool
calls is the format's own (an acp-harness capture's: :mod:`trajtui.formats.acp.pairing`); a
step says its other half in :attr:`~trajtui.core.model.Step.pair`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from trajtui.core.model import Kind, Step

_OPEN = {"pending", "in_progress"}
"""Status words of a tool call's opening half."""


def never_completed(step: Step) -> bool:
    """A tool call opened (``pending``/``in_progress``) that no later step of the file
    completes (pairing found no other half)."""
    return step.kind is Kind.TOOL_CALL and step.status in _OPEN and step.pair is None


def pair_latency(step: Step, steps: Sequence[Step]) -> float | None:
    """Milliseconds from a paired tool call's opening half to its completion, from the
    two steps' own offsets; None when the step is not paired or an offset is missing."""
    if step.pair is None or not 1 <= step.pair <= len(steps):
        return None
    other = steps[step.pair - 1]
    if step.offset_ms is None or other.offset_ms is None:
        return None
    return abs(other.offset_ms - step.offset_ms)


@dataclass(frozen=True, slots=True)
class Group:
    """One line of a timeline with streamed chunks merged.

    Attributes:
        first: Position (0-based) of the first step in the group.
        last: Position of the last step (``== first`` for a single step).
        kind: The kind of the steps.
        text: The merged text (None for groups of one step).
    """

    first: int
    last: int
    kind: Kind
    text: str | None = None

    @property
    def size(self) -> int:
        """Number of steps in the group."""
        return self.last - self.first + 1


def merge_chunks(steps: Sequence[Step]) -> list[Group]:
    """Group adjacent message (or thought) steps into one line each.

    The text of a group is the chunks joined as the agent streamed them. Other steps stay
    alone. Empty chunks are merged too: they are part of the stream.
    """
    groups: list[Group] = []
    i = 0
    n = len(steps)
    while i < n:
        kind = steps[i].kind
        j = i
        if kind in (Kind.MESSAGE, Kind.THOUGHT):
            while j + 1 < n and steps[j + 1].kind is kind:
                j += 1
        if j == i:
            groups.append(Group(i, i, kind))
        else:
            text = "".join(s.text or "" for s in steps[i : j + 1])
            groups.append(Group(i, j, kind, text))
        i = j + 1
    return groups
