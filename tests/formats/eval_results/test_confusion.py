"""Eval results: the confusion table of verdicts (null kept, ordered by severity, non-text
values) and of a run."""

from __future__ import annotations

from pathlib import Path

from tests.formats.eval_results import builders as b
from tests.formats.eval_results.opened import one_source, run_of
from trajtui.formats.eval_results.confusion import confusion_of
from trajtui.formats.eval_results.detail import confusion

# -- confusion table ------------------------------------------------------------------------------------


def test_confusion_of_keeps_null_and_orders_by_severity() -> None:
    table = confusion_of(
        [
            ("High Risk", "Low Risk"),
            ("Low Risk", "Low Risk"),
            ("Low Risk", "Low Risk"),
            (None, None),
            ("Critical Risk", None),
            (None, "Odd"),
        ]
    )
    assert table.gt_labels == ("Low Risk", "High Risk", "Critical Risk", None)
    assert table.verdict_labels == ("Low Risk", "Odd", None)
    assert table.count("Low Risk", "Low Risk") == 2
    assert table.count(None, None) == 1 and table.count("Critical Risk", None) == 1
    assert table.count("High Risk", "High Risk") == 0
    assert table.total == 6
    assert table.rows()[0] == {"gt_verdict": "Low Risk", "verdict": "Low Risk", "count": 2}


def test_confusion_of_non_text_values_and_empty() -> None:
    table = confusion_of([(1, {"v": 2})])
    assert table.count("1", '{"v":2}') == 1
    empty = confusion_of([])
    assert (empty.total, empty.gt_labels, empty.rows()) == (0, (), [])


def test_confusion_of_a_run(tree: Path) -> None:
    source = one_source(tree)
    table = confusion(run_of(source, b.DEV_DIRECT))
    assert table.count("Low Risk", "Low Risk") == 1
    assert table.count("High Risk", "Low Risk") == 1
    assert table.count("High Risk", "High Risk") == 1
    failed = confusion(run_of(source, b.DEV_FAILED))
    assert failed.count(None, None) == 1  # the failed sample: no verdict, no ground truth
    assert failed.count(None, "Low Risk") == 1 and failed.total == 2
    later = b.make_later_run(Path(source.path).parent / "later" / "run_9")
    run = one_source(later).run(0)
    assert confusion(run).count("High Risk", None) == 1
    assert confusion(run).count("Low Risk", "High Risk") == 1
