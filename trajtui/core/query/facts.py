"""What a query reads about one run (or problem row): :class:`Facts`, and builders of them
from a run summary, a whole run, a problem, or a row of a summary table."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from trajtui.core.jsonl.table import SummaryTable
from trajtui.core.model import Problem, Run, RunSummary, Step


class Facts(Protocol):
    """One row as a query sees it."""

    @property
    def is_problem(self) -> bool:
        """The row is a problem (something in a file that could not be read), not a run."""
        ...

    def value(self, name: str) -> Any:
        """A field of the run's summary by :class:`~trajtui.core.model.RunSummary` name
        (``status``, ``outcome``, ``duration_ms``, ``tokens_in``...), None when absent."""
        ...

    def text(self) -> str:
        """What words are looked for in: reference, title, input (and source label),
        casefolded."""
        ...

    def input(self) -> str:
        """The run's input text (its title when only the summary is known), casefolded."""
        ...

    def whole(self, kind: str) -> str | None:
        """The run's own texts of ``kind`` (``output``, ``reasoning``: its trials' too),
        casefolded; None when only the summary is known (a run-list row)."""
        ...

    def metadata(self) -> dict[str, str]:
        """The run's metadata pairs, keys casefolded."""
        ...

    def tools(self) -> tuple[str, ...]:
        """Names of the tools the run called, casefolded."""
        ...


class RowFacts:
    """:class:`Facts` read through a field getter (a summary's attributes, a table row)."""

    __slots__ = ("_input", "_label", "_meta", "_text", "_value", "_whole", "_wholes", "problem")

    def __init__(
        self,
        value: Callable[[str], Any],
        *,
        label: str = "",
        input_text: str | None = None,
        problem: Problem | None = None,
        whole: Callable[[], dict[str, str]] | None = None,
    ) -> None:
        self._value = value
        self._label = label
        self._input = input_text
        self._whole = whole
        self._wholes: dict[str, str] | None = None
        self._text: str | None = None
        self._meta: dict[str, str] | None = None
        self.problem = problem

    @property
    def is_problem(self) -> bool:
        return self.problem is not None

    def value(self, name: str) -> Any:
        if self.problem is not None:
            return None
        return self._value(name)

    def text(self) -> str:
        if self._text is None:
            p = self.problem
            if p is not None:
                self._text = f"{p.message} {p.line} {p.ref or ''} {self._label}".casefold()
            else:
                extra = f" {self._input}" if self._input else ""
                title = self._value("title") or ""
                self._text = f"{self._value('ref')} {title} {self._label}{extra}".casefold()
        return self._text

    def input(self) -> str:
        if self.problem is not None:
            return ""
        if self._input is not None:
            return self._input.casefold()
        return str(self._value("title") or "").casefold()

    def whole(self, kind: str) -> str | None:
        if self.problem is not None or self._whole is None:
            return None
        if self._wholes is None:
            self._wholes = self._whole()
        return self._wholes.get(kind, "")

    def metadata(self) -> dict[str, str]:
        if self._meta is None:
            pairs = () if self.problem is not None else self._value("metadata") or ()
            self._meta = {k.casefold(): v for k, v in pairs}
        return self._meta

    def tools(self) -> tuple[str, ...]:
        if self.problem is not None:
            return ()
        return tuple(t.casefold() for t in self._value("tools") or ())


def facts_of_summary(summary: RunSummary, label: str = "") -> Facts:
    """What a query reads of a run-list row (``label``: its source's, looked in by words)."""
    return RowFacts(partial(getattr, summary), label=label)


def facts_of_run(run: Run, label: str = "") -> Facts:
    """What a query reads of a whole run: its summary, with its whole input text, metadata,
    tools and token counts as the run has them."""
    summary = run.summary
    tools = summary.tools or _tools_of(run)
    own = {
        "metadata": run.metadata or summary.metadata,
        "tools": tools,
        "tokens_in": run.tokens_in,
        "tokens_out": run.tokens_out,
    }

    def value(name: str) -> Any:
        if name in own:
            return own[name]
        return getattr(summary, name)

    return RowFacts(value, label=label, input_text=_input_of(run), whole=partial(_wholes, run))


def facts_of_problem(problem: Problem, label: str = "") -> Facts:
    """What a query reads of a problem row: its message (words), ``is:problem``."""
    return RowFacts(lambda name: None, label=label, problem=problem)


def facts_of_row(table: SummaryTable, i: int, label: str = "") -> Facts:
    """What a query reads of run row ``i`` of a summary table (no summary is built)."""
    return RowFacts(partial(table.value, i), label=label)


def _input_of(run: Run) -> str | None:
    for field in run.fields:
        if field.label == "input":
            value = field.value
            if isinstance(value, str):
                return value
            if isinstance(value, list):
                return "\n".join(v for v in value if isinstance(v, str)) or None
            return None
    return None


WHOLE_KINDS = ("output", "reasoning")
"""The kinds of text :meth:`Facts.whole` gives."""


def owns(ref: str, run_ref: str) -> bool:
    """``ref`` (of a text found in a run) is the run's own or one of its trials'
    (``RUN/trial-2``), not a step's."""
    if ref == run_ref:
        return True
    rest = ref[len(run_ref) :] if ref.startswith(run_ref + "/trial-") else ""
    return rest[len("/trial-") :].isdigit()


def _wholes(run: Run) -> dict[str, str]:
    """The run's own outputs and grader's reasoning (its trials' too), casefolded."""
    from trajtui.core.search.texts import run_texts  # the search's import is not light

    found: dict[str, list[str]] = {kind: [] for kind in WHOLE_KINDS}
    for t in run_texts(run):
        if t.kind in found and owns(t.ref, run.ref):
            found[t.kind].append(t.text)
    return {kind: "\n".join(texts).casefold() for kind, texts in found.items()}


def _tools_of(run: Run) -> tuple[str, ...]:
    names: set[str] = set()
    for steps in (run.steps, *(a.steps for a in run.attempts)):
        for step in steps:
            names.update(step.tools)
    return tuple(sorted(names))


class StepFacts:
    """:class:`Facts` of one step, for the timeline's filter (the query's scope is
    :data:`~trajtui.core.query.fields.STEPS`): words are looked for in every text of the
    step (its text, title, tool name, input, output, error and labelled values)."""

    __slots__ = ("_input", "_text", "step")

    is_problem = False

    def __init__(self, step: Step) -> None:
        self.step = step
        self._text: str | None = None
        self._input: str | None = None

    def value(self, name: str) -> Any:
        step = self.step
        if name == "output":
            return None if step.output is None else _joined(step.output)
        if name == "tools":
            return self.tools()
        return getattr(step, name, None)

    def text(self) -> str:
        if self._text is None:
            from trajtui.core.search.texts import step_texts  # the search's import is not light

            parts = [self.step.ref, self.step.title, self.step.tool or ""]
            parts.extend(t.text for t in step_texts(self.step))
            self._text = "\n".join(parts).casefold()
        return self._text

    def input(self) -> str:
        if self._input is None:
            value = self.step.input
            self._input = "" if value is None else _joined(value).casefold()
        return self._input

    def whole(self, kind: str) -> str | None:
        return None  # a step's texts are its fields (output:, the words)

    def metadata(self) -> dict[str, str]:
        return {}

    def tools(self) -> tuple[str, ...]:
        return tuple(n.casefold() for n in self.step.tools)


def facts_of_step(step: Step) -> Facts:
    """What a timeline filter reads of one step."""
    return StepFacts(step)


def _joined(value: Any) -> str:
    """A value's texts as in the file, one per line (a string is itself)."""
    if isinstance(value, str):
        return value
    from trajtui.core.search.texts import leaves

    return "\n".join(leaves(value))
