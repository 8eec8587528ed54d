"""A Harbor job's own ``result.json``: the figures Harbor computed over the job's trials,
kept under the file's names.

Harbor rewrites the job's ``result.json`` as trials end. Its ``stats`` count trials
(``n_completed_trials``, ``n_errored_trials``, ``n_running_trials``... ; before Harbor 0.2
``n_trials`` and ``n_errors``), may total ``n_input_tokens``, ``n_cache_tokens``,
``n_output_tokens`` and ``cost_usd`` (sums of the trials' ``agent_result``), and hold one
entry of ``evals`` per agent, model and dataset (the key ``agent__model__dataset``, or
``agent__dataset`` without a model; a trial without a ``source`` is in dataset ``adhoc``):
``n_trials`` (trials with rewards), ``n_errors`` (trials with an exception), ``metrics``
(``[{"mean": 0.5}]``: an attempt without a reward counts as 0), ``pass_at_k`` (``{"2":
0.75}``, k = 2, 4, 8... and 5, 10... up to the fewest attempts of a task, only when every
reward is a single 0 or 1; an attempt without a reward counts as failed), ``reward_stats``
and ``exception_stats`` (trial names by reward value and by exception type).

These are the file's numbers: shown as the file names them, beside trajtui's own (which
leave out attempts without a reward), never mixed with them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trajtui.core.values import mapping, num, sequence, string

STAT_KEYS = (
    "n_completed_trials",
    "n_trials",
    "n_errored_trials",
    "n_errors",
    "n_running_trials",
    "n_pending_trials",
    "n_cancelled_trials",
    "n_retries",
    "n_input_tokens",
    "n_cache_tokens",
    "n_output_tokens",
    "cost_usd",
)
"""The job-wide figures of ``stats``, in the order shown (only those the file has)."""
EVAL_KEYS = ("n_trials", "n_errors")
ADHOC = "adhoc"
"""Harbor's dataset of a trial without a ``source``."""


def evals_key(agent: str | None, model: str | None, dataset: str | None) -> str | None:
    """The key Harbor files a trial's figures under in ``stats.evals`` (None without an
    agent name)."""
    if not agent:
        return None
    dataset = dataset or ADHOC
    return f"{agent}__{model}__{dataset}" if model else f"{agent}__{dataset}"


@dataclass(frozen=True, slots=True)
class EvalStats:
    """One entry of ``stats.evals``.

    Attributes:
        key: Its key (``terminus-2__model-x__terminal-bench``).
        figures: ``n_trials``, ``n_errors`` and each ``metrics`` entry's numbers
            (``mean``), as ``(name, value)`` in file order.
        pass_at_k: ``pass_at_k`` as ``(k, value)``, by k.
        exceptions: ``exception_stats`` as ``(type, trials)``.
        raw: The entry as in the file.
    """

    key: str
    figures: tuple[tuple[str, float], ...]
    pass_at_k: tuple[tuple[int, float], ...]
    exceptions: tuple[tuple[str, int], ...]
    raw: dict[str, Any]


@dataclass(frozen=True, slots=True)
class JobResult:
    """What a job's ``result.json`` says.

    Attributes:
        path: The file.
        n_total_trials: ``n_total_trials``, or None.
        figures: The numbers of ``stats`` Harbor counts over the whole job
            (:data:`STAT_KEYS` the file has), as ``(name, value)``.
        evals: Each entry of ``stats.evals``.
        started_at: ``started_at``.
        finished_at: ``finished_at`` (None while the job runs).
        raw: The document.
    """

    path: str
    n_total_trials: float | None
    figures: tuple[tuple[str, float], ...]
    evals: tuple[EvalStats, ...]
    started_at: str | None
    finished_at: str | None
    raw: dict[str, Any]

    def eval_stats(self, key: str | None) -> EvalStats | None:
        """The entry of ``stats.evals`` filed under ``key``."""
        return next((e for e in self.evals if e.key == key), None)


def _eval(key: str, value: dict[str, Any]) -> EvalStats:
    figures = [(name, v) for name in EVAL_KEYS if (v := num(value.get(name))) is not None]
    for metric in sequence(value.get("metrics")):
        for name, v in mapping(metric).items():
            if (n := num(v)) is not None:
                figures.append((str(name), n))
    at_k: list[tuple[int, float]] = []
    for k, v in mapping(value.get("pass_at_k")).items():
        n = num(v)
        if n is not None and str(k).isdigit():
            at_k.append((int(k), n))
    exceptions = [
        (str(kind), len(names))
        for kind, names in mapping(value.get("exception_stats")).items()
        if isinstance(names, list)
    ]
    return EvalStats(key, tuple(figures), tuple(sorted(at_k)), tuple(exceptions), value)


def is_job_result(value: Any) -> bool:
    """A job's ``result.json``: an object with ``n_total_trials`` or ``stats``, naming no
    trial."""
    return (
        isinstance(value, dict)
        and ("n_total_trials" in value or isinstance(value.get("stats"), dict))
        and "trial_name" not in value
    )


def read_job_result(value: dict[str, Any], path: str) -> JobResult:
    """The job ``value`` (a decoded ``result.json``) describes."""
    stats = mapping(value.get("stats"))
    figures = tuple((k, v) for k in STAT_KEYS if (v := num(stats.get(k))) is not None)
    evals = tuple(
        _eval(str(key), entry)
        for key, entry in mapping(stats.get("evals")).items()
        if isinstance(entry, dict)
    )
    return JobResult(
        path=path,
        n_total_trials=num(value.get("n_total_trials")),
        figures=figures,
        evals=evals,
        started_at=string(value.get("started_at")),
        finished_at=string(value.get("finished_at")),
        raw=value,
    )
