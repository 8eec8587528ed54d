"""Row jobs that take a while in a worker process, for the tests of a worker that dies mid-job
(tests/core/test_rowpool_lost.py). A module of its own: a spawned worker imports the module of
the function it runs, and this one imports no more than the rows need."""

from __future__ import annotations

import multiprocessing
import time

from trajtui.core.jsonl import rowjobs
from trajtui.core.jsonl.rowjobs import Job, Row


def slow_rows(job: Job) -> list[Row]:
    """The rows of a job, a while later in a worker (so jobs are still running when one
    dies); at once in the test's own process."""
    if multiprocessing.parent_process() is not None:  # a worker, forked or spawned
        time.sleep(0.1)
    return rowjobs.rows_of(job)
