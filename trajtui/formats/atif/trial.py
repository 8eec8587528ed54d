"""A Harbor trial's ``result.json`` read into plain objects, and the trial's verdict.

Harbor writes a trial's ``result.json`` when the trial ends (no file: still running, or
stopped before it could write one). Its reward is ``verifier_result.rewards``, a dict of one
or several named numbers (``{"reward": 1.0}``, ``{"accuracy": 0.95, "runtime_sec": 1.2}``;
Harbor's first releases wrote one number, ``verifier_result.reward``, read as ``reward``);
an exception the trial met is ``exception_info`` (an agent can time out and still be
graded: then it has both).

The score is the reward named ``reward`` when there is one, else the only reward, else the
first in name order (as Harbor's own viewer does), always said by name. The verdict:

* an exception: its type is the status word; ``...TimeoutError`` types (``AgentTimeoutError``
  above all) are timeouts, every other type an error;
* else a score: ``pass`` at 1 or more, ``fail`` at 0 or less, ``partial`` in between
  (Harbor has no pass threshold; its rewards are 0 or 1 unless a task says otherwise);
* else not graded (no verdict); no ``result.json``: running.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from trajtui.core.model import Outcome
from trajtui.core.values import mapping, string
from trajtui.formats.atif.job import evals_key
from trajtui.formats.atif.trajectory import parse_time

REWARD = "reward"


@dataclass(frozen=True, slots=True)
class TrialResult:
    """What a trial's ``result.json`` says.

    Attributes:
        trial_name: ``trial_name``.
        task_name: ``task_name``.
        dataset: ``source`` (the dataset the task came from), or None.
        agent: ``agent_info`` as in the file (``{}`` when absent).
        rewards: ``verifier_result.rewards`` as in the file, or None.
        score: The score (see the module docstring), or None.
        score_key: The reward the score is.
        exception: ``exception_info`` as in the file, or None.
        started_at: ``started_at`` as in the file.
        finished_at: ``finished_at`` as in the file.
        duration_ms: ``finished_at - started_at``, or None.
        agent_result: ``agent_result`` as in the file (tokens and cost Harbor counted).
        raw: The document.
    """

    trial_name: str | None
    task_name: str | None
    dataset: str | None
    agent: dict[str, Any]
    rewards: dict[str, Any] | None
    score: float | None
    score_key: str | None
    exception: dict[str, Any] | None
    started_at: str | None
    finished_at: str | None
    duration_ms: float | None
    agent_result: dict[str, Any] | None
    raw: dict[str, Any]

    @property
    def exception_type(self) -> str | None:
        """``exception_info.exception_type``."""
        return string((self.exception or {}).get("exception_type"))

    @property
    def evals_key(self) -> str | None:
        """The key the job's ``result.json`` files this trial's figures under
        (``agent__model__dataset``, from ``agent_info`` and ``source``)."""
        info = self.agent.get("model_info")
        model = string(info.get("name")) if isinstance(info, dict) else None
        return evals_key(string(self.agent.get("name")), model, self.dataset)

    @property
    def graded(self) -> bool:
        """The verifier gave the trial a reward (its score is a number)."""
        return self.score is not None and self.score == self.score

    @property
    def score_label(self) -> str | None:
        """What the score is: the reward's key (``reward``), the same name whatever other
        rewards the trial has (every reward is in the trial's ``rewards`` field): the same
        quantity in two jobs is one figure of the stats, not two."""
        return self.score_key

    @property
    def passed(self) -> bool | None:
        """The verifier's grade of the trial: its reward is 1 or more (None: no reward),
        whatever else the trial is (an agent that timed out is still graded)."""
        if self.score is None or self.score != self.score:
            return None
        return self.score >= 1


def reward_value(value: Any) -> float | None:
    """A reward as a number: numbers as they are, JSON booleans as 1 and 0 (some verifiers
    write them); None for anything else."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, (int, float)):
        return value
    return None


def pick_score(rewards: dict[str, Any] | None) -> tuple[str | None, float | None]:
    """``(key, value)`` of the reward that is the score, or ``(None, None)``."""
    if not rewards:
        return None, None
    if REWARD in rewards and reward_value(rewards[REWARD]) is not None:
        return REWARD, reward_value(rewards[REWARD])
    for key in sorted(k for k in rewards if isinstance(k, str)):
        value = reward_value(rewards[key])
        if value is not None:
            return key, value
    return None, None


def is_trial_result(value: Any) -> bool:
    """A trial's ``result.json``: an object naming its trial and task."""
    return (
        isinstance(value, dict)
        and isinstance(value.get("trial_name"), str)
        and isinstance(value.get("task_name"), str)
    )


def read_trial_result(value: dict[str, Any]) -> TrialResult:
    """The trial ``value`` (a decoded ``result.json``) describes."""
    verifier = mapping(value.get("verifier_result"))
    rewards = verifier.get("rewards") if isinstance(verifier.get("rewards"), dict) else None
    if rewards is None and reward_value(verifier.get(REWARD)) is not None:
        rewards = {REWARD: verifier[REWARD]}  # Harbor's first releases: one reward
    key, score = pick_score(rewards)
    started, finished = string(value.get("started_at")), string(value.get("finished_at"))
    t0, t1 = parse_time(started), parse_time(finished)
    exception = value.get("exception_info")
    agent_result = value.get("agent_result")
    return TrialResult(
        trial_name=string(value.get("trial_name")),
        task_name=string(value.get("task_name")),
        dataset=string(value.get("source")),
        agent=mapping(value.get("agent_info")),
        rewards=rewards,
        score=score,
        score_key=key,
        exception=exception if isinstance(exception, dict) else None,
        started_at=started,
        finished_at=finished,
        duration_ms=(t1 - t0) * 1000 if t0 is not None and t1 is not None else None,
        agent_result=agent_result if isinstance(agent_result, dict) else None,
        raw=value,
    )


def verdict(trial: TrialResult | None, *, finished: bool = True) -> tuple[str | None, Outcome]:
    """The status word and outcome of a trial (``finished``: it has a ``result.json``)."""
    if trial is None:
        return ("running", Outcome.RUNNING) if not finished else (None, Outcome.NONE)
    kind = trial.exception_type
    if trial.exception is not None:
        word = kind or "exception"
        return word, Outcome.TIMEOUT if word.endswith("TimeoutError") else Outcome.ERROR
    if trial.score is None or trial.score != trial.score:  # none, or NaN
        return None, Outcome.NONE
    if trial.score >= 1:
        return "pass", Outcome.PASS
    if trial.score <= 0:
        return "fail", Outcome.FAIL
    return "partial", Outcome.PARTIAL
