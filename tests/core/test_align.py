"""Aligning two timelines on hand-made pairs whose right answer is obvious."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from trajtui.core.compare.align import Op, align
from trajtui.core.model import Kind, Step


def tool(n: int, name: str, inp: Any, out: Any = "ok", status: str = "completed") -> Step:
    return Step(
        ref=f"r/step-{n}",
        number=n,
        kind=Kind.TOOL_CALL,
        title=name,
        tools=(name,) if name else (),
        input=inp,
        output=out,
        status=status,
    )


def msg(n: int, text: str, kind: Kind = Kind.MESSAGE) -> Step:
    return Step(ref=f"r/step-{n}", number=n, kind=kind, title=text[:20], text=text)


def renumber(steps: list[Step]) -> list[Step]:
    """The same steps numbered 1.. in this order."""
    return [replace(s, number=k, ref=f"r/step-{k}") for k, s in enumerate(steps, 1)]


BASE = [
    msg(1, "I will look up the CEO of Anthropic.", Kind.THOUGHT),
    tool(2, "WebSearch", {"query": "anthropic ceo"}, "Dario Amodei is the CEO"),
    tool(3, "WebFetch", {"url": "https://anthropic.com/company"}, "<html>team</html>"),
    msg(4, "The CEO of Anthropic is Dario Amodei."),
]


def ops(pairs: Any) -> list[tuple[str, int | None, int | None]]:
    return [(p.op.value, p.a, p.b) for p in pairs]


def test_the_same_timeline_is_all_equal_and_has_no_divergence() -> None:
    got = align(BASE, renumber(BASE))
    assert ops(got.pairs) == [("=", 0, 0), ("=", 1, 1), ("=", 2, 2), ("=", 3, 3)]
    assert got.first_divergence is None


def test_an_inserted_step_is_a_gap_on_the_other_side() -> None:
    extra = tool(0, "Read", {"path": "notes.md"}, "...")
    b = renumber([BASE[0], BASE[1], extra, BASE[2], BASE[3]])
    got = align(BASE, b)
    assert ops(got.pairs) == [("=", 0, 0), ("=", 1, 1), ("+", None, 2), ("=", 2, 3), ("=", 3, 4)]
    assert got.first_divergence == 2


def test_a_changed_tool_input_pairs_the_calls_and_names_the_field() -> None:
    changed = tool(3, "WebFetch", {"url": "https://anthropic.com/team"}, "<html>team</html>")
    got = align(BASE, [BASE[0], BASE[1], changed, BASE[3]])
    assert ops(got.pairs) == [("=", 0, 0), ("=", 1, 1), ("~", 2, 2), ("=", 3, 3)]
    assert got.pairs[2].why == "input differs: url"
    assert got.first_divergence == 2


def test_a_changed_output_is_a_changed_pair() -> None:
    changed = tool(2, "WebSearch", {"query": "anthropic ceo"}, "no results", status="failed")
    got = align(BASE, [BASE[0], changed, BASE[2], BASE[3]])
    assert got.pairs[1].op is Op.CHANGED
    assert got.pairs[1].why == "output differs; status completed → failed"


def test_a_reordered_pair_keeps_one_and_marks_the_other_moved() -> None:
    b = renumber([BASE[0], BASE[2], BASE[1], BASE[3]])
    got = align(BASE, b)
    assert got.count(Op.SAME) == 3
    moved = [p for p in got.pairs if p.op in (Op.ONLY_A, Op.ONLY_B)]
    assert len(moved) == 2
    assert {p.why for p in moved} <= {
        "moved: B step-2",
        "moved: A step-2",
        "moved: B step-3",
        "moved: A step-3",
    }
    assert all(p.why.startswith("moved: ") for p in moved)


def test_a_run_that_stops_early_has_the_rest_only_in_the_other() -> None:
    got = align(BASE, BASE[:2])
    assert ops(got.pairs) == [("=", 0, 0), ("=", 1, 1), ("-", 2, None), ("-", 3, None)]
    assert got.first_divergence == 2


def test_a_reworded_message_pairs_by_similarity_and_a_different_one_does_not() -> None:
    reworded = msg(4, "The CEO of Anthropic is Dario Amodei (since 2021).")
    unrelated = msg(4, "zzzz qqqq xxxx")
    got = align(BASE, [BASE[0], BASE[1], BASE[2], reworded])
    assert ops(got.pairs)[-1] == ("~", 3, 3)
    assert got.pairs[-1].why == "text differs"
    got = align(BASE, [BASE[0], BASE[1], BASE[2], unrelated])
    assert ops(got.pairs)[-2:] == [("-", 3, None), ("+", None, 3)]


def test_calls_of_different_tools_are_never_paired() -> None:
    other = tool(3, "Bash", {"url": "https://anthropic.com/company"}, "<html>team</html>")
    got = align(BASE, [BASE[0], BASE[1], other, BASE[3]])
    assert ("~", 2, 2) not in ops(got.pairs)
    assert ("-", 2, None) in ops(got.pairs) and ("+", None, 2) in ops(got.pairs)


def test_two_long_runs_align_every_step() -> None:
    """2,000 steps, every 97th dropped and a thought inserted (the time it takes is in
    ``make bench``)."""
    a = [tool(k, "Bash", {"cmd": f"step {k} " + "x" * (k % 50)}) for k in range(1, 2001)]
    b = [s for k, s in enumerate(a) if k % 97 != 0]
    b.insert(500, msg(0, "an extra thought"))
    got = align(a, b)
    assert got.count(Op.SAME) == len(b) - 1
    assert got.count(Op.ONLY_A) == len(a) - (len(b) - 1)
    assert got.count(Op.ONLY_B) == 1
