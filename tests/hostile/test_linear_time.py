"""Hostile text and trees read in linear time: PLAN.md bodies and forecast messages built to
make regular expressions backtrack, every regular expression of trajtui against hostile text,
and trees 2,000 levels deep. Each case runs in a subprocess held to a time limit
(:mod:`tests.hostile.limited`)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.formats.acp.builders import capture, write_jsonl
from tests.formats.forecast import builders as bf
from tests.formats.ultraplan import builders as bu
from tests.formats.ultraplan.projects import one_result_project
from tests.hostile.limited import python, trajtui

# -- regular expressions and quadratic work (item 22) ----------------------------------------------

PLAN_BODIES = {
    "objective": "<objective>" * 60_000,  # 660 KB: over 120 s
    "task": "<task " * 100_000,
    "name": "<task>" + "<name>" * 100_000,
    "attrs": "<task " + "a" * 300_000 + ">",
    "criteria": "<success_criteria>\n- " + " " * 600_000 + "\n</success_criteria>",
    "completed": "<success_criteria>\n- [x] a" + " " * 300_000 + "b\n</success_criteria>",
    # the task reader's own work: elements, fences and inline code tracked line by line
    "lone tags": "<a>\n" * 100_000 + "</b>\n" * 100_000 + "</a>\n" * 100_000,
    "nested fences": "```x\n" * 100_000 + "```\n" * 100_000,
    "backtick runs": "".join("`" * (k % 50 + 1) + " " for k in range(100_000)),
    "open actions": "<tasks>\n" + "<task>\n  <action>\n" * 100_000,
}


@pytest.mark.parametrize("body", sorted(PLAN_BODIES))
def test_a_hostile_plan_md_is_read_in_linear_time(tmp_path: Path, body: str) -> None:
    """Held to: 60 s, a hang's deadline (a 660 KB PLAN.md of repeated ``<objective>`` took
    over 120 s; the slowest body now takes 7 s, and over 30 s at load 15 on 2 cores)."""
    project = one_result_project(tmp_path / "p")
    bu.write_plan(project, "03-01", "---\nplan_id: 03-01\n---\n" + PLAN_BODIES[body])
    ran = trajtui("show", str(project), "03-01", timeout=60)
    assert not ran.hung, "backtracking"
    assert ran.code == 0, ran.err


def test_a_forecast_message_of_200000_newlines_is_read_in_linear_time(tmp_path: Path) -> None:
    """Held to: 30 s (it took 82 s)."""
    run = bf.run_dir(tmp_path / "fed")
    doc = json.loads((run / "trajectory.json").read_text())
    for entry in doc["messages"]:
        if entry["message"]["role"] == "user":
            entry["message"]["content"] = "\n" * 200_000 + "no title line"
            break
    (run / "trajectory.json").write_text(json.dumps(doc))
    for args in (("ls", str(run)), ("show", str(run), "fed/step-1")):
        ran = trajtui(*args, timeout=30)
        assert not ran.hung, "backtracking"
        assert ran.code == 0, ran.err


AUDIT = """
import importlib, pkgutil, re, signal, sys, time
import trajtui

N = 50_000
STRINGS = [
    " " * N, "\\n" * N, "\\t\\n" * N, "a" * N, "1" * N, "-" * N, '"' * N, "\\\\" * N,
    "x " * N, "S1" * N, "{" * N, '{"' * N, "[" * N, "<" * N, "<task " * N,
    "<objective>" * N, "<name>" * N, 'a="' * N, "- " + " " * N, "1. " + " " * N + "x",
    "Title:" + "\\n" * N, " " * N + "x", "run_" + "1" * N + "x", "03-" * N, "1." * N,
    '"results":' + " " * N, "(completed " + " " * N, "- [x]" + " " * N + "y",
]
patterns = {}
for info in pkgutil.walk_packages(trajtui.__path__, "trajtui."):
    module = importlib.import_module(info.name)
    for name, value in vars(module).items():
        if isinstance(value, re.Pattern):
            patterns[f"{info.name}.{name}"] = value
        elif isinstance(value, (list, tuple)):
            for i, item in enumerate(value):
                first = item[0] if isinstance(item, tuple) and item else item
                if isinstance(first, re.Pattern):
                    patterns[f"{info.name}.{name}[{i}]"] = first

def hung(signum, frame):
    print(f"backtracks: {current}", flush=True)
    sys.exit(3)

signal.signal(signal.SIGALRM, hung)
for current, pattern in sorted(patterns.items()):
    signal.alarm(10)  # a linear pattern takes milliseconds; a quadratic one, minutes
    for s in STRINGS:
        text = s.encode() if isinstance(pattern.pattern, bytes) else s
        pattern.search(text)
        pattern.match(text)
        for _ in pattern.finditer(text):
            pass
    signal.alarm(0)
print(len(patterns), "patterns")
"""


def test_no_regular_expression_backtracks_on_hostile_text() -> None:
    """Every regular expression defined at module level in trajtui, over text made to make
    patterns backtrack (50,000 repetitions each). Held to: 10 s per pattern (a linear one
    takes milliseconds; the quadratic ones this issue found took minutes)."""
    ran = python(AUDIT, timeout=120)
    assert not ran.hung
    assert ran.code == 0, ran.out + ran.err
    assert int(ran.out.split()[0]) > 40  # the patterns were found


def deep_tree(root: Path, depth: int) -> Path:
    """``root/d/d/.../d``, ``depth`` levels (made with directory descriptors: the path is
    longer than PATH_MAX)."""
    root.mkdir()
    fd = os.open(root, os.O_RDONLY)
    try:
        for _ in range(depth):
            os.mkdir("d", dir_fd=fd)
            deeper = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = deeper
    finally:
        os.close(fd)
    return root


def remove_deep_tree(root: Path) -> None:
    """Remove ``root/d/d/...`` from the bottom up, one relative step at a time
    (``shutil.rmtree`` recurses once per level and fails at 1,000)."""
    home = os.getcwd()
    try:
        os.chdir(root)
        depth = 0
        while os.path.isdir("d"):
            os.chdir("d")
            depth += 1
        for _ in range(depth + 1):
            for name in os.listdir("."):
                if name != "d":
                    os.unlink(name)
            os.chdir("..")
            if os.path.isdir("d"):
                os.rmdir("d")
    finally:
        os.chdir(home)


@pytest.fixture
def fast_tmp(tmp_path: Path) -> Iterator[Path]:
    """A directory in memory when the system has one (removing 2,000 nested directories
    takes seconds on a disk), else ``tmp_path``."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    with tempfile.TemporaryDirectory(dir=shm) as place:
        yield Path(place)


def test_a_tree_2000_levels_deep_is_walked_in_linear_time(fast_tmp: Path) -> None:
    """Held to: 60 s (it took 7 min 18 s, quadratic in the depth)."""
    root = deep_tree(fast_tmp / "deep", 2000)
    try:
        write_jsonl(root / "d" / "d" / "capture.jsonl", [capture("found")])
        ran = trajtui("ls", str(root), timeout=60)
    finally:
        remove_deep_tree(root)
    assert not ran.hung, "quadratic walk"
    assert ran.code == 0, ran.err
    assert "found" in ran.out
    assert "subdirectory not looked into (deeper than 64 levels below" in ran.err
