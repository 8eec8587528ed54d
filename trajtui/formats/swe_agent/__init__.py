"""SWE-agent trajectories (``*.traj``) and output directories.

What is read
    A trajectory file, told by its first bytes: 0.x (``environment`` first, ``state`` a JSON
    string, no ``replay_config``), 1.0 and 1.1 (``replay_config``, ``tool`` history
    messages, ``execution_time``, the conversation copy ``query`` on every step, dropped as
    it is read), a demonstration holding only ``history``, a RetryAgent file
    (``attempts``). The ``.pred`` beside a trajectory, and an output directory's
    ``preds.json`` (``<id>/<id>.traj`` for each instance), give the run's prediction.

Runs and steps
    A run per file (ref: the file name without ``.traj``; a RetryAgent file's attempts its
    trials). Its status is ``info.exit_status`` as written (``submitted`` done, also when
    autosubmitted after a limit; ``exit_cost`` and the time limits a timeout; any other
    ``exit_*`` an error); cost, tokens and API calls are ``info.model_stats``; the duration
    the sum of the commands' ``execution_time``; the title the problem statement. Steps:
    the prompts, then for each step its thought and its action as a tool call (the tool:
    the action's first word) with the observation, then the exit with the submission. The
    file has no exit codes: a tool call's state is unknown and a run's tool errors are not
    counted (``—``), never 0.

Modules
    Readers: :mod:`~.document`, :mod:`~.lean` (one pass keeping numbers per item, the
    steps built when shown), :mod:`~.steps`, :mod:`~.runs`. Glue: :mod:`~.source`
    (:class:`SweSource`, :data:`SWE_AGENT`).
"""

from __future__ import annotations

from trajtui.formats.swe_agent.source import FORMAT, SWE_AGENT, SweSource

__all__ = ["FORMAT", "SWE_AGENT", "SweSource"]
