"""Fuzzing every directory format's layout with hypothesis: a Harbor job (trials with
verifier reports), a forecast eval or run directory, an ultraplan project, an eval results
tree and a directory of JSON Lines files are built, then mutated (files deleted, renamed to hostile or meaningful names, replaced by
directories, FIFOs or symbolic links in, out, to ``/dev/zero``, dangling or looping; extra
files added; contents cut or garbled). Opening, listing, loading, resolving and rendering
every run never raises, never hangs (a 30 s alarm per example), never writes into the tree,
and every problem is one ``PATH: message`` (or ``PATH:LINE: message``) line that is not an
internal error.
"""

from __future__ import annotations

import json
import os
import signal
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.contract.test_fuzz_readers import render_everything
from tests.formats.acp.builders import capture, step_message, step_tool, write_jsonl
from tests.formats.atif import tbench
from tests.formats.eval_results import builders as be
from tests.formats.forecast import builders as bf
from tests.formats.ultraplan import builders as bu
from tests.helpers.workspace import open_paths
from trajtui.core.model import Problem

FUZZ = settings(
    max_examples=int(os.environ.get("TRAJTUI_FUZZ_EXAMPLES", "25")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


# -- the layouts ---------------------------------------------------------------------------------


def forecast_eval(root: Path) -> None:
    ev = root / "eval"
    bf.write_json(ev / "summary.json", bf.summary([bf.entry("fed"), bf.entry("nba")]))
    bf.run_dir(ev / "runs" / "fed", bf.fed_run())
    bf.run_dir(ev / "runs" / "nba", bf.nba_run())


def forecast_run(root: Path) -> None:
    bf.run_dir(root / "run", bf.fed_run())
    bf.single_file(root / "single.json")


def ultraplan_project(root: Path) -> None:
    project = bu.project(root / "proj")
    bu.write_result(project, "03-01-task-01-success.yaml", bu.result())
    bu.write_result(project, "03-01-task-02-failure.yaml", bu.result(task=2, status="failure"))
    bu.write_json(project / ".ultraplan" / "logs" / "current-session.json", {"session_id": "s"})
    bu.write_plan(
        project, "03-01", bu.plan_md("03-exec", 1, [("Task 1: a", ["src/a"])], [("done", True)])
    )


def eval_results_tree(root: Path) -> None:
    be.make_tree(root)
    be.make_later_run(root / "later" / "yelp" / "amos" / "G1_K50" / "run_1")


def jsonl_files(root: Path) -> None:
    (root / "caps").mkdir()
    write_jsonl(
        root / "caps" / "a.jsonl",
        [capture("a", [step_message("hi", 1), step_tool("Read", "completed", 2)]), capture("b")],
    )
    write_jsonl(root / "caps" / "b.jsonl", [capture("c")])


def harbor_job(root: Path) -> None:
    tbench.tb_job(root / "job")  # trials with verifier reports, the job's result.json


LAYOUTS: dict[str, Callable[[Path], None]] = {
    "harbor-job": harbor_job,
    "forecast-eval": forecast_eval,
    "forecast-run": forecast_run,
    "ultraplan": ultraplan_project,
    "eval-results": eval_results_tree,
    "jsonl": jsonl_files,
}

# Names that mean something to some format, and names that try to act on a terminal.
MEANINGFUL = [
    "info.json",
    "trajectory.json",
    "sources.json",
    "summary.json",
    "results.json",
    "results.jsonl",
    "config.json",
    "result.json",
    "ctrf.json",
    "test-stdout.txt",
    "verifier",
    "run_manifest.json",
    "run_7.json",
    "03-01-task-09-success.yaml",
    "03-02-PLAN.md",
    "PLAN.md",
    "current-session.json",
    "daily-2026-01-26.json",
    "retry.jsonl",
    "retry.log",
    "executions",
    "2026-01-26",
    "runs",
    "item_logs",
    "debug",
    ".ultraplan",
    ".planning",
    "logs",
    ".git",
    "\x1b]0;pwned\x07.json",
    "[@click=app.quit]x.jsonl",
    "\u202eevil.json",
    "a\nb.jsonl",
]
names = st.one_of(
    st.sampled_from(MEANINGFUL),
    st.text(
        alphabet=st.characters(blacklist_characters="/\x00", blacklist_categories=["Cs"]),
        min_size=1,
        max_size=16,
    ).filter(lambda n: n not in (".", "..") and len(n.encode()) < 200),
)
OPS = [
    "delete",
    "rename",
    "dir",
    "fifo",
    "link-in",
    "link-out",
    "link-dev",
    "dangling",
    "loop",
    "extra",
    "cut",
    "garble",
    "empty",
    "deep-json",
    "deep-yaml",
]
mutations = st.lists(
    st.tuples(st.sampled_from(OPS), st.integers(min_value=0, max_value=10_000), names),
    max_size=6,
)


def files_of(root: Path) -> list[Path]:
    """Every regular file under ``root`` (not through links), in a stable order."""
    out: list[Path] = []
    for where, dirs, files in os.walk(root):
        dirs.sort()
        out.extend(Path(where) / f for f in sorted(files) if (Path(where) / f).is_file())
    return [p for p in out if not p.is_symlink()]


def mutate(root: Path, op: str, index: int, name: str, outside: Path) -> None:
    files = files_of(root)
    if not files:
        return
    target = files[index % len(files)]
    sibling = target.parent / name
    try:
        if op == "delete":
            target.unlink()
        elif op == "rename":
            target.rename(sibling)
        elif op == "dir":
            target.unlink()
            target.mkdir()
            (target / "inner.json").write_text("{}")
        elif op == "fifo":
            target.unlink()
            os.mkfifo(target)
        elif op == "link-in":
            other = files[(index + 1) % len(files)]
            target.unlink()
            target.symlink_to(other)
        elif op == "link-out":
            target.unlink()
            target.symlink_to(outside)
        elif op == "link-dev":
            target.unlink()
            target.symlink_to("/dev/zero")
        elif op == "dangling":
            target.unlink()
            target.symlink_to(target.parent / "nowhere")
        elif op == "loop":
            target.unlink()
            target.symlink_to(target.parent)
        elif op == "extra":
            if os.path.lexists(sibling) and not sibling.is_file():  # a FIFO made before
                return  # (writing to it would wait for a reader: the test, not trajtui, hung)
            sibling.write_bytes(target.read_bytes()[: index % 300])
        elif op == "cut":
            data = target.read_bytes()
            target.write_bytes(data[: index % max(1, len(data))])
        elif op == "garble":
            garbled = bytearray(target.read_bytes())
            if garbled:
                garbled[index % len(garbled)] = index % 256
            target.write_bytes(bytes(garbled))
        elif op == "empty":
            target.write_bytes(b"")
        elif op == "deep-json":
            target.write_text('{"runs": ' + "[" * 5000 + "]" * 5000 + "}")
        elif op == "deep-yaml":
            target.write_text("a: " + "[" * 5000 + "\n")
    except OSError:
        pass  # a name the filesystem refuses, a path already changed: the tree stays as it is


def state(root: Path) -> dict[str, tuple[int, int, int]]:
    """Every entry under ``root`` (links not followed): mode, size and mtime."""
    out = {}
    for where, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            st = os.lstat(os.path.join(where, name))
            out[os.path.join(where, name)] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


class Hung(BaseException):
    """Raised by the alarm: not an OSError or an Exception, so no reader's guard swallows it."""


@contextmanager
def no_hang(seconds: int) -> Iterator[None]:
    """Fail (instead of hanging the suite) when the block takes longer than ``seconds``: the
    alarm interrupts even a blocking ``open`` of a FIFO."""

    def hung(signum: int, frame: Any) -> None:
        raise Hung(f"hung for {seconds} s")

    previous = signal.signal(signal.SIGALRM, hung)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def check_problem(problem: Problem) -> None:
    text = str(problem)
    assert problem.path and text.startswith(problem.path)
    assert "\n" not in problem.message and problem.message.strip()
    assert "internal error" not in problem.message, text


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@FUZZ
@given(mutations=mutations)
# two results files renamed info.json: the same step reference in two sources
@example(mutations=[("rename", 0, "info.json"), ("rename", 13, "info.json")])
def test_every_layout_survives_mutated_names_and_files(
    layout: str, mutations: list[tuple[str, int, str]]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "tree"
        root.mkdir()
        outside = Path(tmp) / "outside.json"
        outside.write_text(json.dumps(bf.info()))
        LAYOUTS[layout](root)
        for op, index, name in mutations:
            mutate(root, op, index, name, outside)
        before = state(root)
        with no_hang(30):
            ws = open_paths([str(root)])
            try:
                render_everything(ws)
                for problem in ws.problems:
                    check_problem(problem)
                for source in ws.sources:
                    for problem in source.problems():
                        check_problem(problem)
            finally:
                ws.close()
        assert state(root) == before  # nothing written, nothing read through a FIFO
