"""Eval results: each shape of file recognised by its content (not its name), from an object or
a half-written head, and nothing read until the scan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.formats.eval_results import builders as b
from tests.formats.eval_results.opened import summaries
from tests.helpers.workspace import open_paths
from trajtui.core.io.detect import sniff
from trajtui.formats import eval_results as er
from trajtui.formats.eval_results.shapes import (
    PER_SAMPLE,
    QUERY,
    RECORD,
    RESULTS_DOC,
    head_shape,
    object_shape,
)

# -- recognising files -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("obj", "shape"),
    [
        (b.results_doc([b.sample("x", "X")]), RESULTS_DOC),
        (b.results_doc([], method=None), RESULTS_DOC),
        (b.results_doc([b.failed("x", "X")]), RESULTS_DOC),
        (b.baseline_v0([b.v0_sample("x", "X", "Low Risk")], k="ordinal_auprc"), RESULTS_DOC),
        (
            b.per_sample_doc(
                [b.per_sample_item("x", "Low Risk", True)], accuracy=1, correct=1, total=1
            ),
            PER_SAMPLE,
        ),
        (b.query_dump(), QUERY),
        (b.legacy_line("s1", "X"), RECORD),
        (b.forecast_summary(), None),
        (b.addm_summary(), None),
        (b.run_config(), None),
        (b.debug_capture("s1"), None),
        (b.item_log("s1", "Low Risk", "Low Risk", True), None),
        (b.metrics_line(), None),
        ({"results": [{"id": 1}]}, None),
        ([b.sample("x", "X")], None),
    ],
)
def test_object_shape(obj: object, shape: str | None) -> None:
    assert object_shape(obj) == shape
    head = json.dumps(obj, indent=2).encode()
    if shape in (RESULTS_DOC, PER_SAMPLE, QUERY):
        assert head_shape(head) == shape
    else:
        assert head_shape(head) is None


def test_head_shape_reads_a_half_written_document() -> None:
    text = json.dumps(b.results_doc([b.sample("x", "X"), b.sample("y", "Y")]), indent=2).encode()
    half = text[: len(text) // 2]
    assert head_shape(half) == RESULTS_DOC
    later = json.dumps(b.per_sample_doc([], accuracy=0, correct=0, total=0), indent=2).encode()
    cut = later[: later.index(b'"usage_summary"')]  # per_sample_results not reached yet
    assert head_shape(cut) == PER_SAMPLE


def test_open_file_recognises_by_content_not_name(tmp_path: Path) -> None:
    cases = {
        "anything.json": (b.results_doc([b.sample("x", "X")]), True),
        "minified.json": (None, True),
        "summary.json": (b.forecast_summary(), False),
        "addm-summary.json": (b.addm_summary(), False),
        "config.json": (b.run_config(), False),
        "results.json": ({"results": [1, 2, 3], "accuracy": 0.5}, False),
        "x.json": (b.query_dump(), True),
    }
    for name, (obj, ours) in cases.items():
        path = tmp_path / name
        if obj is None:
            path.write_text(json.dumps(b.results_doc([b.sample("x", "X")])))
        else:
            b.write_json(path, obj)
        got = er.open_file(str(path), sniff(str(path)), None)
        assert (got is not None) is ours, name
    legacy = b.write_lines(tmp_path / "log.txt", [b.legacy_line("s1", "X"), b.metrics_line()])
    assert er.open_file(str(legacy), sniff(str(legacy)), None) is not None
    acp_like = b.write_lines(tmp_path / "other.jsonl", [{"id": "x", "trajectory": []}])
    assert er.open_file(str(acp_like), sniff(str(acp_like)), None) is None


def test_opening_reads_nothing_until_the_scan(tree: Path) -> None:
    ws = open_paths([str(tree)])
    (source,) = ws.sources
    assert len(source) == 0 and not source.complete
    progress = list(source.scan())
    files = [p for p in progress if not p.finished]
    assert len(files) >= 8 and files[-1].done == files[-1].total
    # Every results file is a run; the run directory that wrote none is a warning row.
    assert progress[-1].finished and len(source) == len(summaries(source)) + 1
