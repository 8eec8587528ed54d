"""What one Responses API item or Codex event says: its text, whether a user message is the
user's or context Codex injected, a tool call's input, and whether its output failed.

Codex writes no success flag for a tool's output: a command's exit code is in the output
text, spelled by version (0.20 ``{"output", "metadata": {"exit_code"}}`` as a JSON string,
0.60 ``Exit code: N``, 0.171 ``Process exited with code N``); :func:`exit_code` reads the
three, and an output with none of them is of unknown outcome (never a success).
"""

from __future__ import annotations

import re
from typing import Any

import orjson

from trajtui.core.values import integer, mapping, sequence, string

CALL_TYPES = frozenset(
    {"function_call", "custom_tool_call", "local_shell_call", "tool_search_call"}
)
"""Items that call a tool and are answered by an output item with the same ``call_id``."""

STATUS_CALL_TYPES = frozenset({"web_search_call", "image_generation_call"})
"""Items that call a tool the model's server runs: no output item follows, their own
``status`` says how it went."""

OUTPUT_TYPES = frozenset({"function_call_output", "custom_tool_call_output", "tool_search_output"})
"""Items that answer a call (by ``call_id``)."""

_INJECTED = (
    "<environment_context>",
    "<user_instructions>",
    "<skills_instructions>",
    "<permissions instructions>",
    "<apps_instructions>",
    "<collaboration_mode>",
    "<user_shell_command>",
    "# AGENTS.md",
    "# agents.md",
)
_TAG = re.compile(r"^<([a-z_]+)[ >]")


def content_text(content: Any) -> str:
    """The text of a message's ``content`` (a string, or a list of ``input_text`` /
    ``output_text`` / ``text`` parts joined by blank lines; an image part as ``[image]``)."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for part in sequence(content):
        m = mapping(part)
        text = string(m.get("text"))
        if text is not None:
            parts.append(text)
        elif str(m.get("type", "")).endswith("image"):
            parts.append("[image]")
    return "\n\n".join(parts)


def injected(text: str) -> str | None:
    """What context Codex injected as a user message (``environment_context``,
    ``turn_aborted``, ``AGENTS.md``...), or None for the user's own words."""
    head = text.lstrip()
    for mark in _INJECTED:
        if head.startswith(mark):
            return mark.strip("<>#").strip()
    m = _TAG.match(head)
    if m is not None and head.rstrip().endswith(f"</{m.group(1)}>"):
        return m.group(1)
    return None


def leading_tag(text: str) -> str | None:
    """The tag a developer message starts with (``permissions instructions``), or its
    first line."""
    head = text.lstrip()
    m = re.match(r"^<([A-Za-z_][A-Za-z_ -]*)>", head)
    if m is not None:
        return m.group(1)
    first = head.split("\n", 1)[0].strip()
    return first or None


def reasoning_text(item: dict[str, Any]) -> str:
    """A reasoning item's readable text: its ``summary`` parts, else its raw ``content``
    (open models); never ``encrypted_content``."""
    text = "\n\n".join(
        t for t in (string(mapping(s).get("text")) for s in sequence(item.get("summary"))) if t
    )
    return text or content_text(item.get("content"))


def parse_json_text(text: Any) -> Any:
    """``text`` parsed when it is a JSON object or array written as a string (a call's
    ``arguments``), else ``text`` as it is."""
    if isinstance(text, str) and text[:1] in ("{", "["):
        try:
            return orjson.loads(text)
        except orjson.JSONDecodeError:
            return text
    return text


_ITEM_TOOLS = {
    "local_shell_call": "local_shell",
    "web_search_call": "web_search",
    "image_generation_call": "image_generation",
    "tool_search_call": "tool_search",
}


def call_tool(item: dict[str, Any]) -> str:
    """The tool a call item calls (``local_shell_call``: ``local_shell``)."""
    kind = item.get("type")
    if kind in _ITEM_TOOLS:
        return _ITEM_TOOLS[str(kind)]
    return string(item.get("name")) or "(unnamed tool)"


def failed_call(kind: str | None, event: dict[str, Any]) -> str | None:
    """The call id an event says failed, or None: a 0.171 ``item_completed`` whose item is
    ``failed``, an ``exec_command_end`` with an exit code other than 0, a
    ``patch_apply_end`` not ``success``, an ``mcp_tool_call_end`` whose result is an
    ``Err`` or ``isError`` (the TUI writes the last three; ``codex exec`` mostly not)."""
    if kind == "item_completed":
        item = mapping(event.get("item"))
        return string(item.get("id")) if item.get("status") == "failed" else None
    failed = False
    if kind == "exec_command_end":
        code = integer(event.get("exit_code"))
        failed = (code is not None and code != 0) or event.get("status") == "failed"
    elif kind == "patch_apply_end":
        failed = event.get("success") is False or event.get("status") == "failed"
    elif kind == "mcp_tool_call_end":
        result = mapping(event.get("result"))
        failed = "Err" in result or mapping(result.get("Ok")).get("isError") is True
    return string(event.get("call_id")) if failed else None


def call_input(item: dict[str, Any]) -> Any:
    """A call's input as the file has it: ``arguments`` parsed from its JSON string, a
    custom tool's freeform ``input`` as text, a local shell's ``action``, a web search's
    ``action``."""
    kind = item.get("type")
    if kind == "function_call":
        return parse_json_text(item.get("arguments"))
    if kind == "custom_tool_call":
        return item.get("input")
    return item.get("action")


def call_summary(item: dict[str, Any]) -> str:
    """A short line of what a call does: its command, its patch's first file, its query."""
    value = call_input(item)
    args = mapping(value)
    for key in ("command", "cmd", "query", "path", "chars"):
        found = args.get(key)
        if isinstance(found, list) and all(isinstance(a, str) for a in found):
            words = [str(a) for a in found]
            if len(words) >= 3 and words[1] in ("-lc", "-c"):  # bash -lc "…"
                return words[2]
            return " ".join(words)
        if isinstance(found, str):
            return found
    if isinstance(value, str):
        for line in value.splitlines():
            if line.startswith("*** ") and not line.startswith("*** Begin"):
                return line[4:]
        return value
    return ""


_EXIT = (
    re.compile(r"^Exit code: (-?\d+)$", re.MULTILINE),
    re.compile(r"^Process exited with code (-?\d+)$", re.MULTILINE),
)


def output_value(item: dict[str, Any]) -> Any:
    """An output item's ``output`` as written: a string, or a list of content parts."""
    return item.get("output")


def exit_code(output: Any) -> int | None:
    """The exit code an output reports (see the module), or None when it reports none (an
    output written as content items is read as their text)."""
    if isinstance(output, list):
        output = content_text(output)
    if isinstance(output, str):
        head = output[:4096]
        if head.startswith("{"):
            meta = mapping(mapping(parse_json_text(output)).get("metadata"))
            return integer(meta.get("exit_code"))
        for pattern in _EXIT:
            m = pattern.search(head)
            if m is not None:
                return int(m.group(1))
        return None
    if isinstance(output, dict):
        return integer(mapping(output.get("metadata")).get("exit_code"))
    return None


def output_text(output: Any) -> Any:
    """What an output shows: a 0.20-style ``{"output", "metadata"}`` JSON string's inner
    ``output``; anything else as written."""
    if isinstance(output, str) and output.startswith("{"):
        inner = mapping(parse_json_text(output))
        if "output" in inner and "metadata" in inner:
            return inner["output"]
    return output
