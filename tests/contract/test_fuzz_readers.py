"""Fuzzing every reader with hypothesis: whatever the bytes, reading and rendering never
raise anything but the documented LoadError, every entry is a run or a problem, and every
step's own reference resolves to it."""

from __future__ import annotations

import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from tests.formats.acp.builders import capture, step_message, step_tool
from tests.formats.forecast import builders as bf
from tests.helpers.workspace import open_paths
from trajtui.core.model import Problem, RunSummary
from trajtui.core.source import LoadError
from trajtui.formats.registry import run_view
from trajtui.render import show

FUZZ = settings(
    max_examples=int(os.environ.get("TRAJTUI_FUZZ_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**63), max_value=2**63),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
)
json_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5),
        st.dictionaries(st.text(max_size=12), children, max_size=5),
    ),
    max_leaves=25,
)

# Keys the readers look for, so random objects hit the interesting paths.
KEYS = st.sampled_from(
    [
        "id",
        "input",
        "output",
        "trajectory",
        "timing",
        "toolErrors",
        "status",
        "score",
        "trials",
        "k",
        "toolCalls",
        "duration",
        "type",
        "content",
        "name",
        "timestamp",
        "stepId",
        "pass",
        "errors",
        "metadata",
        "hint",
        "expected",
        "results",
        "run_id",
        "task",
        "verdict",
        "gt_verdict",
        "correct",
        "business_id",
        "messages",
        "steps",
        "key",
        "message",
        "sources",
        "source_board",
        "runs",
        "eval_config",
        "cost_stats",
        "exit_status",
        "submission",
        "evaluation",
        "info",
    ]
)
shaped = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(KEYS, children, max_size=8)
    ),
    max_leaves=30,
)


def render_everything(ws: Any) -> None:
    """Scan, summarise, load, resolve and render every run and step."""
    console = Console(file=io.StringIO(), width=100, color_system="truecolor", force_terminal=True)
    for _ in ws.scan():
        pass
    for source in ws.sources:
        for i in range(len(source)):
            entry = source.entry(i)
            assert isinstance(entry, (RunSummary, Problem))
            if isinstance(entry, Problem):
                assert str(entry)
                continue
            try:
                run = source.run(i)
            except LoadError:
                continue
            console.print(show.render_run(run, run.ref, run_view(run)))
            for attempt in run.attempts:
                console.print(show.render_attempt(run, attempt, attempt.ref))
            for steps in [run.steps, *(a.steps for a in run.attempts)]:
                for step in steps:
                    console.print(show.render_step(step, steps))
                    # a step's own reference, as shown (with its source's label where
                    # another source has the same one), always leads back to it
                    target = ws.resolve(ws.ref(source, step.ref))
                    assert (target.ref, target.step) == (step.ref, step.number), step.ref
        for problem in source.problems():
            assert str(problem)


def mutated_capture(draw: Any) -> bytes:
    rec = capture(
        draw(st.text(min_size=1, max_size=10)),
        [step_message("hi", 1), step_tool("X", "completed", 2)],
    )
    key = draw(st.sampled_from([*rec, "trajectory"]))
    rec[key] = draw(shaped)
    return json.dumps(rec).encode()


@st.composite
def jsonl_lines(draw: Any) -> bytes:
    kind = draw(st.integers(min_value=0, max_value=4))
    if kind == 0:
        return mutated_capture(draw)
    if kind == 1:
        return json.dumps(draw(shaped)).encode()
    if kind == 2:
        return draw(st.binary(max_size=60)).replace(b"\n", b" ")
    if kind == 3:
        return mutated_capture(draw)[: draw(st.integers(min_value=0, max_value=80))]
    return json.dumps(
        {"id": draw(st.text(max_size=8)), "trials": draw(shaped), "k": draw(scalars)}
    ).encode()


@FUZZ
@given(st.lists(jsonl_lines(), min_size=1, max_size=8), st.booleans())
def test_acp_jsonl_reader(lines: list[bytes], first_valid: bool) -> None:
    head = [json.dumps(capture("anchor")).encode()] if first_valid else []
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "f.jsonl"
        p.write_bytes(b"\n".join(head + lines))
        ws = open_paths([str(p)])
        render_everything(ws)
        ws.close()


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(["info.json", "trajectory.json", "sources.json"]), shaped, min_size=1
    ),
    shaped,
)
def test_forecast_reader(files: dict[str, Any], summary_runs: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ev = Path(tmp) / "eval"
        bf.write_json(
            ev / "summary.json",
            {
                "eval_config": {},
                "total_cost": 0,
                "runs": [
                    {"run_id": "r1", "status": "submitted", "cost": {"total": 0}},
                    summary_runs,
                ],
            },
        )
        run = ev / "runs" / "r1"
        bf.run_dir(run, bf.fed_run())
        for name, value in files.items():
            (run / name).write_text(json.dumps(value))
        ws = open_paths([str(ev)])
        render_everything(ws)
        ws.close()


@FUZZ
@given(st.lists(shaped, max_size=6), st.dictionaries(KEYS, shaped, max_size=6))
def test_eval_results_reader(samples: list[Any], top: dict[str, Any]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "results" / "dev" / "20260101_000000_x"
        run.mkdir(parents=True)
        doc = {"run_id": "x", "model": "m", "k": 5, **top, "results": samples}
        (run / "results.json").write_text(json.dumps(doc))
        ws = open_paths([str(Path(tmp) / "results")])
        render_everything(ws)
        ws.close()


@FUZZ
@given(
    st.lists(
        st.one_of(shaped.map(lambda v: yaml.safe_dump(v)), st.text(max_size=80)),
        min_size=1,
        max_size=4,
    )
)
def test_ultraplan_reader(documents: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        logs = Path(tmp) / "proj" / ".ultraplan" / "logs" / "executions" / "2026-01-26"
        logs.mkdir(parents=True)
        for n, doc in enumerate(documents, 1):
            (logs / f"03-01-task-{n:02d}-success.yaml").write_text(doc)
        ws = open_paths([str(Path(tmp) / "proj")])
        render_everything(ws)
        ws.close()
        assert len(os.listdir(logs)) == len(documents)  # nothing written beside the data
