"""The text of Inspect messages: a ``content`` that is a string or a list of parts."""

from __future__ import annotations

from typing import Any


def content_text(content: Any) -> str:
    """The text of a message's ``content`` (a string, or a list of parts: text and
    reasoning parts' text joined; other parts named by their type)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts: list[str] = []
    for part in content:
        if isinstance(part, str):
            parts.append(part)
        elif isinstance(part, dict):
            kind = part.get("type")
            if kind == "text" and isinstance(part.get("text"), str):
                parts.append(part["text"])
            elif kind == "reasoning" and isinstance(part.get("reasoning"), str):
                parts.append(part["reasoning"])
            elif kind is not None:
                parts.append(f"[{kind}]")
    return "\n\n".join(parts)


def input_text(value: Any) -> str:
    """A sample's ``input`` as text: the string, or its first user message's text."""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for m in value:
            if isinstance(m, dict) and m.get("role") == "user":
                return content_text(m.get("content"))
        for m in value:
            if isinstance(m, dict):
                return content_text(m.get("content"))
    return ""
