"""Steps of a Claude Code session, built from the step rows of :mod:`.fold` and the lines
they name, a window at a time."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from trajtui.core.io.text import flat, one_line
from trajtui.core.jsonl.session import StepRow
from trajtui.core.model import Call, Field, Kind, Outcome, Step
from trajtui.core.values import mapping, num, sequence, string, text_of
from trajtui.formats.claude_code.fold import AGENT_TOOLS, LAST_OF_TURN, PAIRED, tokens_of
from trajtui.formats.claude_code.texts import Notification, notification


@dataclass(frozen=True, slots=True)
class StepInfo:
    """What the view shows beside a step.

    Attributes:
        line: The file's line the step is on.
        type: The line's ``type``.
        sidechain: The line is a subagent's (``isSidechain``).
        subagent: For an agent call, the reference of its subagent's run, when the result
            names it.
    """

    line: int | None
    type: str | None
    sidechain: bool
    subagent: str | None = None


def _result_block(result: Any, call_id: Any) -> dict[str, Any] | None:
    content = mapping(mapping(result).get("message")).get("content")
    for block in sequence(content):
        if mapping(block).get("type") == "tool_result" and block.get("tool_use_id") == call_id:
            return block
    return None


def _output(block: dict[str, Any]) -> Any:
    content = block.get("content")
    if isinstance(content, list):
        texts = [
            text_of(mapping(b).get("text")) for b in content if mapping(b).get("type") == "text"
        ]
        if texts and len(texts) == len(content):
            return "\n".join(texts)
    return content


def _input_title(name: str, value: Any) -> str:
    data = mapping(value)
    for key in ("command", "description", "file_path", "pattern", "path", "url", "query", "prompt"):
        text = string(data.get(key))
        if text:
            return f"{name}: {flat(text, 120)}"
    return name


SIDECHAIN = "sidechain"
"""A 1.0.x session's subagents' run is ``SESSION/sidechain`` (see the package)."""


def _agent_ref(session_ref: str, result: Any) -> str | None:
    """The run of the subagent an agent call started: ``SESSION/agent-ID`` (2.x: the
    result names the agent), or ``SESSION/sidechain`` (1.0.x: the result names none, the
    subagent's lines are in the session's file)."""
    tool_result = mapping(result).get("toolUseResult")
    agent = string(mapping(tool_result).get("agentId"))
    base = session_ref.split("/agent-", 1)[0]
    if agent is None:
        said = mapping(tool_result)
        if "/" in session_ref or not ("totalToolUseCount" in said or "totalTokens" in said):
            return None
        return f"{base}/{SIDECHAIN}"
    return f"{base}/agent-{agent}"


def build(
    ref: str,
    rows: Sequence[StepRow],
    read: Callable[[int], Any],
    line_of: Callable[[int], int | None],
    workers: Callable[[], list[str]] = list,
) -> list[Step]:
    """One step per row (see :mod:`.fold`); a line that cannot be read again is a step
    saying so. ``workers()``: the refs of the session's compaction workers, in order (a
    compact boundary names its own)."""
    out = []
    found: list[list[str]] = []

    def worker(n: int) -> str | None:  # the n-th compaction's worker (listed once a window)
        if not found:
            found.append(workers())
        return found[0][n - 1] if 0 < n <= len(found[0]) else None

    for row in rows:
        n = row.position + 1
        obj = mapping(read(row.line))
        info = StepInfo(line_of(row.line), string(obj.get("type")), obj.get("isSidechain") is True)
        try:
            step = _step(f"{ref}/step-{n}", n, row, obj, read, info, ref, worker)
        except Exception as err:  # untrusted shapes: a step saying so, never a crash
            step = Step(
                f"{ref}/step-{n}",
                n,
                Kind.OTHER,
                f"unreadable line ({type(err).__name__})",
                raw=obj,
                detail=info,
            )
        out.append(step)
    return out


def _step(
    sref: str,
    n: int,
    row: StepRow,
    obj: dict[str, Any],
    read: Callable[[int], Any],
    info: StepInfo,
    ref: str,
    worker: Callable[[int], str | None],
) -> Step:
    if not obj:
        return Step(sref, n, Kind.OTHER, "line could not be read again", detail=info)
    if row.part < 0:
        last = read(row.link) if row.link >= 0 else None
        if info.sidechain and "/" not in ref:  # a subagent's lines in its session's file
            return _sidechain(sref, n, -row.part, obj, last, info, f"{ref}/{SIDECHAIN}")
        return _stretch(sref, n, -row.part, obj, last, info)
    kind = info.type
    stamp = string(obj.get("timestamp"))
    fields = (Field("timestamp", stamp),) if stamp else ()
    if kind == "system":
        return _system(sref, n, obj, info, fields, worker(row.part) if row.part > 0 else None)
    message = mapping(obj.get("message"))
    content = message.get("content")
    part = row.part & (LAST_OF_TURN - 1)
    if kind == "assistant":
        block = mapping(sequence(content)[part]) if part < len(sequence(content)) else {}
        step = _assistant(sref, n, obj, message, block, row, read, info, ref, fields)
        return step
    # user
    if (
        isinstance(content, list)
        and part < len(content)
        and mapping(content[part]).get("type") == "tool_result"
    ):
        block = content[part]
        failed = block.get("is_error") is True
        return Step(
            sref,
            n,
            Kind.TOOL_CALL,
            f"result of {one_line(str(block.get('tool_use_id')))} (its call is not in the file)",
            status="failed" if failed else "completed",
            outcome=Outcome.ERROR if failed else Outcome.DONE,
            output=_output(block),
            raw=obj,
            detail=info,
            fields=fields,
        )
    text = (
        content
        if isinstance(content, str)
        else "\n".join(
            text_of(mapping(b).get("text"))
            for b in sequence(content)
            if mapping(b).get("type") == "text"
        )
    )
    note = notification(text) if row.part >> PAIRED else None
    if note is not None:
        return _answer(sref, n, obj, note, row.part >> PAIRED, read(row.link), info, ref, fields)
    label = "user"
    if obj.get("isCompactSummary") is True:
        label = "compaction summary"
    elif obj.get("isMeta") is True:
        label = "injected text"
    return Step(
        sref,
        n,
        Kind.MESSAGE,
        one_line(text) or label,
        text=text,
        markdown=True,
        raw=obj,
        detail=info,
        fields=(Field("from", label), *fields),
    )


def _assistant(
    sref: str,
    n: int,
    obj: dict[str, Any],
    message: dict[str, Any],
    block: dict[str, Any],
    row: StepRow,
    read: Callable[[int], Any],
    info: StepInfo,
    ref: str,
    fields: tuple[Field, ...],
) -> Step:
    last = bool(row.part & LAST_OF_TURN)
    tokens = tokens_of(message.get("usage")) if last else None
    model = string(message.get("model"))
    extra = [Field("model", model)] if model else []
    extra.append(
        Field(
            "API response",
            f"{message.get('id')}" + (" (its last line: usage final)" if last else ""),
        )
    )
    common: dict[str, Any] = {
        "raw": obj,
        "tokens_in": tokens[0] if tokens else None,
        "tokens_out": tokens[1] if tokens else None,
        "fields": (*extra, *fields),
    }
    btype = block.get("type")
    if obj.get("isApiErrorMessage") is True:
        text = text_of(block.get("text"))
        return Step(
            sref,
            n,
            Kind.OTHER,
            one_line(text) or "API error",
            status="api error",
            outcome=Outcome.ERROR,
            text=text,
            error=string(obj.get("error")) or text,
            detail=info,
            **common,
        )
    if btype in ("thinking", "redacted_thinking"):
        text = text_of(block.get("thinking")) if btype == "thinking" else "(redacted thinking)"
        return Step(
            sref, n, Kind.THOUGHT, one_line(text) or "thinking", text=text, detail=info, **common
        )
    if btype == "text":
        text = text_of(block.get("text"))
        return Step(
            sref,
            n,
            Kind.MESSAGE,
            one_line(text) or "(empty text)",
            text=text,
            markdown=True,
            detail=info,
            **common,
        )
    if btype == "tool_use":
        name = string(block.get("name")) or "?"
        result = read(row.link) if row.link >= 0 else None
        found = _result_block(result, block.get("id")) if result is not None else None
        if found is None:
            status, outcome, output = "no result", Outcome.NONE, None
        elif found.get("is_error") is True:
            status, outcome, output = "failed", Outcome.ERROR, _output(found)
        else:
            status, outcome, output = "completed", Outcome.DONE, _output(found)
        sub = _agent_ref(ref, result) if name in AGENT_TOOLS and result is not None else None
        if sub:
            info = StepInfo(info.line, info.type, info.sidechain, sub)
            common["fields"] = (Field("subagent", sub), *common["fields"])
        answer = row.part >> PAIRED  # (its later answer's step, for a call in the background)
        said = mapping(mapping(result).get("toolUseResult"))
        if outcome is Outcome.DONE and (answer or said.get("isAsync") is True):
            status, outcome = "launched", Outcome.RUNNING
            common["fields"] = (
                Field(
                    "background",
                    f"launched at once; its answer came later: step {answer}"
                    if answer
                    else "launched at once; no answer in the file",
                ),
                *common["fields"],
            )
        if name in AGENT_TOOLS:  # the call, counted here or at its later answer
            common["calls"] = () if answer else (Call(name, outcome.state),)
        return Step(
            sref,
            n,
            Kind.TASK if name in AGENT_TOOLS else Kind.TOOL_CALL,
            _input_title(name, block.get("input")),
            status=status,
            outcome=outcome,
            input=block.get("input"),
            output=output,
            error=text_of(output) if outcome is Outcome.ERROR else None,
            stored_id=string(block.get("id")),
            tools=(name,),
            pair=answer or None,
            detail=info,
            **common,
        )
    return Step(sref, n, Kind.OTHER, f"{one_line(str(btype))} block", detail=info, **common)


def _answer(
    sref: str,
    n: int,
    obj: dict[str, Any],
    note: Notification,
    call: int,
    called: Any,
    info: StepInfo,
    ref: str,
    fields: tuple[Field, ...],
) -> Step:
    """A background call's later answer (a ``<task-notification>`` user line), paired with
    the call (step ``call``, on the line ``called``)."""
    content = mapping(mapping(called).get("message")).get("content")
    block = next(
        (
            mapping(b)
            for b in sequence(content)
            if mapping(b).get("type") == "tool_use" and mapping(b).get("id") == note.call
        ),
        {},
    )
    name = string(block.get("name")) or "?"
    agent = name in AGENT_TOOLS
    if note.status == "completed":
        outcome = Outcome.DONE
    else:
        outcome = Outcome.ERROR if note.failed else Outcome.NONE
    if agent and note.agent:
        info = StepInfo(
            info.line, info.type, info.sidechain, f"{ref.split('/agent-', 1)[0]}/agent-{note.agent}"
        )
    said = one_line(note.result or note.summary, 120)
    extra = [Field("answers", f"step {call}, the call that launched it in the background")]
    if info.subagent:
        extra.append(Field("subagent", info.subagent))
    if note.summary:
        extra.append(Field("summary", note.summary))
    return Step(
        sref,
        n,
        Kind.TASK if agent else Kind.TOOL_CALL,
        f"↳ answer of {_input_title(name, block.get('input'))}" + (f": {said}" if said else ""),
        status=note.status or "answered",
        outcome=outcome,
        input=block.get("input"),
        output=note.result or None,
        error=note.result if note.failed else None,
        pair=call,
        stored_id=note.call,
        tools=(name,),
        calls=(Call(name, outcome.state),) if agent else None,
        raw=obj,
        detail=info,
        fields=(*extra, *fields),
    )


def _system(
    sref: str,
    n: int,
    obj: dict[str, Any],
    info: StepInfo,
    fields: tuple[Field, ...],
    worker: str | None,
) -> Step:
    sub = string(obj.get("subtype")) or "system"
    if worker is not None:  # the compaction's worker, which re-read the conversation
        info = StepInfo(info.line, info.type, info.sidechain, worker)
        fields = (Field("compaction worker", worker), *fields)
    if sub == "compact_boundary":
        meta = mapping(obj.get("compactMetadata"))
        pre = meta.get("preTokens")
        trigger = string(meta.get("trigger")) or "?"
        title = f"compacted ({trigger}" + (f", {pre:,} tokens before)" if type(pre) is int else ")")
    elif sub == "turn_duration":
        ms = num(obj.get("durationMs"))
        title = f"turn took {ms / 1000:.1f}s" if ms is not None else "turn duration"
    elif sub == "stop_hook_summary":
        title = f"stop hooks: {obj.get('hookCount')} ran" + (
            ", errors" if sequence(obj.get("hookErrors")) else ""
        )
    else:
        title = f"{sub}: {one_line(text_of(obj.get('content')))}".rstrip(": ")
    failed = sub == "api_error" or bool(sequence(obj.get("hookErrors")))
    return Step(
        sref,
        n,
        Kind.OTHER,
        title,
        status=sub,
        outcome=Outcome.ERROR if failed else Outcome.NONE,
        text=text_of(obj.get("content")) or None,
        raw=obj,
        detail=info,
        fields=fields,
    )


def _sidechain(
    sref: str, n: int, count: int, first: dict[str, Any], last: Any, info: StepInfo, run: str
) -> Step:
    lines = f"{count:,} line{'s' if count != 1 else ''}"
    prompt = mapping(first.get("message")).get("content")
    said = one_line(prompt if isinstance(prompt, str) else "", 80)
    return Step(
        sref,
        n,
        Kind.OTHER,
        f"↳ subagent: {lines} of its own, read apart as {run}" + (f" · {said}" if said else ""),
        status="subagent",
        raw=first if count == 1 else {"first": first, "last": last},
        calls=(),
        fields=(
            Field("subagent", run),
            Field(
                "lines",
                f"{lines} from line {info.line} (isSidechain: a subagent's, written into its "
                "session's file): its run's figures, not the session's",
            ),
        ),
        detail=StepInfo(info.line, info.type, True, run),
    )


def _stretch(
    sref: str, n: int, count: int, first: dict[str, Any], last: Any, info: StepInfo
) -> Step:
    kinds = [info.type or "?"]
    if count > 1:
        kinds.append(string(mapping(last).get("type")) or "?")
    lines = f"{count:,} line{'s' if count != 1 else ''}"
    what = " … ".join(one_line(k, 40) for k in kinds)
    return Step(
        sref,
        n,
        Kind.OTHER,
        f"· {lines} not messages ({what})",
        status="folded",
        raw=first if count == 1 else {"first": first, "last": last},
        fields=(
            Field(
                "lines", f"{lines} from line {info.line}: the first and the last shown in raw JSON"
            ),
        ),
        detail=info,
    )
