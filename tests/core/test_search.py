"""Search every text of every run (trajtui.core.search): hits in each kind of field, for each
format, with references that open, escaped strings, regular expressions, case, --in, broken
lines, snippets."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import orjson
import pytest

import tests.formats.eval_results.builders as be
import tests.formats.forecast.builders as fc
from tests.formats.acp.builders import (
    capture,
    step_message,
    step_thought,
    step_tool,
    trials,
    write_jsonl,
)
from tests.helpers.workspace import open_paths
from trajtui.core.model import Problem
from trajtui.core.search import Hit, PatternError, Progress, Search, compile_needle
from trajtui.core.search.needle import required_literal
from trajtui.core.workspace import Workspace


def opened(*paths: Path) -> Workspace:
    ws = open_paths([str(p) for p in paths])
    for _ in ws.scan():
        pass
    return ws


def hits_of(ws: Workspace, pattern: str, **kw: Any) -> list[Hit]:
    kinds = kw.pop("kinds", None)
    needle = compile_needle(pattern, **kw)
    events = Search(ws.sources, needle, kinds=kinds, qualify=ws.ref).events()
    return [e for e in events if isinstance(e, Hit)]


def where(hits: list[Hit]) -> set[tuple[str, str]]:
    return {(h.ref, h.field) for h in hits}


@pytest.fixture
def capture_ws(tmp_path: Path) -> Workspace:
    rec = capture(
        "web-1",
        trajectory=[
            step_thought("I should check the zebra pages", 100),
            step_tool(
                "WebSearch",
                "completed",
                150,
                input={"query": "zebra stripes"},
                output="zebra results here",
            ),
            step_message("Zebras have stripes", 500),
        ],
        input="Tell me about zebras",
        output="Zebra answer",
        hint="must mention the zebra",
        metadata={"category": "zebra-facts"},
        errors=["zebra error"],
    )
    other = capture("web-2", input="nothing here", output="nope", hint="none")
    return opened(write_jsonl(tmp_path / "cap.jsonl", [rec, other]))


def test_every_field_of_a_capture_is_searched_with_a_reference_that_opens(
    capture_ws: Workspace,
) -> None:
    hits = hits_of(capture_ws, "zebra", ignore_case=True)
    assert where(hits) == {
        ("web-1", "input"),
        ("web-1", "output"),
        ("web-1", "hint"),
        ("web-1", "metadata"),
        ("web-1", "errors"),
        ("web-1-step-1", "thought"),
        ("web-1-step-2", "tool input"),
        ("web-1-step-2", "tool output"),
        ("web-1-step-3", "message"),
    }
    kinds = {h.field: h.kind for h in hits}
    assert kinds["hint"] == "expected"
    assert kinds["tool input"] == "tool"
    assert kinds["thought"] == "thought"
    for hit in hits:
        assert capture_ws.resolve(hit.ref).ref == hit.ref  # show and --goto open it
        assert hit.run == "web-1"
        assert hit.line == 1
        assert hit.snippet.match.lower().startswith("zebra")


def test_case_matters_unless_ignore_case(capture_ws: Workspace) -> None:
    assert where(hits_of(capture_ws, "Zebra")) == {
        ("web-1", "output"),
        ("web-1-step-3", "message"),
    }
    assert len(hits_of(capture_ws, "ZEBRA", ignore_case=True)) == 9


def test_in_restricts_the_kinds_of_field(capture_ws: Workspace) -> None:
    hits = hits_of(capture_ws, "zebra", ignore_case=True, kinds={"tool", "thought"})
    assert where(hits) == {
        ("web-1-step-1", "thought"),
        ("web-1-step-2", "tool input"),
        ("web-1-step-2", "tool output"),
    }


def test_trials_hits_name_the_trial_and_its_steps(tmp_path: Path) -> None:
    rec = trials("t-1", [True, False])
    rec["trials"][1]["reasoning"] = "the grader found a flaw"
    ws = opened(write_jsonl(tmp_path / "trials.jsonl", [rec]))
    assert where(hits_of(ws, "flaw")) == {("t-1/trial-2", "reasoning")}
    assert where(hits_of(ws, "answer 2")) == {
        ("t-1/trial-2", "output"),
        ("t-1/trial-2/step-3", "message"),
    }
    assert ws.resolve("t-1/trial-2/step-3").ref == "t-1/trial-2/step-3"


@pytest.mark.parametrize("writer", ["json", "orjson"])
@pytest.mark.parametrize(
    "needle",
    [
        'say "hello"',
        "back\\slash",
        "café crème",
        "two\nlines",
        "a/b path",
        "emoji 🦓 here",
        "<tag>&",
    ],
)
def test_escaped_strings_are_found_however_the_file_writes_them(
    tmp_path: Path, writer: str, needle: str
) -> None:
    text = f"before {needle} after"
    rec = capture("esc-1", output=text)
    if writer == "json":  # ASCII only: every non-ASCII character as \uXXXX, / kept
        line = json.dumps(rec).encode()
    else:  # UTF-8 as is
        line = orjson.dumps(rec)
    if needle == "<tag>&":  # Go's encoder
        line = line.replace(b"<", b"\\u003c").replace(b">", b"\\u003e").replace(b"&", b"\\u0026")
    if needle == "a/b path":
        line = line.replace(b"/", b"\\/")
    path = tmp_path / "esc.jsonl"
    path.write_bytes(line + b"\n" + orjson.dumps(capture("esc-2", output="plain")) + b"\n")
    ws = opened(path)
    hits = hits_of(ws, needle)
    assert where(hits) == {("esc-1", "output")}
    assert (hits[0].start, hits[0].end) == (7, 7 + len(needle))
    upper = hits_of(ws, needle.upper(), ignore_case=True)
    assert where(upper) == {("esc-1", "output")}


def test_regex_hits_and_its_prefilter(capture_ws: Workspace) -> None:
    hits = hits_of(capture_ws, r"zebra\s+(stripes|results)", regex=True)
    assert where(hits) == {("web-1-step-2", "tool input"), ("web-1-step-2", "tool output")}
    assert required_literal(r"zebra\s+(stripes|results)", False) == ("zebra", False)
    # a pattern with no literal part has every record parsed, and still finds its hits
    assert required_literal(r"[zZ]\w+s\b", False) is None
    assert ("web-1-step-3", "message") in where(hits_of(capture_ws, r"[zZ]\w+s\b", regex=True))


def test_invalid_regex_is_one_clear_line() -> None:
    with pytest.raises(PatternError) as err:
        compile_needle("(unclosed", regex=True)
    assert str(err.value) == "invalid regular expression '(unclosed': missing )"
    with pytest.raises(PatternError):
        compile_needle("")


def test_a_pathological_regex_cannot_hang(tmp_path: Path) -> None:
    ws = opened(write_jsonl(tmp_path / "x.jsonl", [capture("x-1", output="a" * 50_000 + "!")]))
    assert hits_of(ws, r"(a+)+$", regex=True) == []  # backtracking engines take forever


def test_a_broken_line_is_reported_and_the_rest_searched(tmp_path: Path) -> None:
    path = write_jsonl(
        tmp_path / "b.jsonl",
        [capture("ok-1", output="needle one"), capture("ok-2", output="needle two")],
        raw_lines={1: b'{"id": "bad", "output": "needle broken'},
    )
    ws = opened(path)
    events = list(Search(ws.sources, compile_needle("needle")).events())
    hits = [e for e in events if isinstance(e, Hit)]
    problems = [e for e in events if isinstance(e, Problem)]
    assert {h.ref for h in hits} == {"ok-1", "ok-2"}
    assert [p.line for p in problems] == [2]
    assert str(problems[0]).startswith(f"{path}:2: ")


def test_forecast_messages_and_model_calls(tmp_path: Path) -> None:
    fc.run_dir(tmp_path / "fed", fc.fed_run())
    ws = opened(tmp_path / "fed")
    run = ws.sources[0].run(0)
    # a tool result in the pool: its message reference
    hits = hits_of(ws, "added to board")
    assert where(hits) == {(f"{run.ref}/msg:T1", "tool message")}
    # a model call's answer: its step (once, not again as the pool message it produced)
    assert where(hits_of(ws, "Hold is likely")) == {(f"{run.ref}/step-3", "answer")}
    for hit in hits:
        assert ws.resolve(hit.ref).ref == hit.ref


def test_eval_results_samples(tmp_path: Path) -> None:
    doc = be.results_doc([be.sample("b1", "Sweet Bakery"), be.failed("b2", "Sour Deli")])
    be.write_json(tmp_path / "res" / "results.json", doc)
    ws = opened(tmp_path / "res")
    hits = hits_of(ws, "bad temperature")
    assert len(hits) == 1
    assert hits[0].field == "error"
    assert ws.resolve(hits[0].ref).kind == "step"


def test_snippet_is_one_safe_line_with_the_match_marked(tmp_path: Path) -> None:
    text = "first line\n" + "x" * 200 + "\x1b[31mred [bold]needle[/bold]\tend\nnext" + "y" * 300
    ws = opened(write_jsonl(tmp_path / "s.jsonl", [capture("s-1", output=text)]))
    (hit,) = hits_of(ws, "needle")
    snip = hit.snippet
    assert snip.match == "needle"
    assert "\x1b" not in snip.text and "\n" not in snip.text and "\t" not in snip.text
    assert "␛[31mred [bold]needle[/bold] end⏎nexty" in snip.text  # shown as it is
    assert snip.text.startswith("…") and snip.text.endswith("…")
    assert len(snip.text) <= 121


def test_progress_counts_and_cancel(capture_ws: Workspace) -> None:
    search = Search(capture_ws.sources, compile_needle("zebra", ignore_case=True))
    events = list(search.events())
    last = events[-1]
    assert isinstance(last, Progress) and last.finished and not last.cancelled
    assert (last.hits, last.runs_hit, last.runs_total) == (9, 1, 2)
    assert last.parsed == 1  # only the record holding the word was parsed
    assert last.fraction == 1.0
    stopped = Search(capture_ws.sources, compile_needle("zebra", ignore_case=True))
    for event in stopped.events():
        if isinstance(event, Hit):
            stopped.cancel()
    assert stopped.hits == 1 and stopped.progress().cancelled


def test_where_selects_the_runs_searched(capture_ws: Workspace) -> None:
    needle = compile_needle("e", ignore_case=True)
    search = Search(capture_ws.sources, needle, where=lambda run: run.ref == "web-2")
    assert {e.run for e in search.events() if isinstance(e, Hit)} == {"web-2"}


def test_atif_steps_reasoning_and_tool_calls(tmp_path: Path) -> None:
    from tests.formats.atif import builders as ba

    ws = opened(ba.job(tmp_path / "job-1"))
    hits = hits_of(ws, "1 failed", kinds={"tool"})
    assert {(h.ref.split("__")[1], h.field) for h in hits} == {
        ("AAAA111/step-2", "result of call 2"),
        ("BBBB222/step-2", "result of call 2"),
    }
    reasoning = hits_of(ws, "division", kinds={"reasoning"})
    assert len(reasoning) == 2 and all(h.ref.endswith("/step-2") for h in reasoning)
    for hit in hits + reasoning:
        assert ws.resolve(hit.ref).kind == "step"
