"""Tool-call pairing in linear time (issue 8, item 22): forty thousand calls that never pair,
the earliest open call by each rule, a million steps. Full-size cases are measured by ``make
bench`` (``tests/bench/hostile_bench.py``)."""

from __future__ import annotations

from pathlib import Path

from tests.formats.acp.builders import capture, step_tool, write_jsonl
from tests.hostile.fresh import python, run
from trajtui.formats.acp.pairing import pair_tool_calls

# -- 22. tool-call pairing in linear time ----------------------------------------------------


def test_forty_thousand_calls_that_never_pair(tmp_path: Path) -> None:
    # Held to: linear time. Before: 90 s for `show` (O(open x n)); now well under 60 s.
    n = 40_000
    steps = [step_tool("WebSearch", "in_progress", i) for i in range(n)]
    steps += [step_tool(f"other-tool-{i % 7}", "completed", n + i) for i in range(n)]
    p = write_jsonl(tmp_path / "open.jsonl", [capture("open", steps)])
    out = run("show", str(p), "open-step-1", timeout=60)
    assert out.returncode == 0, out.stderr
    assert "in_progress" in out.stdout


def test_pairing_picks_the_earliest_open_call_by_each_rule() -> None:
    names = [
        "WebSearch",  # 0 open
        "Read",  # 1 open
        "google_web_search",  # 2 open
        "WebSearch",  # 3 open
        "toolu_01abc",  # 4 completes 0 (a call id takes the earliest open tool name)
        "WebSearch",  # 5 completes 3 (0 is taken)
        "google_web_search-1770-cc1f",  # 6 completes 2 (its name extends the open one)
        "google",  # 7 open
        "google-web",  # 8 open
        "google-web-search-1",  # 9 completes 7: the earliest of "google" and "google-web"
        "item_3",  # 10 completes 1
        "toolu_02",  # 11 open, named like a call id
        "toolu_03",  # 12 completion: only call-id names are open besides 8
        "Bash",  # 13 completion nobody opened
        None,  # 14 not a tool call
    ]
    statuses = [
        *["pending"] * 4,
        *["completed"] * 3,
        "pending",
        "in_progress",
        "completed",
        "completed",
        "pending",
        "completed",
        "completed",
        None,
    ]
    pairs = pair_tool_calls(names, statuses)
    assert pairs == {
        4: 0,
        0: 4,
        5: 3,
        3: 5,
        6: 2,
        2: 6,
        9: 7,
        7: 9,
        10: 1,
        1: 10,
        12: 8,
        8: 12,
    }


def test_pairing_a_million_steps_is_linear() -> None:
    # 500,000 calls opened and 500,000 completions that pair in reverse order of their
    # names: every lookup must be direct, not a walk over the open calls.
    n = 500_000
    names: list[str | None] = [f"tool-{i}" for i in range(n)]
    names.extend(f"tool-{n - 1 - i}" for i in range(n))
    statuses: list[str | None] = [*(["pending"] * n), *(["completed"] * n)]
    out = python(
        f"""
        import time
        from trajtui.formats.acp.pairing import pair_tool_calls
        names = {names[:0]!r} + [f"tool-{{i}}" for i in range({n})]
        names += [f"tool-{{{n} - 1 - i}}" for i in range({n})]
        statuses = ["pending"] * {n} + ["completed"] * {n}
        pairs = pair_tool_calls(names, statuses)
        print(len(pairs), pairs[0], pairs[{n}])
        """,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [str(2 * n), str(2 * n - 1), str(n - 1)]
    assert len(names) == len(statuses)


def test_pairing_in_one_pass_is_the_pairing_by_every_rule() -> None:
    """The shape Claude Code writes (openings named like tools, completions call ids) is
    paired in one pass: the same pairs every rule gives, whatever the mix of names."""
    import random

    from trajtui.formats.acp.pairing import _pairs

    rng = random.Random(27)
    names_pool = [
        "Bash",
        "Read",
        "toolu_01a",
        "toolu_02b",
        "item_3",
        "google_web_search",
        "google_web_search-1770691532470-cc1f5be1acd028",
        "",
        "a-b",
        "call_x-y",
    ]
    statuses_pool = ["pending", "in_progress", "completed", "failed", None, "odd"]
    one_pass = 0
    for _ in range(3000):
        n = rng.randint(0, 12)
        names = [rng.choice([*names_pool, None]) for _ in range(n)]
        statuses = [rng.choice(statuses_pool) for _ in range(n)]
        if rng.random() < 0.5:  # the Claude Code shape, mostly
            names = [
                None
                if s is None and rng.random() < 0.2
                else rng.choice(["Bash", "Read", ""])
                if s in ("pending", "in_progress")
                else rng.choice(["toolu_01a", "toolu_02b", "item_3"])
                for s in statuses
            ]
        every_rule: dict[int, int] = {}
        for i, match in _pairs(names, statuses):
            every_rule[i] = match
            every_rule[match] = i
        assert pair_tool_calls(names, statuses) == every_rule, (names, statuses)
        one_pass += every_rule != {}
    assert one_pass > 100
