"""forecast-agent (mini-prophet) outputs: run directories, eval directories, single files.

Shapes read (the files win over the upstream docs; see shared/formats/REAL-WORLD-NOTES.md):

* **Run directory** (0.1.3+): ``info.json`` (``cost_stats``, ``config``, ``version``,
  ``exit_status``, ``submission``, ``evaluation``; up to 0.1.5 also ``board``),
  ``trajectory.json`` (``messages: [{key, message}]``, ``steps: [{input, output}]``,
  ``trajectory_format``) and, from 0.1.6, ``sources.json`` (``sources``, ``source_board``).
  Message keys are taken as the file has them: role-prefixed from 0 (``S0 U0 A0``) or from
  1, or ``m0, m1...`` (0.1.3); nothing assumes a numbering.
* **Eval directory**: ``summary.json`` (``eval_config`` + ``eval``, or ``batch_config`` up to
  0.1.5; ``total_cost``; ``runs: [{run_id | task_id, title, status, cost, submission,
  evaluation, error, output_dir}]``) and ``runs/<id>/`` run directories. Runs listed
  without a directory (timeouts, cost-limit skips) are runs with no steps (``steps`` None);
  run directories not (yet) listed in summary.json (runs in progress) are listed too.
* **Single file** ``{info, messages, trajectory_format: "mini-llm-prophet-1.0"}`` (0.1.0 to
  0.1.2): a plain message list, no keys and no per-step inputs. Keys are given the way later
  versions give them (role prefix + per-role count from 0: ``S0 U0 A0 T0``, ``O0`` for the
  final ``exit`` message), and there is one step per assistant message whose input is every
  message before it in the file. That is what the model saw unless the context manager
  truncated the conversation, in which case the dropped messages are not in the file at all.

Steps: one per model call (``steps`` of trajectory.json), numbered from 1, ref
``RUN/step-N``, kind ``model_call``. Title: the tool calls made (``search("FOMC March…")``,
``add_source("S1")``), else the first line of the text. ``offset_ms`` is the output
message's ``extra.timestamp`` (epoch seconds) minus the run's first timestamp;
``duration_ms`` is that timestamp minus the newest timestamp among the step's input messages
(the tool results the model was answering), i.e. the model call plus the agent's
bookkeeping; None where a timestamp is missing. A model call that made no valid tool call
is not recorded by the agent: its ``FormatError`` reply shows on the next step (field
``format error``), whose input is the first to hold it.

Run counts: the duration is the span of the messages' timestamps, first to last (labelled
so: the agent records no run duration); tool calls are the calls the assistant messages
made; tool errors the tool results that are errors.

Status words are the file's: ``summary.json`` status when final, else ``info.exit_status``.
Outcomes (:func:`outcome_of`): ``submitted`` -> DONE; ``pending`` or an empty exit status
(a run still being written) -> RUNNING; a word containing ``timeout`` (``BatchRunTimeoutError``)
-> TIMEOUT; ``skipped...`` (``skipped_cost_limit``) -> SKIPPED; anything else
(``LimitsExceeded``, ``auth_error``, exception class names) -> ERROR. The score is the
``evaluation.brier_score`` (summary.json, else info.json), labelled ``brier``.

Detection is by content, never by name alone: a name only says which files are worth
reading. Broken or half-written files (runs are rewritten after every step) become
problems with their path and line, and the rest still shows. Nothing outside the opened
directory is read (summary ``output_dir``/ids such as ``../../x`` are refused), and nothing
is ever written.

Modules
    :mod:`~.files` (reading a run's JSON files inside the opened directory),
    :mod:`~.detect` (recognising eval and run directories and single files by content),
    :mod:`~.pool` (the message pool), :mod:`~.board` (the source board: web sources),
    :mod:`~.detail` (what a run and a step hold for the forecast view: ``Run.detail``,
    ``Step.detail``),
    :mod:`~.timeline` (a run's message pool and model calls, its timestamps),
    :mod:`~.steps` (model calls as steps, and what the model saw at each),
    :mod:`~.runs` (status, run-list rows, run fields, whole runs), :mod:`~.source`
    (:class:`EvalSource`, :class:`RunSource` and the registry hooks :func:`claim_dir` and
    :func:`open_file`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trajtui.core.lazynames import lazy_names
from trajtui.formats.forecast.claim import EVAL, FORECAST, RUN, claim_dir, open_file

if TYPE_CHECKING:
    from trajtui.formats.forecast.source import EvalSource, RunSource

_LAZY = {"EvalSource": "source", "RunSource": "source"}
"""The readers, imported when first named (the registry needs only :data:`FORECAST`)."""

if not TYPE_CHECKING:  # (for mypy, the names are the imports above)
    __getattr__ = lazy_names(__name__, _LAZY)


__all__ = [
    "EVAL",
    "FORECAST",
    "RUN",
    "EvalSource",
    "RunSource",
    "claim_dir",
    "open_file",
]
