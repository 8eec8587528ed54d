"""Numbers the JSON parser accepts are shown and never crash (issue 8, item 25): numbers at the
edges listed and shown, formatting that never raises and stays short, rows with huge numbers
drawn and sorted."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers.ui import running, settle
from tests.hostile.fresh import rec, run
from trajtui.render import fmt

# -- 25. numbers the parser accepts are shown, never crash ------------------------------------


def test_numbers_at_the_edges_are_listed_and_shown(tmp_path: Path) -> None:
    # Held to: no crash, no 300-digit cells; 1e999 is valid JSON and is read.
    def timed(rid: str, total: str) -> bytes:
        return rec(f'"{rid}"', f'"input":"q","trajectory":[],"timing":{{"total":{total}}}')

    p = tmp_path / "numbers.jsonl"
    p.write_bytes(
        b"\n".join(
            [
                timed("big", "1" + "0" * 400),
                timed("inf", "1e999"),
                timed("negzero", "-0.0"),
                timed("tiny-neg", "-0.4"),
                timed("neg", "-1e308"),
                rec('"score"', '"input":"q","trajectory":[],"timing":{},"score":{"score":1e999}'),
            ]
        )
        + b"\n"
    )
    out = run("ls", str(p))
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr
    rows = {line.split()[0]: line for line in out.stdout.splitlines()[1:]}
    assert set(rows) == {"big", "inf", "negzero", "tiny-neg", "neg", "score"}
    assert all(len(line) < 120 for line in out.stdout.splitlines())
    assert " -0ms" not in rows["negzero"] and " 0ms" in rows["negzero"]
    assert "-0.4ms" in rows["tiny-neg"]
    assert "1e+400ms" in rows["big"]
    assert "-1e+308ms" in rows["neg"]
    # Infinities are numbers the parser accepts: shown as the file says, never as absent.
    assert rows["inf"].split()[6] == "1e999ms" and rows["score"].split()[7] == "1e999", out.stdout
    as_json = run("ls", "--json", str(p)).stdout
    listed = {r["ref"]: r for r in map(json.loads, as_json.splitlines())}
    assert listed["score"]["score"] == listed["inf"]["duration_ms"] == float("inf")
    assert '"score":1e999' in as_json  # spelled as the file does, valid JSON
    shown = run("show", str(p), "inf", "--json")
    assert shown.returncode == 0, shown.stderr
    assert '"total":1e999' in shown.stdout
    big = run("show", str(p), "big", "--json")
    assert '"total":1' + "0" * 400 + "}" in big.stdout
    text = run("show", str(p), "big")
    assert text.returncode == 0 and "1e+400ms" in text.stdout


@pytest.mark.parametrize(
    "value",
    [
        10**400,
        -(10**400),
        10**5000,
        float("inf"),
        float("-inf"),
        float("nan"),
        -0.0,
        1e308,
        -1e308,
        5e-324,
    ],
    ids=["1e400", "-1e400", "1e5000", "inf", "-inf", "nan", "-0.0", "1e308", "-1e308", "5e-324"],
)
def test_formatting_never_raises_and_stays_short(value: float) -> None:
    for text in (
        fmt.number(value),
        fmt.duration(value),
        fmt.offset(value),
        fmt.cost(value),
        fmt.percent(value),
    ):
        assert 0 < len(text) < 40, text


async def test_rows_with_huge_numbers_draw_and_sort(tmp_path: Path) -> None:
    p = tmp_path / "numbers.jsonl"
    p.write_bytes(
        rec('"big"', '"input":"q","trajectory":[],"timing":{"total":1' + "0" * 400 + "}")
        + b"\n"
        + rec('"neg"', '"input":"q","trajectory":[],"timing":{"total":-1e308}')
        + b"\n"
        + rec('"ok"', '"input":"q","trajectory":[],"timing":{"total":5}')
        + b"\n"
    )
    async with running([str(p)]) as (pilot, app, screen):
        await settle(pilot)
        for _ in range(8):  # every sort column, then back to file order
            await pilot.press("s")
            await settle(pilot)
            drawn = [
                screen.run_list.render_row(k, 120).plain for k in range(len(screen.store.rows))
            ]
            cells = {line.split()[2]: line for line in drawn if line.split()[2:3]}
            assert set(cells) == {"big", "neg", "ok"}, drawn
            assert all(len(line) <= 120 for line in drawn)
        assert "1e+400ms" in cells["big"] and "-1e+308ms" in cells["neg"]
