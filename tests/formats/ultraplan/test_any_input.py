"""ultraplan logs: nothing from a file makes the reader raise (any document judged, any plan
text parsed, odd keys and digits, retry logs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.formats.ultraplan.builders import (
    PLAN,
    dump,
    logs_dir,
    project,
    result,
    write_result,
)
from tests.formats.ultraplan.projects import opened, run_cli, summaries
from trajtui.formats import ultraplan as up
from trajtui.formats.ultraplan import (
    Verdict,
    judge,
    parse_plan,
    read_result,
)

# -- nothing from a file makes the reader raise ----------------------------------------------

_scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
_keys = st.sampled_from(
    [*up.SNAKE_KEYS, *up.CAMEL_KEYS, "result", "plan_id", "task_index", "logged_at", "x"]
) | st.text(max_size=4)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_keys, inner, max_size=6),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(doc=_values, name=st.sampled_from([None, "03-01-task-02-failure.yaml", "x.yaml"]))
def test_judging_any_document_never_raises(doc: Any, name: str | None) -> None:
    r = read_result(doc, name)
    for plan in (None, PLAN):
        j = judge(r, plan, exists=lambda p: False)
        assert j.verdict in Verdict
        assert all("\n" not in m and "\r" not in m for m in j.reasons)


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet="-[]x `~<>/\n taskname:_successcriteria", max_size=300))
def test_parsing_any_plan_text_never_raises(text: str) -> None:
    doc = parse_plan(text)
    assert all(c.checked in (True, False, None) for c in doc.criteria)


def test_unicode_digits_in_ids_are_not_numbers() -> None:
    from trajtui.formats.ultraplan.ids import as_int

    assert as_int("²") is None and as_int(" 12 ") == 12 and as_int("٣") is None


def test_keys_that_are_not_strings_are_shown_as_yaml_spells_them(tmp_path: Path) -> None:
    """YAML keys may be null, numbers or booleans (``? x``, ``1: a``): show prints them."""
    project(tmp_path)
    text = dump(result()) + "? \n2: two\ntrue: yes-key\n"
    write_result(tmp_path, "03-01-task-01-success.yaml", text)
    shown = run_cli("show", str(tmp_path), "03-01/step-1")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert any(line.strip().startswith("null") for line in lines), shown.stdout
    assert any(line.strip().startswith("2") and "two" in line for line in lines), shown.stdout
    assert any(line.strip().startswith("true") and "yes-key" in line for line in lines)


@pytest.mark.parametrize(
    ("line", "named"),
    [
        ("10:41 retry 03-01 task 2", {"03-01"}),
        ("retry 03-02-05 attempt 2", {"03-02"}),  # a task id names its plan, not 02-05
        ("retry 3.1-2 now", {"3.1-2"}),  # decimal phases
        ("v1.03-01 is a version", set()),  # after a dot: not a token start
        ("x03-01 and 03-012", {"03-012"}),  # inside a word; a longer number
        ("03-01, 04-02; (05-03)", {"03-01", "04-02", "05-03"}),
        ("", set()),
    ],
)
def test_retry_log_lines_name_the_plans_they_mention(line: str, named: set[str]) -> None:
    from trajtui.formats.ultraplan.attach import plans_named

    assert plans_named(line) == named


def test_retry_log_of_many_plans_is_split_once_and_each_plan_gets_its_lines(
    tmp_path: Path,
) -> None:
    root = project(tmp_path)
    for n in range(1, 41):
        write_result(root, f"03-{n:02d}-task-1.yaml", result())
    lines = [f"{i}: retry 03-{i % 40 + 1:02d}-01 attempt {i}" for i in range(4000)]
    (logs_dir(root) / "retry.log").write_text("\n".join(lines) + "\n")
    source, _ = opened(root)
    label = "retry log (.ultraplan/logs/retry.log)"
    by_plan = {
        s.ref: {f.label: f.value for f in source.run(s.index).fields} for s in summaries(source)
    }
    assert by_plan["03-07"][label].splitlines()[:2] == [
        "6: retry 03-07-01 attempt 6",
        "46: retry 03-07-01 attempt 46",
    ]
    assert all(len(fields[label].splitlines()) == 100 for fields in by_plan.values())
