"""One line of a Codex CLI rollout, whatever version wrote it, as (tag, payload, time).

Three shapes of line are read (the research notes name the versions):

* the RolloutLine of 0.3x on (``{"timestamp", "type", "payload"}``; 0.171 also writes
  ``ordinal`` before ``type`` and ``metadata`` after ``payload``): the tag is ``type``;
* the flat rollout of the 0.1x-0.2x Rust CLI: a header line ``{"id", "timestamp",
  "instructions", "git"}`` (tag ``session_meta``), ``{"record_type": "state"}`` lines (tag
  ``state``), and bare Responses API items (tag ``response_item``), none with a time;
* the items of a TypeScript 0.1.x ``rollout-*.json`` document, read as bare items.

Nothing here decides what a line shows: :mod:`.items` and :mod:`.steps` do.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from trajtui.core.values import mapping, string

SESSION_META = "session_meta"
RESPONSE_ITEM = "response_item"
EVENT_MSG = "event_msg"
TURN_CONTEXT = "turn_context"
COMPACTED = "compacted"
STATE = "state"
NOT_OBJECT = "not_object"

ITEM_TYPES = frozenset(
    {
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
        "custom_tool_call",
        "custom_tool_call_output",
        "local_shell_call",
        "web_search_call",
        "ghost_snapshot",
        "compaction",
        "context_compaction",
        "additional_tools",
        "image_generation_call",
        "tool_search_call",
        "tool_search_output",
    }
)
"""Response item types a flat (0.1x-0.2x) rollout writes as bare lines (and newer ones)."""

HIDDEN_TAGS = frozenset(
    {TURN_CONTEXT, STATE, "world_state", "token_usage_record", "inter_agent_communication"}
)
"""Top-level lines that are bookkeeping: folded into the run's facts, never a step."""


@dataclass(frozen=True, slots=True)
class Line:
    """A rollout line, normalised.

    Attributes:
        tag: What the line is (``session_meta``, ``response_item``, ``event_msg``,
            ``turn_context``, ``compacted``, ``state``, another top-level type as written,
            or ``not_object``).
        payload: The line's payload object (the item, the event, the header), or ``{}``.
        kind: The payload's own ``type`` (the item or event type), or None.
        time: The line's write time in epoch ms, or None (flat rollouts have none).
    """

    tag: str
    payload: dict[str, Any]
    kind: str | None
    time: float | None


def epoch_ms(value: Any) -> float | None:
    """An ISO 8601 time (``2026-11-26T13:30:48.969Z``) in epoch ms, or None."""
    text = string(value)
    if not text:
        return None
    try:
        return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp() * 1000.0
    except ValueError:
        return None


def is_flat_header(obj: dict[str, Any]) -> bool:
    """The first line of a flat 0.1x-0.2x rollout: ``id`` and ``timestamp``, no ``type``,
    and the keys only that header has (``instructions`` or ``git``)."""
    return (
        "type" not in obj
        and isinstance(obj.get("id"), str)
        and isinstance(obj.get("timestamp"), str)
        and ("instructions" in obj or "git" in obj)
    )


def normalise(obj: Any) -> Line:
    """The line ``obj`` (one parsed JSON value) as a :class:`Line`."""
    if not isinstance(obj, dict):
        return Line(NOT_OBJECT, {}, None, None)
    tag = obj.get("type")
    if isinstance(tag, str) and "payload" in obj:
        payload = mapping(obj.get("payload"))
        return Line(tag, payload, string(payload.get("type")), epoch_ms(obj.get("timestamp")))
    if "record_type" in obj and "type" not in obj:
        return Line(STATE, obj, None, None)
    if is_flat_header(obj):
        return Line(SESSION_META, obj, None, None)
    if isinstance(tag, str):  # a bare response item (flat rollout, TS document)
        return Line(RESPONSE_ITEM, obj, tag, epoch_ms(obj.get("timestamp")))
    return Line(string(obj.get("type")) or "unknown", obj, None, epoch_ms(obj.get("timestamp")))
