"""An ATIF trajectory document read into plain, typed objects (no trajtui view in here).

:func:`parse_trajectory` takes a decoded document (:class:`~.document.Document`) and
returns a :class:`Trajectory`: its steps (:class:`AtifStep`), each with its tool calls and
observation results, per-step metrics, and the problems found, each ``PATH:LINE: message``.
It reads every field of every version (ATIF-v1.0 to v1.8: Harbor never gates a field by the
declared version, and neither does this), and the drift other writers show:

* ``schema_version`` without the ``ATIF-v`` prefix (``"1.4"``, ``"ATIF-1.0"``);
* tool calls as ``id``/``name`` (or ``call_id``/``tool_name``) instead of
  ``tool_call_id``/``function_name``, ``arguments`` as a JSON string;
* tool results as separate steps whose ``observation`` is one object
  (``{"type": "tool_result", "content", "result": {"success", "output"|"error"}}``), the
  call id only in the message (``Tool result for toolu_...``);
* ``message`` as a list of content parts (text, image, audio; ATIF-v1.6 and later);
* ``step_id`` missing, repeated or not a number: the steps are then numbered by position.

Nothing here reads files; :mod:`~.pairing` pairs calls with results, :mod:`~.facts` sums.
The objects themselves are in :mod:`~.model` (named from here too).
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from trajtui.core.model import Problem, Severity
from trajtui.core.values import integer, mapping, num, sequence, string
from trajtui.formats.atif.document import Document
from trajtui.formats.atif.ident import version_of as version_of

# The model (:mod:`~.model`) is named from here too: re-exported.
from trajtui.formats.atif.model import AtifStep as AtifStep
from trajtui.formats.atif.model import Metrics as Metrics
from trajtui.formats.atif.model import SubagentRef as SubagentRef
from trajtui.formats.atif.model import ToolCall as ToolCall
from trajtui.formats.atif.model import ToolResult as ToolResult
from trajtui.formats.atif.model import Trajectory as Trajectory

SOURCES = ("system", "user", "agent")
_RESULT_FOR = re.compile(r"^Tool result for (\S{1,200})$")


def parse_time(value: Any) -> float | None:
    """An ISO 8601 timestamp in seconds since the epoch (a time without zone is read as
    UTC); None when it does not parse."""
    if not isinstance(value, str) or not 8 <= len(value) <= 64:
        return None
    try:
        moment = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def content_text(value: Any) -> str | None:
    """A message or result content as text: a string as it is; content parts one paragraph
    each, an image or audio part named by its type and path; None for anything else."""
    if isinstance(value, str):
        return value
    if not isinstance(value, list):
        return None
    parts: list[str] = []
    for part in value:
        p = mapping(part)
        kind = string(p.get("type")) or "part"
        if kind == "text" and isinstance(p.get("text"), str):
            parts.append(p["text"])
            continue
        src = mapping(p.get("source"))
        where = string(src.get("path")) or string(src.get("url")) or "no path"
        media = string(src.get("media_type"))
        parts.append(f"[{kind}: {where}{f' ({media})' if media else ''}]")
    return "\n\n".join(parts)  # one paragraph each (messages are shown as Markdown)


def _first(obj: dict[str, Any], *keys: str) -> str | None:
    for key in keys:
        value = obj.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
    return None


def _metrics(value: Any) -> Metrics | None:
    m = mapping(value)
    if not m:
        return None
    return Metrics(
        num(m.get("prompt_tokens")),
        num(m.get("completion_tokens")),
        num(m.get("cached_tokens")),
        num(m.get("cost_usd")),
    )


def _failed(result: dict[str, Any]) -> bool | None:
    """Whether the result says its tool failed: ``is_error`` (in the result, its ``extra``,
    or claude-code's ``extra.tool_result_metadata.raw_tool_result``) or ``result.success``
    (other writers); None when it says nothing."""
    extra = mapping(result.get("extra"))
    raw_result = mapping(mapping(extra.get("tool_result_metadata")).get("raw_tool_result"))
    for holder in (result, extra, raw_result):
        flag = holder.get("is_error")
        if isinstance(flag, bool):
            return flag
    success = mapping(result.get("result")).get("success")
    if isinstance(success, bool):
        return not success
    if raw_result.get("type") == "tool_result":
        return False  # an Anthropic tool_result without is_error did not fail
    return None


def _subagents(value: Any) -> tuple[SubagentRef, ...]:
    items = value if isinstance(value, list) else [value] if isinstance(value, dict) else []
    out = []
    for item in items:
        ref = mapping(item)
        if ref:
            out.append(
                SubagentRef(
                    string(ref.get("trajectory_path")),
                    _first(ref, "trajectory_id"),
                    _first(ref, "session_id"),
                    ref.get("extra"),
                )
            )
    return tuple(out)


def _results(step: dict[str, Any]) -> tuple[ToolResult, ...]:
    obs = step.get("observation")
    if not isinstance(obs, dict):
        return ()
    if "results" in obs:
        items = [mapping(r) for r in sequence(obs.get("results"))]
    else:  # one result as the observation itself (tool results as separate steps)
        items = [obs]
    out = []
    for r in items:
        call_id = _first(r, "source_call_id", "tool_call_id", "call_id")
        if call_id is None and r is obs:
            m = _RESULT_FOR.match(string(step.get("message")) or "")
            call_id = m[1] if m else None
        content = r.get("content")
        if content is None and "result" in r:
            inner = mapping(r.get("result"))
            content = inner.get("output", inner.get("error"))
        out.append(
            ToolResult(
                call_id, content, _failed(r), _subagents(r.get("subagent_trajectory_ref")), r
            )
        )
    return tuple(out)


def _calls(value: Any) -> tuple[ToolCall, ...]:
    out = []
    for item in sequence(value):
        c = mapping(item)
        out.append(
            ToolCall(
                _first(c, "tool_call_id", "id", "call_id"),
                _first(c, "function_name", "name", "tool_name"),
                c.get("arguments", c.get("args", c.get("input"))),
                item,
            )
        )
    return tuple(out)


def make_step(s: dict[str, Any], position: int, number: int, line: int | None) -> AtifStep:
    """The step ``s`` (decoded from the file) at ``position``, called ``step-{number}``."""
    reasoning = s.get("reasoning_content")
    return AtifStep(
        position=position,
        number=number,
        line=line,
        step_id=integer(s.get("step_id")),
        source=string(s.get("source")),
        timestamp=string(s.get("timestamp")),
        time=parse_time(s.get("timestamp")),
        text=content_text(s.get("message")),
        reasoning=reasoning if isinstance(reasoning, str) else None,
        model_name=string(s.get("model_name")),
        calls=_calls(s.get("tool_calls")),
        results=_results(s),
        metrics=_metrics(s.get("metrics")),
        copied=s.get("is_copied_context") is True,
        raw=s,
    )


def lighten(step: AtifStep, *, keep_text: bool = False) -> AtifStep:
    """``step`` as a listing keeps it (:class:`StepFold` with ``lean``): what the run's
    figures, its pairing of calls and results and its children need, without the bodies
    (message, reasoning, arguments, results' content, the step as in the file), which are
    read again when the step is shown; the timestamp as its time only). ``keep_text``: the
    message is kept (the run's title)."""
    calls = tuple(ToolCall(c.call_id, _word(c.name), None, None) for c in step.calls)
    # a result names its call by the same id: one string kept for both
    ids: dict[str | None, str | None] = {c.call_id: c.call_id for c in calls}
    return AtifStep(
        step.position,
        step.number,
        step.line,
        step.step_id,
        _word(step.source),
        None,
        step.time,
        step.text if keep_text else None,
        None,
        _word(step.model_name),
        calls,
        tuple(
            ToolResult(ids.get(r.call_id, r.call_id), None, r.failed, r.subagents, None)
            for r in step.results
        ),
        step.metrics,
        step.copied,
        _NO_RAW,
    )


def _word(text: str | None) -> str | None:
    """A short string every step repeats (a source, a model, a tool name) kept once."""
    return sys.intern(text) if text is not None and len(text) <= 200 else text


_NO_RAW: dict[str, Any] = {}
"""The ``raw`` of every lightened step (never changed)."""


class StepFold:
    """A trajectory read step by step, as the file gives them (:meth:`add`), then its
    document (:meth:`finish`): what :func:`parse_trajectory` does with a document read
    whole, and what a big file streamed item by item is folded with.

    Args:
        path: The file.
        lean: Keep each step :func:`lightened <lighten>` (the listing of a file read in
            bounded memory: the bodies are read again by their spans when shown).
    """

    def __init__(self, path: str, *, lean: bool = False) -> None:
        self.path = path
        self.lean = lean
        self.items = 0  # items of the steps array, objects or not
        self.steps: list[AtifStep] = []
        self._skipped: list[Problem] = []  # items that are not objects
        self._found: list[Problem] = []  # problems of the steps read
        self._seen: set[int] = set()
        self._unnumbered: Problem | None = None  # the first step whose step_id cannot name it
        self._titled = False

    def add(self, line: int | None, item: Any) -> bool:
        """One item of the ``steps`` array; False when it is not a step (skipped)."""
        self.items += 1
        path = self.path
        if not isinstance(item, dict):
            self._skipped.append(
                Problem(path, line, f"step is {_kind(item)}, not an object (skipped)")
            )
            return False
        position = len(self.steps) + 1
        sid = integer(item.get("step_id"))
        if self._unnumbered is None:
            what = None
            if sid is None:
                value = item.get("step_id")
                what = "no step_id" if value is None else f"step_id {value!r}, not an integer"
            elif sid in self._seen:
                what = f"step_id {sid} is repeated"
            else:
                self._seen.add(sid)
            if what is not None:
                self._unnumbered = Problem(path, line, what, Severity.WARNING)
                self._seen.clear()
        step = make_step(item, position, sid if sid is not None else position, line)
        if step.source not in SOURCES:
            what = "no source" if step.source is None else f"source {step.source!r}"
            self._found.append(
                Problem(path, line, f"{what} (not system, user or agent)", Severity.WARNING)
            )
        if "tool_calls" in item and not isinstance(item["tool_calls"], list):
            self._found.append(
                Problem(path, line, f'"tool_calls" is {_kind(item["tool_calls"])}, not an array')
            )
        if self.lean:
            title = not self._titled and step.source == "user" and bool((step.text or "").strip())
            self._titled = self._titled or title
            step = lighten(step, keep_text=title)
        self.steps.append(step)
        return True

    def finish(
        self,
        value: Any,
        has_steps: bool,
        error: tuple[int, str] | None,
        warnings: list[str],
        body: Any = None,
    ) -> Trajectory:
        """The trajectory: ``value`` the document (its ``steps`` aside), ``has_steps``
        whether it has a ``steps`` array, ``error`` where it stops being JSON; ``body``
        reads a lean step's body again (:attr:`Trajectory.body`)."""
        path = self.path
        problems = [Problem(path, None, w, Severity.WARNING) for w in warnings]
        if error is not None:
            at, message = error
            kept = self.items
            shown = f"the {kept} steps before it are" if kept != 1 else "the step before it is"
            note = f"; {shown} shown" if kept else ""
            problems.append(Problem(path, at, message + note))
        root = value if isinstance(value, dict) else {}
        if not isinstance(value, dict) and error is None:
            problems.append(Problem(path, 1, f"expected a JSON object, found {_kind(value)}"))
        if not has_steps and isinstance(value, dict):
            if "steps" in root:
                problems.append(
                    Problem(path, None, f'"steps" is {_kind(root["steps"])}, not an array')
                )
            elif error is None:
                problems.append(
                    Problem(path, None, 'no "steps" array: the trajectory has no steps')
                )
        problems.extend(self._skipped)
        steps = self.steps
        if self._unnumbered is not None:
            n = len(steps)
            note = f"{self._unnumbered.message}: steps numbered by position (step-1 ... step-{n})"
            problems.append(replace(self._unnumbered, message=note))
            steps = [replace(s, number=s.position) for s in steps]
        problems.extend(self._found)
        schema = root.get("schema_version")
        if isinstance(value, dict) and not isinstance(schema, str):
            problems.append(Problem(path, None, "no schema_version", Severity.WARNING))
        embedded = tuple(
            e for e in sequence(root.get("subagent_trajectories")) if isinstance(e, dict)
        )
        final = root.get("final_metrics")
        return Trajectory(
            path=path,
            schema_version=schema if isinstance(schema, str) else None,
            version=version_of(schema),
            session_id=_first(root, "session_id"),
            trajectory_id=_first(root, "trajectory_id"),
            agent=mapping(root.get("agent")),
            steps=tuple(steps),
            final_metrics=final if isinstance(final, dict) else None,
            continued_ref=string(root.get("continued_trajectory_ref")),
            embedded=embedded,
            root={k: v for k, v in root.items() if k != "steps"},
            problems=tuple(problems),
            complete=error is None,
            body=body,
        )


def parse_trajectory(doc: Document, path: str) -> Trajectory:
    """The trajectory in ``doc`` (read from ``path``), with every problem found.

    Never raises: what cannot be read is a :class:`~trajtui.core.model.Problem` (an error
    when something is lost, a warning when it was read with a fix-up), and every step that
    can be read is kept.
    """
    fold = StepFold(path)
    for line, item in doc.steps or ():
        fold.add(line, item)
    return fold.finish(doc.value, doc.steps is not None, doc.error, doc.warnings)


def from_embedded(value: dict[str, Any], path: str) -> Trajectory:
    """An embedded trajectory (an entry of ``subagent_trajectories``), already decoded."""
    steps = value.get("steps")
    doc = Document(
        value=value,
        steps=[(None, item) for item in steps] if isinstance(steps, list) else None,
    )
    return parse_trajectory(doc, path)


def _kind(value: Any) -> str:
    return {
        "dict": "an object",
        "list": "an array",
        "str": "a string",
        "NoneType": "null",
        "bool": "a boolean",
        "int": "a number",
        "float": "a number",
    }.get(type(value).__name__, type(value).__name__)
