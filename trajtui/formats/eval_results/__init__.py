"""Eval results (the ADDM Yelp allergy eval): ``results/`` trees, single results files and the
legacy ``results.jsonl``.

The real files differ from shared/formats/eval-results-json-schema.md, and the files win (see
REAL-WORLD-NOTES.md). Shapes read, all recognised by content (a name only says which files
are worth reading):

* **results document** ``{run_id, task_id, policy_id, gt_task_id, domain, method, model, k,
  n, timestamp, accuracy, correct, total, auprc, results: [...]}``, one object per sample
  (``business_id``, ``name``, ``response``, ``parsed``, ``verdict``, ``risk_score``, tokens,
  ``cost_usd``, ``latency_ms``, ``gt_verdict``, ``correct``...). Variants: the oldest
  baseline (``task`` instead of ``run_id``/``method``, no grading fields; ``k`` sometimes the
  string ``"ordinal_auprc"``), method ``rag`` (retrieval fields, no ``parsed``), ``parsed:
  {parse_error}``, a failed sample that is just ``{business_id, name, error}``.
* **per-sample document** (later): ``{metadata, method_meta, aggregate_scores, usage_summary,
  per_sample_results: [{item_id, scores, parsed: {verdict, score}, output}], accuracy,
  correct, total, auprc, ...}``. Failed samples are left out of ``per_sample_results``; the
  raw response, ground truth, cost and errors are in ``item_logs/<id>.json``, read when the
  run is opened (logs with no entry are the failed samples: they are listed after the others).
* **legacy JSON Lines**: one sample per line (``sample_id``, ``verdict``...), sometimes
  ending with a ``{"type": "metrics", ...}`` line (the run's metrics, not a sample).

A run that processed nothing is a run with 0 samples (status ``empty``), never dropped:
``"results": []`` with a run key (``run_id``, ``task``, ``policy_id``...), an empty
``per_sample_results``, a JSON Lines file with only its metrics line or with no line at all.
A run directory's results file that is JSON of another kind is a warning row.
* **test query dump** ``{timestamp, model, restaurant: {name, business_id}, num_reviews,
  prompt, response, usage}`` (``results/test_queries/*.json``): a run of one sample.

Files next to a results file belong to its run and are read when the run is opened:
``config.json``, ``summary.json`` and ``run_manifest.json`` become run fields (this
``summary.json`` is ADDM's, not the forecast agent's: it is never used to detect anything),
``results.jsonl`` beside a ``results.json`` is that run's per-sample log (a field of the run,
not a second run), ``debug/<sample_id>.json`` gives a sample its prompt (Step.input) and,
when the sample has none, its raw response. A run directory with a ``config.json`` and no
results file is reported as a warning.

Grouping: a results tree is ONE source. :func:`claim_dir` claims a directory that is a run
directory (it holds a results file), or a tree root: run directories two levels down
(``results/`` above ``{mode}/{run}/`` and ``baseline/{task}/run_*.json``) or ``run_N``
directories four levels down (the later ``results/{dataset}/{method}/{policy}_K{k}/run_N/``),
or, when it is the directory the user opened, run directories one level down
(``results/dev``). Of a claimed directory, this format reads what is its own by content
(:class:`~.tree.ResultsScope`: results files, run directories' companions); every other
file and directory in it is left to the other formats (an acp-harness ``results.jsonl``, a
Harbor job inside a results tree). A results file opened directly is a source with one run.

References: a run is named by its directory (``20260118_001429_G1_allergy_V2``) or, for a
results file not called ``results.json(l)``, its stem (``run_20260115_183358``), because
``run_id`` repeats across runs. When that name is not unique in the tree, parent directories
are prepended until it is (``rlm/G1_K50/run_1``). A sample is ``RUN/BUSINESS_ID`` (legacy
lines: ``RUN/SAMPLE_ID``; a repeated id gets ``#2``; a sample with no id ``RUN/step-N``).

Status words (derived from named fields):

* a run: ``empty`` (no samples, NONE); ``error`` (every sample has ``error``, ERROR);
  ``partial`` (some do, PARTIAL); otherwise ``graded`` when the file has ground truth (its
  ``total`` > 0 or a sample's ``gt_verdict`` is not null) or ``ungraded`` (both DONE).
  Parse errors do not change it (the file still grades those samples). The score is the
  file's ``accuracy`` (labelled ``accuracy``); the cost is the sum of the samples'
  ``cost_usd`` (a run field says so), for per-sample documents the file's own
  ``usage_summary.total_cost_usd`` (per-sample costs are in item logs), else None. The
  duration is the file's ``usage_summary.total_latency_ms``, else the sum of the samples'
  ``latency_ms`` (labelled so), when they have one.
* a sample: ``error`` (it has ``error``, ERROR); else the file's ``correct``: ``correct``
  (PASS) or ``wrong`` (FAIL), shown as the file says even when both verdicts are null (a
  ``note`` field points that out); ``ungraded`` (NONE) when it has no ``correct``. A parse
  error is the step's error whatever its status.

Broken inputs: a results file that is not JSON (or half-written) is a problem row
(``path:line: message``) and the other runs still show; a broken line of a JSON Lines file
is a problem and the run shows its other lines. Links out of the opened directory are not
followed and nothing is ever written.

Modules
    :mod:`~.shapes` (what a results file is, recognised from its value or its first bytes;
    :class:`ResultsFile`), :mod:`~.reading` (reading a file in bounded memory, JSON Lines
    and documents), :mod:`~.samples` (one :class:`~.samples.Sample` per shape),
    :mod:`~.tally` (counts over every sample, status words), :mod:`~.confusion` (confusion
    tables), :mod:`~.runs` (run-list rows, run headers, samples as steps), :mod:`~.tree`
    (recognising results trees and naming their runs), :mod:`~.source`
    (:class:`ResultsSource` and the registry hooks :func:`claim_dir` and :func:`open_file`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from trajtui.core.lazynames import lazy_names
from trajtui.formats.eval_results.claim import EVAL_RESULTS, claim_dir, open_file
from trajtui.formats.eval_results.shapes import RESULTS

if TYPE_CHECKING:
    from trajtui.formats.eval_results.source import ResultsSource

# the reader, imported when first named (the registry needs only EVAL_RESULTS)
if not TYPE_CHECKING:  # (for mypy, the names are the imports above)
    __getattr__ = lazy_names(__name__, {"ResultsSource": "source"})


__all__ = ["EVAL_RESULTS", "RESULTS", "ResultsSource", "claim_dir", "open_file"]
