"""mini-swe-agent trajectories (``*.traj.json``) and SWE-bench batch output directories.

What is read
    A trajectory file, told by its content: ``trajectory_format`` ``mini-swe-agent-1``
    (1.x: actions as fenced ```` ```bash ```` blocks, observations as user messages) or
    ``mini-swe-agent-1.1`` (2.x: native tool calls answered by ``tool`` messages, a final
    ``exit`` message holding the exit status and the submission), and the bare array of
    messages of the oldest files (named ``.traj.json``). A batch directory (``mini-extra
    swebench -o DIR``: ``DIR/<instance>/<instance>.traj.json``, ``DIR/preds.json``) is one
    list of its instances; an instance ``preds.json`` names without a trajectory is listed
    with its prediction alone.

Runs and steps
    A run per file (ref: the instance directory's name, or the file name without
    ``.traj.json``). Its status is ``info.exit_status`` as written (``Submitted`` done,
    ``LimitsExceeded``/``TimeExceeded`` a timeout, any other word an error); its cost and
    API calls ``info.model_stats``; its tokens the model calls' usage (2.x); its duration
    the span of the messages' timestamps; its title the task. Steps: the prompts, each
    model turn's text (a thought) and one tool call per action with its observation (failed
    when its return code is not 0), and the exit (the submission as its output). See
    :mod:`~.steps`.

Modules
    Readers: :mod:`~.document` (recognising a file), :mod:`~.lean` (one pass keeping
    numbers per message, the steps built when shown), :mod:`~.steps` (a step from its
    messages), :mod:`~.runs` (row, fields, detail). Glue: :mod:`~.source`
    (:class:`MiniSource`, :data:`MINI_SWE_AGENT`).
"""

from __future__ import annotations

from trajtui.formats.mini_swe_agent.source import FORMAT, MINI_SWE_AGENT, MiniSource

__all__ = ["FORMAT", "MINI_SWE_AGENT", "MiniSource"]
